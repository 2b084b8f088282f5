""" "Winnable deals only" holds for every new deal until it is switched off (issue 36): ticked in
the lobby, the play page's "New game" and the result's "New deal" deal proven-winnable deals
too, the play page shows it on both buttons, and its Settings switch it off for the lobby too."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Game, WinnableDeal
from tests.frontend.browser_helpers import (
    board_ready,
    call_api,
    create_players,
    open_play_menu,
    release_connection,
    sign_in,
    wait_for_new_game,
    watch_errors,
)
from tests.frontend.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)

CLOCK = "grandfathers-clock"


def pool(*seeds: int) -> None:
    for seed in seeds:
        WinnableDeal.objects.create(variant=CLOCK, seed=seed, moves=[], positions=1, seconds=0.1)
    release_connection()


def dealt(game_id: int) -> Game:
    game = Game.objects.select_related("deal").get(pk=game_id)
    release_connection()
    return game


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)])
def test_winnable_deals_only_holds_on_the_play_page_until_switched_off(
    site, new_context, django_user_model, viewport
):
    width, height = viewport
    create_players(django_user_model, "ada")
    pool(31, 32, 33)
    page = new_context(viewport={"width": width, "height": height}).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    page.goto(site + "/")
    page.locator("#winnable-only").check()
    page.locator(f'.new-deal[data-variant="{CLOCK}"]').click()
    first = wait_for_new_game(page)
    board_ready(page)
    assert dealt(first).winnable

    # The play page shows it on "New game", whose new deal is a winnable one too.
    new_game = page.locator("#new-game")
    open_play_menu(page)  # a phone's New game is in the ☰ menu
    expect(new_game.locator(".winnable-mark")).to_be_visible()
    expect(new_game).to_have_accessible_name(re.compile(r"^New game\s*,\s*winnable$"))
    screenshot(page, f"winnable-only-play-{width}")
    new_game.click()
    second = wait_for_new_game(page, first)
    board_ready(page)
    assert dealt(second).winnable and dealt(second).deal.seed in (31, 32, 33)

    # The result's "New deal" as well.
    call_api(page, "POST", f"/api/games/{second}/resign/", {})
    page.reload()
    result = page.locator("dialog#result")
    expect(result.locator("#result-new .winnable-mark")).to_be_visible()
    result.locator("#result-new").click()
    third = wait_for_new_game(page, first, second)
    board_ready(page)
    assert dealt(third).winnable

    # Switched off in the play page's Settings: no mark, a random deal, and the lobby agrees.
    open_play_menu(page)
    page.locator(".open-settings:visible").first.click()
    page.locator("#setting-winnable").uncheck()
    page.locator("#settings-close").click()
    open_play_menu(page)
    expect(new_game).to_be_visible()
    expect(new_game.locator(".winnable-mark")).to_be_hidden()
    new_game.click()
    fourth = wait_for_new_game(page, first, second, third)
    board_ready(page)
    assert not dealt(fourth).winnable
    page.goto(site + "/")
    expect(page.locator("#winnable-only")).not_to_be_checked()
    assert errors == []
