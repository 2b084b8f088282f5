"""The history names the cards each move took (``cards``), so the move list can say "7♥ from
tableau pile 6 to tableau pile 5"; only cards that were face up when moved, never a hidden one."""

from __future__ import annotations

import pytest

from games.rules import get_variant
from games.rules.describe import card_words, cards_words
from tests.games.helpers import client_for, history, new_game, play, solve

pytestmark = pytest.mark.django_db


def test_each_move_of_the_history_names_the_cards_it_took_and_other_entries_none() -> None:
    slug = "grandfathers-clock"
    line = solve(slug, 0)[:12]
    variant = get_variant(slug)
    client = client_for()
    game = new_game(client, slug, seed=0)
    state = variant.deal(0)
    expected = []
    for move in line:
        pile = variant.state_to_json(state)["piles"][move["from"]]["cards"]
        expected.append(pile[-move.get("count", 1) :])
        state = variant.apply(state, variant.move_from_json(move))
        game = play(client, game["id"], move)
    client.post(f"/api/games/{game['id']}/undo/", {}, format="json")
    client.post(f"/api/games/{game['id']}/resign/", {}, format="json")

    entries = history(client, game["id"])
    assert [entry["cards"] for entry in entries] == [*expected, [], []]
    # The move list's words: each move names its card, an undo names the move it took back.
    said = [entry["said"] for entry in entries]
    for words, cards in zip(said, expected, strict=False):
        assert words.startswith(f"{card_words(cards[0])} from pile "), words
    assert said[-2] == f"Took back {said[len(expected) - 1].split(';')[0]}"
    assert said[-1] == "Resigned"
    assert all(len(cards) == 1 and cards[0][1] in "SHDC" for cards in expected)


def test_a_game_with_hidden_cards_names_only_what_was_face_up() -> None:
    slug = "gold-mine"
    variant = get_variant(slug)
    client = client_for()
    game = new_game(client, slug, seed=3)
    state = variant.deal(3)
    for _ in range(15):
        moves = [m for m in variant.legal_moves(state)]
        if not moves:
            break
        move = moves[0]
        game = play(client, game["id"], move.to_json())
        state = variant.apply(state, move)
    for entry in history(client, game["id"]):
        assert all(isinstance(code, str) and len(code) == 2 for code in entry["cards"])
        if entry["move"]["type"] == "deal":
            assert entry["cards"] == []
            assert entry["said"].startswith("Dealt from the stock")
        else:  # named as they were when moved, or counted: never a card then face down
            assert entry["said"].startswith(cards_words(entry["cards"]) or "1 card")
