"""The solver's search (games.solver.search): won lines that replay, losses that are proven,
budgets that hold, and pruning (safe moves, canonical positions) that never changes an answer."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import VARIANTS, State, Variant, get_variant
from games.solver import LOST, UNKNOWN, WON, Budget, line_wins, solve
from tests.rules.helpers import position
from tests.solver.helpers import lost_castle

LINES = json.loads((Path(__file__).parents[1] / "rules" / "winning_lines.json").read_text())
BIG = Budget(positions=200_000, seconds=60)


def exhaustive(variant: Variant, state: State, limit: int) -> bool | None:
    """Whether ``state`` can be won, by trying every legal move through ``apply`` with no
    pruning but exact repeats: True, False, or None past ``limit`` positions."""
    seen = {state._replace(move_number=0)}
    stack = [state]
    while stack:
        here = stack.pop()
        for move in variant.legal_moves(here):
            child = variant.apply(here, move)
            if variant.is_won(child):
                return True
            key = child._replace(move_number=0)
            if key not in seen:
                if len(seen) >= limit:
                    return None
                seen.add(key)
                stack.append(child)
    return False


@pytest.mark.parametrize("slug", sorted(VARIANTS))
def test_a_deal_a_few_moves_from_its_end_is_won_and_the_line_replays(slug):
    variant = get_variant(slug)
    entry = LINES[slug]
    for back in (1, 3, 8):
        state = variant.replay(entry["seed"], entry["moves"][:-back])
        answer = solve(variant, state, BIG)
        assert answer.outcome == WON
        assert line_wins(variant, state, answer.moves)
        assert line_wins(variant, state, answer.moves_json())


def test_a_won_position_needs_no_move():
    home = {
        f"foundation:{i}": " ".join(r + s for r in "A23456789TJQK") for i, s in enumerate("CDHS")
    }
    variant, state = position("gold-mine", home)
    answer = solve(variant, state)
    assert (answer.outcome, answer.moves, answer.positions) == (WON, [], 0)


def test_selective_castle_stuck_behind_an_ace_is_proven_lost():
    variant, state = lost_castle()
    assert variant.legal_moves(state)
    answer = solve(variant, state, BIG)
    assert answer.outcome == LOST and answer.moves is None and answer.positions > 0


def test_grounds_for_divorce_whose_queen_can_only_go_from_king_to_king_is_proven_lost():
    """The stock is out and no pile is empty. The Queen of hearts can go onto any of the
    eight Kings, and then only from King to King; the Three of clubs under it and the Ace of
    spades have nowhere to go, and nothing goes on a King's Queen but a Jack there is none of."""
    kings = [f"K{suit}" for suit in "CDHS"] * 2
    piles = {"tableau:0": "3C QH", "tableau:9": "AS"}
    piles |= {f"tableau:{i + 1}": king for i, king in enumerate(kings)}
    variant, state = position("grounds-for-divorce", piles)
    assert len(variant.legal_moves(state)) == 8
    answer = solve(variant, state, BIG)
    assert answer.outcome == LOST and answer.positions >= 8


def test_gold_mine_whose_last_free_card_can_only_go_from_five_to_five_is_proven_lost():
    """The stock is out, every pile holds a card: four Kings and three Fives that can go
    nowhere (no Six, no foundation started), and the Four of spades in the waste, which can go
    onto either red Five and from one to the other, and nowhere else."""
    tops = ["KS", "KC", "KH", "KD", "5H", "5D", "5C"]
    piles = {f"tableau:{i}": card for i, card in enumerate(tops)} | {"waste": "4S"}
    variant, state = position("gold-mine", piles)
    assert len(variant.legal_moves(state)) == 2
    answer = solve(variant, state, BIG)
    assert answer.outcome == LOST and answer.positions >= 2


@pytest.mark.parametrize("slug", sorted(VARIANTS))
def test_the_search_agrees_with_an_exhaustive_one_on_positions_late_in_play(slug):
    """Safe moves and canonical positions are pruning: on positions small enough to search
    every move exhaustively, the solver must give the same answer, won or lost. Random play
    leaves most of them lost (a proof the solver must not get wrong); Grounds for Divorce's
    are taken from the last moves of a won game."""
    variant = get_variant(slug)
    rng = random.Random(slug)
    answers = {WON: 0, LOST: 0}
    for seed in range(12):
        state = _late_position(variant, seed, rng)
        truth = exhaustive(variant, state, limit=20_000)
        if truth is None:
            continue
        answer = solve(variant, state, BIG)
        assert answer.outcome == (WON if truth else LOST), f"{slug} deal {seed}"
        answers[answer.outcome] += 1
    if slug == "grounds-for-divorce":  # few of its positions are small enough to check
        assert answers[WON] >= 3, answers
    else:
        assert sum(answers.values()) >= 6 and answers[LOST] >= 1, answers


def _late_position(variant: Variant, seed: int, rng: random.Random) -> State:
    """A deal played by random legal moves (cards home nine times in ten) until few cards
    are left away from home, or nothing moves."""
    if variant.slug == "grounds-for-divorce":
        entry = LINES[variant.slug]
        return variant.replay(entry["seed"], entry["moves"][: -rng.randint(1, 5)])
    state = variant.deal(seed)
    for _ in range(400):
        moves = variant.legal_moves(state)
        if not moves:
            break
        home = [m for m in moves if m.type == "move" and m.target.startswith("foundation")]
        state = variant.apply(state, rng.choice(home if home and rng.random() < 0.9 else moves))
        if variant.cards_home(state) >= 52 * variant.decks - 14 and rng.random() < 0.3:
            break
    return state


def test_a_budget_of_positions_is_kept_and_answers_unknown():
    variant = get_variant("gold-mine")
    answer = solve(variant, variant.deal(0), Budget(positions=500, seconds=60))
    assert answer.outcome == UNKNOWN and answer.moves is None
    assert answer.positions == 500


def test_a_budget_of_seconds_is_kept():
    variant = get_variant("grounds-for-divorce")
    answer = solve(variant, variant.deal(0), Budget(positions=10**9, seconds=0.3))
    assert answer.outcome == UNKNOWN
    assert answer.seconds < 1.0


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**53 - 1))
def test_every_won_line_replays_to_a_win_through_the_engine(seed):
    for slug in ("grandfathers-clock", "selective-castle"):
        variant = get_variant(slug)
        state = variant.deal(seed)
        answer = solve(variant, state, Budget(positions=5_000, seconds=60))
        if answer.outcome == WON:
            assert line_wins(variant, state, answer.moves)
            assert variant.replay(seed, answer.moves_json()) is not None
