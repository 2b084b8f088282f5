"""One deal solved for the daily challenges, as plain data: what ``games.daily.challenges``
runs in its solver process. No Django here, so a worker process imports only the engine and
the solver."""

from __future__ import annotations

from typing import Any

from games.rules import get_variant
from games.solver import WON, Budget, difficulty, solve


def solve_seed(slug: str, seed: int, positions: int, seconds: float) -> dict[str, Any]:
    """The solver's answer on ``slug``'s deal ``seed`` within the budget: ``outcome`` (won,
    lost, unknown), ``moves`` (the winning line as JSON moves, replayed to a win by the
    solver, else None), ``solver`` (positions, seconds) and ``difficulty`` (won only)."""
    variant = get_variant(slug)
    answer = solve(variant, variant.deal(seed), Budget(positions=positions, seconds=seconds))
    won = answer.outcome == WON
    return {
        "outcome": answer.outcome,
        "moves": answer.moves_json() if won else None,
        "solver": answer.figures(),
        "difficulty": difficulty(slug, answer) if won else "",
    }
