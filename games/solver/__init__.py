"""The solver: proves deals winnable (or lost) for the daily challenges, the winnable-deal pool,
the winnability figures and the look-ahead hints. Pure Python beside the rules engine, no
Django. It sees every card, so it runs on the server only, and nothing it finds reaches a player
before the game (a daily challenge: its day) is over (games/rules/RULINGS.md §Solutions and hints).

    from games.solver import Budget, solve
    answer = solve(variant, variant.deal(seed), Budget(positions=200_000, seconds=10))
    answer.outcome        # "won", "lost" (the whole search space was exhausted) or "unknown"
    answer.moves          # the winning line (engine moves), already replayed to a win
    answer.positions, answer.seconds
    answer.proof          # how a loss was proven: the search, a static dead end, a relaxed game

``search`` is the search (depth first or best first); ``tactics`` holds what it knows of each
game (which piles are interchangeable, which moves are safe to make at once, how each game is
searched) and ``evaluation`` how it orders the positions it has yet to try.
"""

from __future__ import annotations

from .difficulty import LABELS as DIFFICULTIES
from .difficulty import rate as difficulty
from .search import (
    LOST,
    UNKNOWN,
    WON,
    Answer,
    Budget,
    SolverBug,
    line_wins,
    relaxed_budget,
    solve,
)

__all__ = [
    "DIFFICULTIES",
    "LOST",
    "UNKNOWN",
    "WON",
    "Answer",
    "Budget",
    "SolverBug",
    "difficulty",
    "line_wins",
    "relaxed_budget",
    "solve",
]
