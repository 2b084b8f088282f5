"""The search's sound pruning (games/solver/tactics.py: canonical keys, safe moves home), proved
on late positions of every game: the search, with every rule, in the compiled core and the
Python reference, answers exactly as an exhaustive search without any (every position the
engine can reach, told apart by every card, every move tried), on won and lost positions."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from games.rules import VARIANTS, State, Variant, get_variant
from games.solver import LOST, WON, Budget, solve

LINES = json.loads((Path(__file__).parents[1] / "rules" / "winning_lines.json").read_text())
#: The most positions the exhaustive search may meet; a position with more is left out.
EXHAUSTIVE_LIMIT = 20_000


def exhaustive(variant: Variant, start: State) -> str | None:
    """WON or LOST by trying every move from every position reachable from ``start``, with
    no canonical key, no safe move and no evaluation (None: more than the limit)."""
    seen = {(start.base_rank, start.piles)}
    stack = [start]
    while stack:
        state = stack.pop()
        if variant.is_won(state):
            return WON
        for move in variant.legal_moves(state):
            child = variant.successor(state, move)
            if variant.is_won(child):
                return WON
            key = (child.base_rank, child.piles)
            if key not in seen:
                if len(seen) >= EXHAUSTIVE_LIMIT:
                    return None
                seen.add(key)
                stack.append(child)
    return LOST


def late_positions(slug: str) -> list[State]:
    """Positions near the end of a won game (the stored winning line less its last 1 to 30
    moves), the same after a few random moves (some now lost), and the last positions of
    seeded random games (mostly lost; half of them sending cards home when they can)."""
    variant = get_variant(slug)
    entry = LINES[slug]
    rng = random.Random(slug)
    found = []
    lines = [entry["moves"][:-back] for back in (1, 2, 3, 5, 8, 12, 17, 23, 30)]
    if variant.stock_i is not None:
        # Where the stock is down to its last few cards (deals still to come).
        state = variant.deal(entry["seed"])
        for played, move in enumerate(entry["moves"]):
            if 0 < len(state.piles[variant.stock_i].cards) <= 7:
                lines += [entry["moves"][:played], entry["moves"][: played + 1]]
                break
            state = variant.apply(state, move)
    for line in lines:
        state = variant.replay(entry["seed"], line)
        found.append(state)
        for _ in range(rng.randint(1, 4)):
            moves = variant.legal_moves(state)
            if not moves:
                break
            state = variant.apply(state, rng.choice(moves))
        found.append(state)
    for seed in range(12):
        state, eager = variant.deal(seed), 0.8 * (seed % 2)
        for _ in range(300):
            moves = variant.legal_moves(state)
            if not moves:
                break
            home = [m for m in moves if m.type == "move" and m.target.startswith("foundation")]
            state = variant.apply(
                state, rng.choice(home if home and rng.random() < eager else moves)
            )
        found.append(state)
    return [state for state in found if variant.status(state) == "playing"]


@pytest.mark.parametrize("slug", sorted(VARIANTS))
def test_the_pruned_search_answers_as_an_exhaustive_one_on_late_positions(slug):
    variant = get_variant(slug)
    answered = {WON: 0, LOST: 0}
    for state in late_positions(slug):
        truth = exhaustive(variant, state)
        if truth is None:
            continue
        where = f"{slug}: {variant.state_to_json(state)}"
        for reference in (False, True):
            budget = Budget(positions=10**7, seconds=600)
            assert solve(variant, state, budget, reference=reference).outcome == truth, where
        answered[truth] += 1
    # Grandfather's Clock is lost so rarely that its random games end won but for one.
    assert answered[WON] >= 2 and answered[LOST] >= 1 and sum(answered.values()) >= 10, answered
