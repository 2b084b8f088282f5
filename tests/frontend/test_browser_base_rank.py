"""Selective Castle's first card home sets the base rank of every foundation: the table says so
and asks before it is played, once (issue 46). The page knows it from the API's variant
(chooses_base_rank_on_first_foundation_move), not from the game's name."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.frontend.browser_helpers import (
    call_api,
    create_players,
    expect_move_number,
    open_game,
    sign_in,
    start_game,
    tap_move,
    watch_errors,
)
from tests.frontend.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)

CASTLE = "selective-castle"


def first_home_move(page, game_id: int) -> dict:
    legal = call_api(page, "GET", f"/api/games/{game_id}/")["body"]["legal_moves"]
    return next(m for m in legal if m["type"] == "move" and m["to"].startswith("foundation:"))


def base_rank(page, game_id: int) -> str | None:
    return call_api(page, "GET", f"/api/games/{game_id}/")["body"]["state"]["base_rank"]


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)])
def test_the_first_card_home_asks_before_it_sets_the_base_rank_then_never_again(
    site, new_context, django_user_model, viewport
):
    width, height = viewport
    create_players(django_user_model, "castle")
    page = new_context(asks_base_rank=True, viewport={"width": width, "height": height}).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "castle")
    game_id = start_game(page, CASTLE, seed=3)
    open_game(page, site, game_id)
    dialog = page.locator("#base-rank-dialog")

    # Asked before it is played; "Not yet" keeps the card where it is.
    move = first_home_move(page, game_id)
    tap_move(page, move)
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("sets the base rank")
    expect(dialog).to_contain_text("every foundation starts")
    screenshot(page, f"base-rank-confirm-{width}x{height}")
    page.locator("#base-rank-not-yet").click()
    expect(dialog).to_be_hidden()
    expect_move_number(page, 0)
    assert base_rank(page, game_id) is None

    # Confirmed: the move is played, the rank set.
    tap_move(page, move)
    expect(dialog).to_be_visible()
    page.locator("#base-rank-confirm").click()
    expect_move_number(page, 1)
    assert base_rank(page, game_id) is not None

    # Once confirmed, off: another game's first card home goes without asking.
    other = start_game(page, CASTLE, seed=5)
    open_game(page, site, other)
    tap_move(page, first_home_move(page, other))
    expect_move_number(page, 1)
    expect(dialog).to_be_hidden()
    assert errors == []


def test_the_api_names_the_one_game_whose_first_card_home_sets_the_base_rank(
    site, new_context, django_user_model
):
    create_players(django_user_model, "miner")
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "miner")
    variants = call_api(page, "GET", "/api/variants/")["body"]
    asks = {v["slug"] for v in variants if v["chooses_base_rank_on_first_foundation_move"]}
    assert asks == {CASTLE}  # the API says which game makes the choice, the page follows
    assert errors == []


def test_the_rules_page_says_the_table_asks_before_the_base_rank_is_set(client) -> None:
    page = client.get(f"/rules/{CASTLE}/").content.decode()
    assert "asks you to confirm before that first card goes home" in page
