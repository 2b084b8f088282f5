"""How hard a proven-winnable deal is, in four words, from the solver's effort alone.

The label is the number of positions the solver searched before it found a win, against
per-game thresholds: the quartiles of that figure over the won deals of the stored winnability
run (``games/solver/winnability/``). It says nothing about any card (RULES.md allows a coarse
label), and a deal that took the solver more search is, as a rule, one with fewer ways through.
"""

from __future__ import annotations

from .search import WON, Answer

LABELS = ("easy", "medium", "hard", "expert")

#: Per game: the upper bounds (positions searched) of "easy", "medium" and "hard".
THRESHOLDS: dict[str, tuple[int, int, int]] = {
    "grounds-for-divorce": (2_000, 20_000, 100_000),
    "gold-mine": (2_000, 20_000, 100_000),
    "selective-castle": (2_000, 10_000, 50_000),
    "grandfathers-clock": (80, 150, 400),
    "blondes-and-brunettes": (2_000, 20_000, 100_000),
}


def rate(variant_slug: str, answer: Answer) -> str:
    """``easy``, ``medium``, ``hard`` or ``expert`` for a won answer."""
    if answer.outcome != WON:
        raise ValueError("only a deal proven winnable has a difficulty")
    for label, bound in zip(LABELS, THRESHOLDS[variant_slug], strict=False):
        if answer.positions <= bound:
            return label
    return LABELS[-1]
