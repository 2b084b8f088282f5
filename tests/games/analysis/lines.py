"""Hand-built lines of play whose losing move is known, for the analysis tests.

A line is lost at a known move when every move before it follows a winning line (the solver's,
replayed to a win: each of those positions can be won) and the move itself leads to a position
the solver proves lost (an exhaustive search). The rest of the line is random play to a dead
end (or 60 moves)."""

from __future__ import annotations

import random
from typing import Any

from games.rules import get_variant
from games.solver import LOST, WON, Budget, solve

#: Enough for every position these tests search (each is decided in well under a second).
BIG = Budget(positions=500_000, seconds=10)

#: Per game: a seed and where, along the solver's line of its deal, a losing move is sought.
LOSING = {
    "grandfathers-clock": (0, 7),
    "selective-castle": (0, 37),
    "gold-mine": (2, 13),
}
#: Deals the solver proves lost from the deal (games/solver/winnability/): by its search, and
#: in Blondes and Brunettes by a static dead end (its reserve cannot go home in its order).
LOST_DEALS = {"grandfathers-clock": 65, "selective-castle": 68, "blondes-and-brunettes": 8}


def winning_line(slug: str, seed: int) -> list[dict[str, Any]]:
    variant = get_variant(slug)
    answer = solve(variant, variant.deal(seed), BIG)
    assert answer.outcome == WON, (slug, seed, answer.outcome)
    return answer.moves_json()


def random_tail(slug: str, state: Any, rng: random.Random, most: int = 60) -> list[dict]:
    """Random moves from ``state`` until a dead end, a win or ``most`` moves."""
    variant, tail = get_variant(slug), []
    while variant.status(state) == "playing" and len(tail) < most:
        move = rng.choice(variant.legal_moves(state))
        state = variant.apply(state, move)
        tail.append(move.to_json())
    return tail


def lost_at(slug: str, tail: int = 60) -> tuple[int, list[dict[str, Any]], int]:
    """(seed, line, k): the line follows the solver's winning line for its first k moves, and
    its move k + 1 loses the deal (proven); sought from ``LOSING``'s k on."""
    variant = get_variant(slug)
    seed, start = LOSING[slug]
    won = winning_line(slug, seed)
    state = variant.deal(seed)
    for move in won[:start]:
        state = variant.apply(state, move)
    for k in range(start, len(won)):
        for move in variant.legal_moves(state):
            if move.to_json() == won[k]:
                continue
            after = variant.apply(state, move)
            if solve(variant, after, BIG).outcome == LOST:
                line = [*won[:k], move.to_json()]
                line += random_tail(slug, after, random.Random(k), tail)
                return seed, line, k
        state = variant.apply(state, won[k])
    raise AssertionError(f"no losing move found along {slug} #{seed}'s line")
