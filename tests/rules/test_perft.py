"""Perft: the number of move sequences of each depth from a fixed deal, pinned per game.

Any change to move generation or to the effects of a move changes these counts. The counts
are also confirmed to depth 3 by a generator-free search that tries every conceivable move.
"""

from __future__ import annotations

import pytest

from games.rules import State, Variant, get_variant

from .playouts import applicable_moves, every_conceivable_move

SEED = 2026
PERFT = {
    "grounds-for-divorce": [6, 36, 206, 1191],
    "gold-mine": [1, 8, 57, 526],
    "selective-castle": [37, 361, 2445, 14299],
    "grandfathers-clock": [7, 45, 269, 1539],
    "blondes-and-brunettes": [11, 69, 387, 2113],
}


def perft(variant: Variant, state: State, depth: int) -> int:
    moves = variant.legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(perft(variant, variant.apply(state, move), depth - 1) for move in moves)


def brute_force_perft(variant: Variant, state: State, depth: int, candidates) -> int:
    moves = applicable_moves(variant, state, candidates)
    if depth == 1:
        return len(moves)
    return sum(
        brute_force_perft(variant, variant.apply(state, m), depth - 1, candidates) for m in moves
    )


@pytest.mark.parametrize("slug", sorted(PERFT))
def test_perft_counts_to_depth_four(slug):
    variant = get_variant(slug)
    state = variant.deal(SEED)
    assert [perft(variant, state, depth) for depth in (1, 2, 3, 4)] == PERFT[slug]


@pytest.mark.parametrize("slug", sorted(PERFT))
def test_perft_agrees_with_a_search_that_tries_every_move(slug):
    variant = get_variant(slug)
    # Single-card games refuse every count above one alike: two is enough to try that.
    candidates = every_conceivable_move(variant, max_count=13 if variant.group else 2)
    state = variant.deal(SEED)
    assert brute_force_perft(variant, state, 3, candidates) == PERFT[slug][2]
