"""Automatic play to the foundations (a setting: off, safe cards only, every card that can go):
after a move of the player's the page sends the cards home as ordinary moves through the API,
one at a time; the engine takes each, and the game's history replays and verifies as before.
"Safe" sends only the moves the server lists in safe_home_moves (the solver's safe rule). When
every card left can only go home, Finish is offered."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from games.moderation.verification import verify_game
from games.play.autoplay import safe_home_moves
from games.rules import get_variant, move_from_json
from tests.frontend.browser_helpers import (
    call_api,
    create_players,
    open_game,
    post_move,
    release_connection,
    sign_in,
    start_game,
    tap_move,
    watch_errors,
    winning_line,
)

pytestmark = pytest.mark.django_db(transaction=True)

OFFERED = re.compile(r"\boffer\b")


def player_page(new_context, site: str, autoplay: str) -> Page:
    context = new_context()
    setting = json.dumps({"autoplay": autoplay})
    context.add_init_script(f"localStorage.setItem('patience.settings', {json.dumps(setting)})")
    page = context.new_page()
    sign_in(page, site, "ada")
    return page


def goes_home(move: dict[str, Any]) -> bool:
    return (
        move["type"] == "move"
        and move["to"].startswith("foundation:")
        and not move["from"].startswith("foundation:")
    )


def a_move_that_lets_cards_go_home(slug: str, safe: bool):
    """Along the game's winning line: the moves before a player's move (not one home) after
    which automatic play has a card to send (a safe one when ``safe``)."""
    variant = get_variant(slug)
    line = winning_line(slug)
    state = variant.deal(line["seed"])
    for index, move in enumerate(line["moves"]):
        after = variant.apply(state, move_from_json(move))
        legal = variant.legal_moves(after)
        sends = (
            safe_home_moves(variant, after, legal)
            if safe
            else [m.to_json() for m in legal if goes_home(m.to_json())]
        )
        if not goes_home(move) and move["type"] == "move" and sends and index > 0:
            return line["seed"], line["moves"][:index], move
        state = after
    raise AssertionError(f"{slug}: no such move on the line")


def settle(page: Page, game_id: int) -> list[dict[str, Any]]:
    """The game's history once automatic play has stopped (no new entry for a second)."""
    seen = -1
    for _ in range(40):
        history = call_api(page, "GET", f"/api/games/{game_id}/moves/")["body"]
        entries = history["results"] if isinstance(history, dict) else history
        if len(entries) == seen:
            return entries
        seen = len(entries)
        page.wait_for_timeout(1000)
    raise AssertionError("automatic play never stopped")


@pytest.mark.parametrize("mode", ["safe", "all"])
def test_automatic_play_sends_moves_the_engine_takes_and_the_history_replays(
    site, new_context, django_user_model, mode
):
    create_players(django_user_model, "ada")
    page = player_page(new_context, site, mode)
    errors = watch_errors(page)
    slug = "gold-mine"
    seed, before, move = a_move_that_lets_cards_go_home(slug, safe=mode == "safe")
    game_id = start_game(page, slug, seed=seed)
    for number, step in enumerate(before):
        post_move(page, game_id, step, number)
    open_game(page, site, game_id)
    tap_move(page, move)
    entries = settle(page, game_id)
    played = [entry["move"] for entry in entries]
    assert played[: len(before) + 1] == [*before, move]
    sent = played[len(before) + 1 :]
    assert sent, "automatic play sent nothing"
    # Each sent move was what the setting allows in the position it was sent in.
    variant = get_variant(slug)
    state = variant.deal(seed)
    for step in played[: len(before) + 1]:
        state = variant.apply(state, move_from_json(step))
    for step in sent:
        legal = variant.legal_moves(state)
        assert goes_home(step) and step in [m.to_json() for m in legal]
        if mode == "safe":
            assert step in safe_home_moves(variant, state, legal)
        state = variant.apply(state, move_from_json(step))
    # Nothing is left that the setting would send.
    legal = variant.legal_moves(state)
    if mode == "safe":
        assert safe_home_moves(variant, state, legal) == []
    else:
        assert not [m for m in legal if goes_home(m.to_json())]
    # The history replays to the stored game, as for any game.
    game = Game.objects.get(pk=game_id)
    assert verify_game(game) is None
    release_connection()
    expect(page.locator("#board")).to_have_attribute("data-move-number", str(len(played)))
    assert errors == []


def test_automatic_play_off_sends_nothing(site, new_context, django_user_model):
    create_players(django_user_model, "ada")
    page = player_page(new_context, site, "off")
    seed, before, move = a_move_that_lets_cards_go_home("gold-mine", safe=False)
    game_id = start_game(page, "gold-mine", seed=seed)
    for number, step in enumerate(before):
        post_move(page, game_id, step, number)
    open_game(page, site, game_id)
    tap_move(page, move)
    assert len(settle(page, game_id)) == len(before) + 1


def test_finish_is_offered_when_every_card_left_can_only_go_home(
    site, new_context, django_user_model
):
    create_players(django_user_model, "ada")
    page = player_page(new_context, site, "off")
    slug = "grandfathers-clock"
    line = winning_line(slug)
    variant = get_variant(slug)
    # The last player's move of the line that is not a move home: after it, only moves home.
    last = max(i for i, m in enumerate(line["moves"]) if not goes_home(m))
    game_id = start_game(page, slug, seed=line["seed"])
    for number, step in enumerate(line["moves"][:last]):
        post_move(page, game_id, step, number)
    open_game(page, site, game_id)
    expect(page.locator("#finish")).not_to_have_class(OFFERED)
    tap_move(page, line["moves"][last])
    expect(page.locator("#finish")).to_have_class(OFFERED)
    expect(page.locator("#message")).to_contain_text("Every card left can go home")
    page.locator("#finish").click()
    expect(page.locator("#result")).to_be_visible(timeout=30_000)
    assert variant.slug == slug
