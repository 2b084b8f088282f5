"""The game's representation tells the page's automatic play what it may send home:
``safe_home_moves`` (the solver's safe rule, judged from what the player sees) and
``finishes_home`` (every card left can only go home). Neither may depend on a face-down card."""

from __future__ import annotations

import json
import random

import pytest

from games.models import Game
from games.play.autoplay import finishes_home, safe_home_moves
from games.rules import State, get_variant, move_from_json
from games.rules.state import Pile
from games.solver.tactics import Tactics
from tests.frontend.browser_helpers import WINNING_LINES
from tests.games.helpers import SLUGS, client_for
from tests.games.hidden_cards import (
    assert_outside_view_only_face_up,
    assert_text_hides,
    assert_view_hides,
)
from tests.rules.playouts import random_playout


def won_line(slug: str) -> list[State]:
    """The positions of a winning line (tests/rules/winning_lines.json), the deal to the win."""
    variant = get_variant(slug)
    line = json.loads(WINNING_LINES.read_text())[slug]
    states = [variant.deal(line["seed"])]
    for move in line["moves"]:
        states.append(variant.apply(states[-1], move_from_json(move)))
    return states


def positions(slug: str, games: int = 12, moves: int = 160) -> list[State]:
    """Random games' positions, and a won game's (where many cards go home)."""
    variant = get_variant(slug)
    rng = random.Random(f"autoplay-{slug}")
    states = won_line(slug)
    for seed in range(games):
        states.extend(random_playout(variant, seed, rng, moves))
    return states


def solver_safe(slug: str, state: State) -> list[dict]:
    """The solver's own rule on the full state (every card known), for the same moves."""
    variant = get_variant(slug)
    tactics = Tactics(variant)
    return [
        move.to_json()
        for move in variant.legal_moves(state)
        if move.type == "move"
        and tactics.kind_of[move.target] == "foundation"
        and tactics.kind_of[move.source] not in ("foundation", "discard")
        and tactics._is_safe_home(state, move)
    ]


def shuffle_hidden(state: State, rng: random.Random) -> State:
    """The same position as the player sees it, its face-down cards (the stock's included)
    dealt among their places at random."""
    variant = get_variant(state.variant)
    places = []
    for i, pile in enumerate(state.piles):
        hidden = len(pile.cards) if i == variant.stock_i else pile.face_down
        places.extend((i, k) for k in range(hidden))
    cards = [state.piles[i].cards[k] for i, k in places]
    rng.shuffle(cards)
    piles = [list(pile.cards) for pile in state.piles]
    for (i, k), card in zip(places, cards, strict=True):
        piles[i][k] = card
    new = tuple(
        Pile(tuple(cards), pile.face_down) for cards, pile in zip(piles, state.piles, strict=True)
    )
    return state._replace(piles=new)


@pytest.mark.parametrize("slug", SLUGS)
def test_safe_home_moves_are_the_solvers_safe_moves(slug: str) -> None:
    variant = get_variant(slug)
    seen_safe = 0
    for state in positions(slug):
        safe = safe_home_moves(variant, state, variant.legal_moves(state))
        assert safe == solver_safe(slug, state), state
        seen_safe += bool(safe)
    # Grounds for Divorce has no foundation (its runs go to the discard by themselves).
    assert seen_safe or slug == "grounds-for-divorce", f"{slug}: no safe move home was tried"


@pytest.mark.parametrize("slug", SLUGS)
def test_neither_depends_on_a_face_down_card(slug: str) -> None:
    variant = get_variant(slug)
    rng = random.Random(f"hidden-{slug}")
    for state in positions(slug, games=6):
        safe = safe_home_moves(variant, state, variant.legal_moves(state))
        finish = finishes_home(variant, state)
        for _ in range(3):
            other = shuffle_hidden(state, rng)
            assert variant.player_view(other) == variant.player_view(state)
            assert safe_home_moves(variant, other, variant.legal_moves(other)) == safe
            assert finishes_home(variant, other) == finish


@pytest.mark.parametrize("slug", SLUGS)
def test_finishes_home_only_when_nothing_is_hidden_and_the_cards_go_home(slug: str) -> None:
    variant = get_variant(slug)
    for state in positions(slug, games=6):
        if not finishes_home(variant, state):
            continue
        assert not any(pile.face_down for pile in state.piles)
        while not variant.is_won(state):
            move = next(
                m
                for m in variant.legal_moves(state)
                if m.type == "move" and m.target.startswith("foundation:")
            )
            state = variant.apply(state, move)


@pytest.mark.parametrize("slug", [s for s in SLUGS if s != "grounds-for-divorce"])
def test_a_won_line_ends_in_positions_that_finish_home(slug: str) -> None:
    """Along a winning line, the last position before the win (one card from home, nothing
    hidden by then) finishes home; Grounds for Divorce has no foundation."""
    variant = get_variant(slug)
    states = won_line(slug)
    assert variant.is_won(states[-1])
    assert finishes_home(variant, states[-2])
    assert not finishes_home(variant, states[0]) or not any(p.face_down for p in states[0].piles)


@pytest.mark.django_db
@pytest.mark.parametrize("slug", SLUGS)
def test_the_api_sends_them_without_a_face_down_card(slug: str) -> None:
    client = client_for()
    game = client.post("/api/games/", {"variant": slug}, format="json").json()
    rng = random.Random(f"api-{slug}")
    for _ in range(60):
        if game["status"] != "playing" or game["dead_end"]:
            break
        full = Game.objects.get(pk=game["id"]).state
        assert_view_hides(game["state"], full)
        assert_outside_view_only_face_up(game, full, "safe_home_moves")
        assert_text_hides(str(game["safe_home_moves"]), full, -1, "safe_home_moves")
        assert all(move in game["legal_moves"] for move in game["safe_home_moves"])
        assert isinstance(game["finishes_home"], bool)
        move = (game["safe_home_moves"] or game["legal_moves"])[0]
        if rng.random() < 0.5:
            move = rng.choice(game["legal_moves"])
        response = client.post(f"/api/games/{game['id']}/moves/", {"move": move}, format="json")
        assert response.status_code == 201, response.content
        game = response.json()
