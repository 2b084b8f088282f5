"""The compiled core (games.solver.core) against the engine and the Python search: the core is
a second implementation of every game's rules, so on many positions, reached by seeded random
play from many deals and built by hand late in play, its legal moves (in the engine's order),
successors, canonical keys, safe moves, evaluation and narrow-pass moves must equal the
engine's and the Python search's, position by position; and both searches must answer the
same deals the same way, with the same position counts and the same lines (their order is the
same)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from games.rules import VARIANTS, State, Variant, get_variant
from games.solver import LOST, UNKNOWN, WON, Budget, line_wins, solve
from games.solver import core as compiled
from games.solver.evaluation import Evaluator, Weights
from games.solver.search import _Search
from games.solver.tactics import Pass, Tactics, passes_for
from tests.rules.helpers import position
from tests.solver.helpers import lost_castle, played

pytestmark = pytest.mark.skipif(not compiled.AVAILABLE, reason=compiled.MISSING)

SUPPORTED = sorted(slug for slug, variant in VARIANTS.items() if compiled.plays(variant))
LINES = json.loads((Path(__file__).parents[1] / "rules" / "winning_lines.json").read_text())
DEALS = 25
MOVES_PER_DEAL = 250


def random_play(variant: Variant, seed: int) -> Iterator[State]:
    """Deal ``seed`` and the positions of a seeded random game from it (cards go home half
    the time they can, so that play reaches late positions too)."""
    rng = random.Random(f"{variant.slug}:{seed}")
    state = variant.deal(seed)
    for _ in range(MOVES_PER_DEAL):
        yield state
        moves = variant.legal_moves(state)
        if not moves:
            return
        home = [m for m in moves if m.type == "move" and m.target.startswith("foundation")]
        state = variant.apply(state, rng.choice(home if home and rng.random() < 0.5 else moves))


def hand_built(slug: str) -> list[State]:
    """The tests' hand-built, hint-played and nearly won positions of the game."""
    variant = get_variant(slug)
    states = [played(variant, seed, 60)[0] for seed in (3, 11)]
    entry = LINES[slug]
    states += [variant.replay(entry["seed"], entry["moves"][:-back]) for back in (1, 3, 8, 20)]
    if slug == "selective-castle":
        states.append(lost_castle()[1])
    if slug == "gold-mine":
        tops = ["KS", "KC", "KH", "KD", "5H", "5D", "5C"]
        piles = {f"tableau:{i}": card for i, card in enumerate(tops)} | {"waste": "4S"}
        states.append(position(slug, piles)[1])
    if slug == "grounds-for-divorce":
        kings = [f"K{suit}" for suit in "CDHS"] * 2
        piles = {"tableau:0": "3C QH", "tableau:9": "AS"}
        piles |= {f"tableau:{i + 1}": king for i, king in enumerate(kings)}
        states.append(position(slug, piles)[1])
    return states


@pytest.mark.parametrize("slug", SUPPORTED)
def test_the_core_generates_the_engines_moves_and_successors_position_by_position(slug):
    variant = get_variant(slug)
    core = compiled.Core(variant)
    tactics = Tactics(variant)
    passes = passes_for(variant)
    evaluators = [Evaluator(variant, settings.weights) for settings in passes]
    narrow = any(settings.narrow for settings in passes)
    keys: dict[tuple[object, ...], bytes] = {}
    core_keys: dict[bytes, tuple[object, ...]] = {}
    checked = 0
    states = [s for seed in range(DEALS) for s in random_play(variant, seed)] + hand_built(slug)
    for state in states:
        where = f"{slug}: {variant.state_to_json(state)}"
        moves = variant.legal_moves(state)
        assert core.legal_moves(state) == moves, where
        for move in moves:
            child = variant.successor(state, move)
            assert core.successor(state, move) == core.pack(child), f"{where} {move}"
            # The canonical keys part the positions the same way.
            key, core_key = tactics.key(child), core.key(child)
            assert keys.setdefault(key, core_key) == core_key, f"{where} {move}"
            assert core_keys.setdefault(core_key, key) == key, f"{where} {move}"
            checked += 1
        assert core.safe_move(state) == tactics.safe_move(state, moves), where
        for settings, evaluator in zip(passes, evaluators, strict=True):
            assert core.score(state, settings) == evaluator.score(state), where
        if narrow:
            assert core.productive(state) == tactics.productive(state, moves), where
            assert core.safe_move(state, narrow=True) == tactics.safe_move(
                state, tactics.productive(state, moves)
            ), where
    assert checked >= 5_000
    # Keys met more than once: the comparison above did compare equal positions.
    assert len(keys) < checked


#: Weights with every term counting: whole numbers, which the core counts in integers (every
#: game's are), and fractions, which it sums in floating point term by term as the evaluator
#: does.
WEIGHTS = (
    Weights(home=100, link=2, runs=3, face_down=5, buried=3, empty=7, waste=4, reserve=6, stock=2),
    Weights(
        home=100.1,
        link=2.3,
        runs=0.7,
        face_down=1.1,
        buried=3.3,
        empty=6.1,
        waste=0.9,
        reserve=1.3,
        stock=0.1,
    ),
)


@pytest.mark.parametrize("slug", SUPPORTED)
def test_the_core_scores_positions_as_the_evaluator_with_whole_and_fractional_weights(slug):
    variant = get_variant(slug)
    core = compiled.Core(variant)
    states = [s for seed in range(4) for s in random_play(variant, seed)] + hand_built(slug)
    for weights in WEIGHTS:
        settings, evaluator = Pass(weights), Evaluator(variant, weights)
        for state in states:
            assert core.score(state, settings) == evaluator.score(state), (
                f"{slug}: {weights} {variant.state_to_json(state)}"
            )


#: Deals per game where both searches answer, and the budget of each (positions).
AGREEMENT = {
    "grandfathers-clock": (range(6), 5_000),
    "selective-castle": (range(6), 8_000),
    "gold-mine": (range(6), 6_000),
    "blondes-and-brunettes": (range(6), 6_000),
    "grounds-for-divorce": (range(4), 6_000),
}


@pytest.mark.parametrize("slug", SUPPORTED)
def test_the_core_and_the_python_search_answer_alike_with_the_same_positions(slug):
    variant = get_variant(slug)
    core = compiled.Core(variant)
    deals, positions = AGREEMENT[slug]
    starts = [variant.deal(seed) for seed in deals] + hand_built(slug)
    outcomes = set()
    for state in starts:
        for settings in passes_for(variant):
            reference = _Search(variant, Budget(positions, 600), settings)
            outcome, line = reference.run(state)
            core_outcome, core_line, core_positions = core.search(state, settings, positions, 600)
            assert (core_outcome, core_positions) == (outcome, reference.positions)
            assert core_line == line
            outcomes.add(outcome)
    assert WON in outcomes


@pytest.mark.parametrize("slug", SUPPORTED)
def test_the_core_and_the_python_search_find_the_same_most_promising_line(slug):
    """What a hint falls back on when no win is found (``solve(..., best=True)``)."""
    variant = get_variant(slug)
    core = compiled.Core(variant)
    unknown = 0
    for state in [variant.deal(seed) for seed in range(3)] + hand_built(slug):
        for settings in passes_for(variant):
            reference = _Search(variant, Budget(300, 600), settings, best=True)
            outcome, line = reference.run(state)
            got = core.search_best(state, settings, 300, 600)
            assert got[:3] == (outcome, line, reference.positions)
            assert got[3] == reference.best_line()
            if outcome == UNKNOWN:
                unknown += 1
                assert got[4] == pytest.approx(reference.best_score)
    assert unknown


@pytest.mark.parametrize("slug", SUPPORTED)
def test_the_core_and_the_python_search_agree_searching_from_the_face_up_cards_only(slug):
    """``view_only``: no safe moves, and a card turned up ends the search unknown."""
    variant = get_variant(slug)
    core = compiled.Core(variant)
    outcomes = set()
    starts = [variant.deal(seed) for seed in range(3)] + hand_built(slug)
    starts += [stuck(variant, seed) for seed in range(3)]
    for state in starts:
        for settings in passes_for(variant):
            reference = _Search(variant, Budget(3_000, 600), settings, view_only=True)
            outcome, line = reference.run(state)
            got = core.search(state, settings, 3_000, 600, view_only=True)
            assert got == (outcome, line, reference.positions)
            outcomes.add(outcome)
    assert len(outcomes) > 1


def stuck(variant: Variant, seed: int) -> State:
    """A deal after up to 200 random moves (seeded), or fewer where none is left."""
    rng, state = random.Random(seed), variant.deal(seed)
    for _ in range(200):
        moves = variant.legal_moves(state)
        if not moves:
            break
        state = variant.apply(state, rng.choice(moves))
    return state


def test_a_proven_loss_is_proven_by_both():
    variant, state = lost_castle()
    assert solve(variant, state).outcome == LOST
    assert solve(variant, state, reference=True).outcome == LOST


@pytest.mark.parametrize("slug", SUPPORTED)
def test_solve_uses_the_core_and_its_won_line_replays_through_the_engine(slug):
    variant = get_variant(slug)
    assert compiled.core_for(variant) is not None
    for seed in range(40):
        state = variant.deal(seed)
        answer = solve(variant, state, Budget(positions=300_000, seconds=30))
        if answer.outcome == WON:
            assert line_wins(variant, state, answer.moves)
            return
    pytest.fail(f"no {slug} deal of 40 won")


def test_the_transposition_table_keeps_whole_keys():
    """Many positions, no false repeat: a long search of a deal gives the same line and counts
    as the reference, whose table holds the keys themselves (a hash taken for a repeat would
    skip a position and change them)."""
    variant = get_variant("selective-castle")
    state = variant.deal(6)
    settings = passes_for(variant)[0]
    reference = _Search(variant, Budget(60_000, 600), settings)
    outcome, line = reference.run(state)
    assert outcome == WON and len(reference.seen) > 10_000
    core = compiled.Core(variant)
    assert core.search(state, settings, 60_000, 600) == (WON, line, reference.positions)


def test_a_missing_core_is_a_system_check_error_naming_the_fix(monkeypatch):
    from games.apps import solver_core_check

    assert solver_core_check() == []
    monkeypatch.setattr(compiled, "AVAILABLE", False)
    monkeypatch.setattr(compiled, "IMPORT_ERROR", "No module named 'games.solver._core'")
    (error,) = solver_core_check()
    assert error.id == "games.E001" and "pip install" in error.hint


def test_every_game_has_the_core():
    assert set(SUPPORTED) == set(VARIANTS)
