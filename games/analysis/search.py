"""The analysis itself, Django-free (it runs in the worker's solver child too).

Along a game's line (the deal, then the position after each move that stood) winnability
only falls: a position from which the deal can be won follows one that could, so if position
``i`` is winnable so is every one before it. A binary search over the line's positions, each
searched by the solver within its budget (a won line or a proof of loss), finds the last
winnable position and the move after it that lost the deal, in about log2(moves) searches.
A search that runs out of budget proves nothing: the bounds then stay where the proofs put
them, an honest range ("winnable until at least move 17; lost from move 31 at the latest").
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.rules import State, Variant, get_variant
from games.solver import LOST, WON, Budget, relaxed_budget, solve

#: What one search answers: its outcome (``WON``, ``LOST`` or ``UNKNOWN``) and, when won, the
#: winning line (moves as JSON) from the position searched.
Verdict = tuple[str, list[dict[str, Any]] | None]
#: Searches one position of the game ``slug`` within a budget.
Searcher = Callable[[str, State, Budget], Verdict]


def solve_position(slug: str, state: State, budget: Budget) -> Verdict:
    """One search by the solver's public API: a module-level function, so that a solver
    child process (``games.solver.children``) can run it. A loss counts whichever way the
    solver proved it (its search, a static dead end or a relaxed game: ``Answer.proof``), each
    a proof: the relaxed games get ``relaxed_budget`` beside the position's budget."""
    answer = solve(get_variant(slug), state, budget, relax_budget=relaxed_budget(budget))
    return answer.outcome, (answer.moves_json() if answer.outcome == WON else None)


@dataclass(frozen=True)
class Budgets:
    """What one analysis may spend: each search at most ``position``, all of them together at
    most ``seconds`` (a search is not started once they are spent)."""

    position: Budget
    seconds: float


@dataclass
class Finding:
    """What the searches proved. Positions are counted in moves that stood: 0 is the deal,
    ``n`` the position the game ended on."""

    moves: int
    #: The last position proven winnable (None: none was), and the solver's line from it.
    winnable: int | None = None
    line: list[dict[str, Any]] | None = None
    #: The first position proven lost (None: none was).
    lost: int | None = None
    #: Each search: its position and outcome, in the order made.
    searches: list[dict[str, Any]] = field(default_factory=list)

    @property
    def kind(self) -> str:
        """``winnable_at_end`` (the game was left winnable), ``lost_from_start``, ``lost_at``
        (both sides of the losing move proven) or ``range`` (the proofs ran out)."""
        if self.winnable == self.moves:
            return "winnable_at_end"
        if self.lost == 0:
            return "lost_from_start"
        if self.winnable is not None and self.lost == self.winnable + 1:
            return "lost_at"
        return "range"


def expected_searches(moves: int) -> int:
    """About how many searches a line of ``moves`` moves takes: the end, the deal and a
    binary search between them (for the progress line)."""
    return 2 + max(0, moves - 1).bit_length()


def locate(
    variant: Variant,
    line: list[State],
    searcher: Searcher,
    budgets: Budgets,
    progress: Callable[[int], None] = lambda searched: None,
) -> Finding:
    """The last winnable position of ``line`` (the deal first, the game's end last) and the
    first lost one, as far as searches within ``budgets`` prove them."""
    started = time.monotonic()
    moves = len(line) - 1
    finding = Finding(moves)
    tried: set[int] = set()

    def search(index: int) -> str:
        outcome, won_line = searcher(variant.slug, line[index], budgets.position)
        tried.add(index)
        finding.searches.append({"position": index, "outcome": outcome})
        if outcome == WON:
            finding.winnable, finding.line = index, won_line
        elif outcome == LOST:
            finding.lost = index
        progress(len(finding.searches))
        return outcome

    # Undecided positions are not tried again, their neighbours are; past twice the binary
    # search's count the line is given up on (each search is bounded, so is their number).
    most = 2 * expected_searches(moves)

    def time_left() -> bool:
        in_time = time.monotonic() - started < budgets.seconds
        return in_time and len(finding.searches) < most

    if variant.status(line[-1]) == "lost":
        # The engine's own dead end (no legal move left): lost without a search.
        finding.lost = moves
        tried.add(moves)
    elif search(moves) == WON:
        return finding  # left while it could still be won
    if finding.lost != 0 and 0 not in tried and time_left() and search(0) == LOST:
        return finding
    while time_left():
        low = -1 if finding.winnable is None else finding.winnable
        high = moves + 1 if finding.lost is None else finding.lost
        middle = (low + high) / 2
        # The untried position nearest the middle of what is still open: one that could not
        # be decided is not tried again, its neighbours are.
        open_positions = [i for i in range(low + 1, high) if i not in tried]
        if not open_positions:
            break
        search(min(open_positions, key=lambda i: (abs(i - middle), i)))
    return finding


def line_from(variant: Variant, state: State, moves: list[dict[str, Any]]) -> list[State]:
    """The positions of a line of moves from ``state``: ``state`` first."""
    states = [state]
    for move in moves:
        states.append(variant.apply(states[-1], move))
    return states
