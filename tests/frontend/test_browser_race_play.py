"""The play page of a race's game, at desktop and phone sizes: no Hint (not shown, and H says
why), Undo as the room says, a link back to the race room in the bar and in the result; and
"Race a friend on this game" from a finished game's result, which opens a race of that game
and goes to its room with the link to send; the race, once over, on the player's profile."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.frontend.browser_helpers import (
    board_ready,
    call_api,
    create_players,
    open_play_menu,
    sign_in,
    start_game,
    watch_errors,
)
from tests.frontend.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def race_game(page, code: str) -> int:
    """The player's game of a started race, once the countdown has dealt it."""
    for _ in range(100):
        game = call_api(page, "GET", f"/api/races/{code}/")["body"]["you"]["game"]
        if game is not None:
            return game
        time.sleep(0.1)
    raise AssertionError("the race's game never came")


def resign(page) -> None:
    open_play_menu(page)
    page.locator("#resign").click()
    page.locator("#confirm-resign").click()
    expect(page.locator("#result")).to_be_visible()


@pytest.mark.parametrize("size", SIZES)
def test_a_race_game_has_no_hint_undo_as_its_room_says_and_leads_back_to_the_race(
    site, new_context, django_user_model, size
):
    create_players(django_user_model, "ada", "bea")
    ada, bea = (new_context(viewport=SIZES[size]).new_page() for _ in range(2))
    errors = watch_errors(ada) + watch_errors(bea)
    sign_in(ada, site, "ada")
    sign_in(bea, site, "bea")
    body = {"variant": "gold-mine", "undo": False}
    code = call_api(ada, "POST", "/api/races/", body)["body"]["code"]
    assert call_api(bea, "POST", f"/api/races/{code}/join/", {})["status"] == 200
    assert call_api(ada, "POST", f"/api/races/{code}/start/", {})["status"] == 200
    game = race_game(ada, code)

    ada.goto(f"{site}/play/{game}/")
    board_ready(ada)
    expect(ada.locator("#hint")).to_be_hidden()
    expect(ada.locator("#undo")).to_be_hidden()
    back = ada.get_by_role("link", name="Back to the race")
    expect(back).to_be_visible()
    expect(back).to_have_attribute("href", f"/races/{code}/")
    expect(ada.locator("#badges .badge.race")).to_have_text("Race")
    ada.locator("#board .pile[tabindex='0']").focus()
    ada.keyboard.press("h")
    expect(ada.locator("#message")).to_have_text("Races have no hints: the race is between you.")
    screenshot(ada, f"race-play-{size}")

    resign(ada)
    result = ada.locator("#result")
    expect(result.get_by_role("link", name="Back to the race")).to_be_visible()
    # Not the deal's number, nor another game of it: bea is still racing on it.
    expect(ada.locator("#result-seed")).to_be_hidden()
    expect(ada.locator("#result-again")).to_be_hidden()
    expect(ada.locator("#result-race-friend")).to_be_hidden()
    expect(ada.locator("#result-hints")).to_be_hidden()  # a race has no hints
    expect(ada.locator("#result-moves")).to_be_visible()
    screenshot(ada, f"race-play-result-{size}")
    result.get_by_role("link", name="Back to the race").click()
    ada.wait_for_url(f"{site}/races/{code}/")
    expect(ada.locator("#race-phase")).to_contain_text("Racing")

    # Once it is over, ada's profile lists it, linking to its page.
    bea_game = race_game(bea, code)
    assert call_api(bea, "POST", f"/api/games/{bea_game}/resign/", {})["status"] == 200
    expect(ada.locator("#race-phase")).to_have_text("The race is over.", timeout=10_000)
    ada.goto(f"{site}/players/ada/")
    row = ada.locator(f'#player-races tbody tr[data-code="{code}"]')
    expect(row.get_by_role("link", name="Gold Mine")).to_have_attribute("href", f"/races/{code}/")
    expect(row.locator("td").nth(1)).to_have_text("1 of 2")
    row.scroll_into_view_if_needed()
    screenshot(ada, f"race-profile-{size}")
    assert errors == []


@pytest.mark.parametrize("size", SIZES)
def test_race_a_friend_from_a_finished_game_opens_a_race_of_that_game(
    site, new_context, django_user_model, size
):
    create_players(django_user_model, "ada")
    ada = new_context(viewport=SIZES[size]).new_page()
    errors = watch_errors(ada)
    sign_in(ada, site, "ada")
    game = start_game(ada, "selective-castle")
    ada.goto(f"{site}/play/{game}/")
    board_ready(ada)
    resign(ada)
    ada.locator("#result").get_by_role("button", name="Race a friend on this game").click()
    ada.wait_for_url(re.compile(r"/races/[a-z0-9]+/$"))
    expect(ada.locator("#race-title")).to_have_text("Race: Selective Castle")
    expect(ada.locator("#race-link-line")).to_contain_text("Send this link")
    expect(ada.locator("#race-phase")).to_contain_text("Waiting for players")
    code = ada.url.rstrip("/").rsplit("/", 1)[-1]
    race = call_api(ada, "GET", f"/api/races/{code}/")["body"]
    # Sent to a friend, so not on the lobby's list; a new deal of the game, not the one seen.
    assert race["listed"] is False and race["variant"] == "selective-castle"
    assert race["you"]["opener"] is True
    screenshot(ada, f"race-a-friend-{size}")
    assert errors == []
