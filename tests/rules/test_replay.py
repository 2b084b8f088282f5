"""Replay: a deal and a move list rebuild every step, and a bad history names its bad step."""

from __future__ import annotations

import itertools
import random

import pytest

from games.rules import ReplayError, get_variant, replay, replay_states

from .helpers import move
from .playouts import random_playout


def played_game(slug="blondes-and-brunettes", seed=17, length=120):
    variant = get_variant(slug)
    rng = random.Random(seed)
    states = [variant.deal(seed)]
    moves = []
    for _ in range(length):
        options = variant.legal_moves(states[-1])
        if not options:
            break
        moves.append(rng.choice(options))
        states.append(variant.apply(states[-1], moves[-1]))
    return variant, moves, states


def test_replay_rebuilds_the_state_at_every_step():
    variant, moves, states = played_game()
    assert list(replay_states(variant, 17, moves)) == states
    assert replay(variant, 17, moves) == states[-1]
    assert variant.replay(17, moves, step=40) == states[40]
    assert replay(variant, 17, moves, step=0) == variant.deal(17)


def test_replay_takes_moves_as_json():
    variant, moves, states = played_game("gold-mine", 3)
    assert replay(variant, 3, [m.to_json() for m in moves]) == states[-1]


def test_a_bad_history_is_reported_at_the_step_where_it_breaks():
    variant, moves, _ = played_game("grounds-for-divorce", 8, 30)
    broken = [*moves[:12], move("tableau:0", "tableau:0"), *moves[12:]]
    with pytest.raises(ReplayError) as refused:
        replay(variant, 8, broken)
    assert refused.value.step == 13
    assert refused.value.code == "same_pile"
    assert refused.value.message.startswith("move 13:")


def test_a_history_of_malformed_json_is_reported_too():
    variant = get_variant("gold-mine")
    with pytest.raises(ReplayError) as refused:
        replay(variant, 1, [{"type": "deal"}, {"type": "fly"}])
    assert (refused.value.step, refused.value.code) == (2, "malformed_move")


def test_a_step_beyond_the_history_is_refused():
    variant, moves, _ = played_game(length=5)
    with pytest.raises(ValueError, match="step"):
        replay(variant, 17, moves, step=len(moves) + 1)


def test_random_playouts_replay_to_the_same_final_state():
    for slug in ("selective-castle", "grandfathers-clock"):
        variant = get_variant(slug)
        states = random_playout(variant, 5, random.Random(5), 200)
        moves = [
            next(m for m in variant.legal_moves(a) if variant.apply(a, m) == b)
            for a, b in itertools.pairwise(states)
        ]
        assert replay(variant, 5, moves) == states[-1]
