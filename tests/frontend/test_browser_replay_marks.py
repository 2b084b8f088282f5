"""A replay shows what moved (issue 36): the card that moved and its two piles are marked on the
board, and the move list names the cards ("7♥ from tableau pile 6 to tableau pile 5")."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.frontend.browser_helpers import (
    call_api,
    create_players,
    post_move,
    sign_in,
    start_game,
    watch_errors,
    winning_line,
)
from tests.frontend.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)])
def test_a_replay_marks_the_moved_card_and_its_piles_and_names_the_cards(
    site, new_context, django_user_model, viewport
):
    width, height = viewport
    line = winning_line("grandfathers-clock")
    create_players(django_user_model, "ada")
    page = new_context(viewport={"width": width, "height": height}).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    game_id = start_game(page, "grandfathers-clock", line["seed"])
    for number, move in enumerate(line["moves"][:5]):
        post_move(page, game_id, move, number)
    call_api(page, "POST", f"/api/games/{game_id}/resign/", {})
    cards = [e["cards"] for e in call_api(page, "GET", f"/api/games/{game_id}/moves/")["body"]]

    page.goto(f"{site}/replay/{game_id}/")
    expect(page.locator("#replay-summary")).to_contain_text("6 steps")
    page.locator("#forward").click()
    first = line["moves"][0]
    moved = page.locator(f'.pile[data-pile="{first["to"]}"] .card.replay-moved')
    expect(moved).to_have_count(1)
    expect(moved).to_have_attribute("data-card", cards[0][0])
    expect(page.locator(f'.pile.replay-from[data-pile="{first["from"]}"]')).to_have_count(1)
    expect(page.locator(f'.pile.replay-to[data-pile="{first["to"]}"]')).to_have_count(1)
    expect(page.locator("#step-entry")).to_have_text(
        re.compile(r"^Move 1: (10|[2-9AJQK])[♠♥♦♣]\ufe0e? from .+ to .+")
    )
    screenshot(page, f"replay-marked-{width}")
    page.locator("#history summary").click()
    expect(page.locator("#history-list li").first).to_contain_text(" from ")
    expect(page.locator("#history-list li").first).not_to_contain_text("→")
    assert errors == []
