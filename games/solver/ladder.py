"""A day's deal chosen on a ladder of budgets: a few candidates on a small one first.

A daily challenge deals the first of its candidate seeds the solver proves winnable. In
Blondes and Brunettes and Grounds for Divorce a deal that is not won is never proven lost: it
costs the whole budget (5,000,000 positions, seconds of a core), and most candidates are not
won. Their wins come early, though (bench/README.md "Difficulty": 90 % of the won deals within
17,631 and 109,140 positions). So where a game's solver profile names a first rung
(``daily_first_positions``), its first ``FIRST_CANDIDATES`` candidates are each searched within
that many positions and the first won is taken; only when none is does every candidate get the
full budget, in order, as without a rung. The budgets are positions, not seconds, so a date
chooses the same deal on any machine.

A win found on the rung counts the positions the difficulty label is read from just as the
thresholds were measured (``games.rules.solving.SolverProfile.daily_first_positions`` says
which games may have a rung). No Django here: ``games.daily.challenges`` climbs it with the
daily's solver process and memo, ``bench/solver_bench.py`` with its deals, the same code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from games.rules import get_variant

from .search import LOST, WON

#: How many of a day's first candidates the first rung searches: with a rung where a quarter
#: of the deals win (Blondes and Brunettes: 29 % within 20,000 positions; Grounds for
#: Divorce: 22 % within 200,000), twenty leave about one day in a hundred to the full budget.
FIRST_CANDIDATES = 20


class Outcome(Protocol):
    @property
    def outcome(self) -> str: ...


A = TypeVar("A", bound=Outcome)


@dataclass
class Climb(Generic[A]):
    """What a climb found: ``won``, the first candidate proven winnable (its index among the
    seeds, its answer) or None; ``rung``, the positions of the rung it was won on (None: the
    full budget); ``tried``, the answers that decide a day none is won on (every candidate's
    on the full budget, in order, or the rung's where it proved the deal lost)."""

    won: tuple[int, A] | None = None
    rung: int | None = None
    tried: list[tuple[int, A]] = field(default_factory=list)


def first_rung(slug: str, positions: int) -> int | None:
    """The game's first rung within a full budget of ``positions``: None when the game has
    none, or when it is not below the full budget (it would be the full search again)."""
    rung = get_variant(slug).solver.daily_first_positions
    return rung if rung is not None and rung < positions else None


def climb(
    slug: str,
    seeds: Sequence[int],
    solve: Callable[[int, int | None], A | None],
    positions: int,
    *,
    rung: int | None = None,
    first_candidates: int = FIRST_CANDIDATES,
) -> Climb[A]:
    """The first of ``seeds`` proven won, the game's first rung first: ``solve(seed, rung)``
    answers one deal within ``rung`` positions, or within the full budget when ``rung`` is
    None (the caller's own, ``positions``, only decides whether the rung is below it), or
    None when that deal could not be solved (it is skipped). ``rung`` stands in for the
    game's (the bench tries others; 0: none)."""
    climbed: Climb[A] = Climb()
    if rung is None:
        rung = first_rung(slug, positions)
    elif not 0 < rung < positions:
        rung = None
    lost: dict[int, A] = {}
    if rung is not None:
        for index, seed in enumerate(seeds[:first_candidates]):
            answer = solve(seed, rung)
            if answer is None:
                continue
            if answer.outcome == WON:
                climbed.won, climbed.rung = (index, answer), rung
                return climbed
            if answer.outcome == LOST:  # a loss proven is proven on any budget
                lost[index] = answer
    for index, seed in enumerate(seeds):
        answer = lost.get(index) or solve(seed, None)
        if answer is None:
            continue
        if answer.outcome == WON:
            climbed.won = (index, answer)
            return climbed
        climbed.tried.append((index, answer))
    return climbed
