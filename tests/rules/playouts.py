"""Random playouts shared by the property tests and the benchmark-style checks."""

from __future__ import annotations

import random

from games.rules import DEAL, IllegalMove, Move, State, Variant


def random_playout(variant: Variant, seed: int, rng: random.Random, max_moves: int) -> list[State]:
    """The states of one random game from deal ``seed``, at most ``max_moves`` moves long."""
    states = [variant.deal(seed)]
    for _ in range(max_moves):
        moves = variant.legal_moves(states[-1])
        if not moves:
            break
        states.append(variant.apply(states[-1], rng.choice(moves)))
    return states


def every_conceivable_move(variant: Variant, max_count: int) -> list[Move]:
    """Every move of the right shape: each pile onto each pile, 1..max_count cards, and a deal."""
    ids = variant.pile_ids
    moves = [Move("move", s, t, n) for s in ids for t in ids for n in range(1, max_count + 1)]
    return [*moves, DEAL]


def applicable_moves(variant: Variant, state: State, candidates: list[Move]) -> set[Move]:
    """The candidates that ``apply`` accepts: legal moves found without the generator."""
    accepted = set()
    for move in candidates:
        try:
            variant.apply(state, move)
        except IllegalMove:
            continue
        accepted.add(move)
    return accepted
