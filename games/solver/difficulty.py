"""How hard a proven-winnable deal is, in four words, from the solver's effort alone.

The label is the number of positions the solver searched before it found a win, against
per-game thresholds: the quartiles of that figure over the won deals of the stored winnability
run (``games/solver/winnability/``). It says nothing about any card (a coarse label, as
games/rules/RULINGS.md §Solutions and hints allows), and a deal that took the solver more
search is, as a rule, one with fewer ways through.
"""

from __future__ import annotations

from games.rules import Variant, get_variant

from .search import WON, Answer

LABELS = ("easy", "medium", "hard", "expert")


def thresholds(variant: Variant) -> tuple[int, int, int]:
    """The upper bounds (positions searched) of "easy", "medium" and "hard", kept with each
    game (its module's ``solver.difficulty``): the quartiles over the won deals of the stored
    run (``games/solver/winnability/``, searched by the compiled core: its deals and budget per
    game in summary.json, the quartiles in bench/README.md). A win the daily budget finds past
    that run's reach is "expert" too."""
    return variant.solver.difficulty


def rate(variant: Variant | str, answer: Answer) -> str:
    """``easy``, ``medium``, ``hard`` or ``expert`` for a won answer (the game as a variant, or
    its slug as before)."""
    if answer.outcome != WON:
        raise ValueError("only a deal proven winnable has a difficulty")
    if isinstance(variant, str):
        variant = get_variant(variant)
    for label, bound in zip(LABELS, thresholds(variant), strict=False):
        if answer.positions <= bound:
            return label
    return LABELS[-1]
