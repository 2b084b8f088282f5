"""Complete searches with a transposition table, within a budget of positions and seconds.

From a full position (every card known) the search makes a safe move alone where there is
one (``tactics``), and never enters a position whose canonical key it has met before. Two
orders, chosen per game (its passes: ``tactics.passes_for``):

- ``dfs``: depth first, the children of a position tried best first by the evaluation. A
  position met before is on the current line (a loop, a move straight back) or was searched to
  the end without a win.
- ``best``: best first, on the evaluation less a cost per move made (higher: shorter lines).
  A position met before is queued or expanded already.

Either way, when the search runs out of positions to try it has proven the deal lost; when the
budget runs out first the answer is ``unknown``. The games that declare how the compiled core
plays them (their ``solver.core``) are searched by it (``core``), the same search 30-plus times
faster; ``_Search`` here is the reference it is tested against (``solve(..., reference=True)``).
A ``won`` line, from either, is replayed through the engine's ``play`` (``line_wins``) before it
is returned: a line that does not replay to a win raises ``SolverBug``.
"""

from __future__ import annotations

import heapq
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from games.rules import IllegalMove, Move, State, Variant, move_to_json

from . import core as compiled
from . import deadends, relax
from .evaluation import Evaluator
from .tactics import Pass, Tactics, passes_for

logger = logging.getLogger("patience.solver")

WON, LOST, UNKNOWN = "won", "lost", "unknown"
PROOF_SEARCH, PROOF_RESERVE = "search", "static: the reserve cannot be laid home in order"
#: How many positions pass between two looks at the clock.
CLOCK_EVERY = 256


@dataclass(frozen=True)
class Budget:
    """The most positions (moves applied) and seconds one search may spend."""

    positions: int = 2_000_000
    seconds: float = 10.0


@dataclass
class Answer:
    outcome: str  # WON, LOST or UNKNOWN
    moves: list[Move] | None = field(default=None, repr=False)  # the winning line when WON
    positions: int = 0
    seconds: float = 0.0
    #: With ``solve(..., best=True)`` and an unknown answer: the line to the most promising
    #: position searched (the first met with the highest score, over the passes), not
    #: replayed (a hint takes its first move only); ``[]`` when none beat the start.
    best: list[Move] | None = field(default=None, repr=False)
    #: How a ``lost`` answer was proven: ``PROOF_SEARCH`` (the real game's positions ran
    #: out), ``PROOF_RESERVE`` (a static dead end, ``deadends``) or a relaxed game's
    #: name (``relax.name``: its positions ran out); None for any other answer.
    proof: str | None = None
    #: Positions the relaxed games made (``relax_budget``), beside ``positions``.
    relaxed: int = 0

    @property
    def answered(self) -> bool:
        return self.outcome != UNKNOWN

    def moves_json(self) -> list[dict[str, Any]]:
        return [move_to_json(move) for move in self.moves or ()]

    def figures(self) -> dict[str, Any]:
        """What the search cost, as stored beside a certificate."""
        return {"positions": self.positions, "seconds": round(self.seconds, 3)}


def relaxed_budget(budget: Budget) -> Budget:
    """What the relaxed games (``relax``) get beside a search on ``budget``, for the callers
    that prove losses (the analysis, the winnability runs): a tenth of its positions and a
    fifth of its seconds (the relaxed search is Python's, some 15,000 positions a second)."""
    return Budget(budget.positions // 10, budget.seconds / 5)


class SolverBug(AssertionError):
    """The search claimed a win that the engine does not confirm."""


class _OutOfBudget(Exception):
    pass


class _Won(Exception):
    def __init__(self, node: int) -> None:
        self.node = node


def solve(
    variant: Variant,
    state: State,
    budget: Budget = Budget(),
    passes: tuple[Pass, ...] = (),
    *,
    reference: bool = False,
    best: bool = False,
    view_only: bool = False,
    relax_budget: Budget | None = None,
) -> Answer:
    """Search ``state`` (a full position, hidden cards included) for a win: the game's passes
    (``tactics.passes_for``) in turn, each on its share of ``budget``; by the compiled core where
    it plays the game, by the Python search where it does not or ``reference`` asks for it.
    ``best``: an unknown answer carries the line to the most promising position searched.
    ``view_only``: a search that proves a loss from the face-up cards alone, whatever the
    face-down ones are (see ``_Search``); its complete passes only.
    ``relax_budget``: when the passes end unknown, the game's relaxed games
    (``relax``, its ``solver.relaxations``) are searched within it, in turn (each on what the
    ones before it left), and one that has no win proves the position lost. A position
    that is a static dead end (``deadends``) is lost before any search; that reads no
    face-down card, so it holds with ``view_only`` too."""
    started = time.perf_counter()
    if deadends.is_dead_end(variant, state):
        return Answer(
            LOST,
            None,
            0,
            time.perf_counter() - started,
            best=[] if best else None,
            proof=PROOF_RESERVE,
        )
    passes = passes or passes_for(variant)
    if view_only:
        passes = tuple(settings for settings in passes if not settings.narrow)
    core = None if reference else compiled.core_for(variant)
    if core is None and not reference and compiled.plays(variant):
        _say_core_missing()
    positions, outcome, moves = 0, UNKNOWN, None
    best_line: list[Move] = []
    best_score = float("-inf")
    for number, settings in enumerate(passes, start=1):
        last = number == len(passes)
        share = 1.0 if last else settings.share
        left_seconds = budget.seconds - (time.perf_counter() - started)
        share_budget = Budget(int((budget.positions - positions) * share), left_seconds * share)
        line: list[Move] = []
        score = float("-inf")
        if core is not None and best:
            outcome, moves, made, line, score = core.search_best(
                state, settings, share_budget.positions, share_budget.seconds
            )
        elif core is not None:
            outcome, moves, made = core.search(
                state, settings, share_budget.positions, share_budget.seconds, view_only
            )
        else:
            search = _Search(variant, share_budget, settings, best=best, view_only=view_only)
            outcome, moves = search.run(state)
            made = search.positions
            line, score = search.best_line(), search.best_score
        if best and outcome == UNKNOWN and score > best_score:
            best_line, best_score = line, score
        positions += made
        if outcome == WON or (outcome == LOST and not settings.narrow):
            break
        outcome = UNKNOWN
    proof = PROOF_SEARCH if outcome == LOST else None
    relaxed = 0
    if outcome == UNKNOWN and relax_budget is not None and not view_only:
        relaxed, proof = _relaxed(variant, state, relax_budget)
        outcome = LOST if proof else UNKNOWN
    answer = Answer(outcome, moves, positions, time.perf_counter() - started, proof=proof)
    answer.relaxed = relaxed
    if best and outcome == UNKNOWN:
        answer.best = best_line
    if outcome == WON and not line_wins(variant, state, moves or []):
        raise SolverBug(f"{variant.slug}: a line the search found does not replay to a win")
    return answer


def _relaxed(variant: Variant, state: State, budget: Budget) -> tuple[int, str | None]:
    """The game's relaxed games searched within ``budget``, in turn: the positions they made,
    and the name of the first that has no win (None: none proved it)."""
    started = time.perf_counter()
    spent = 0
    for relaxation in variant.solver.relaxations:
        left = budget.seconds - (time.perf_counter() - started)
        if spent >= budget.positions or left <= 0:
            break
        outcome, made = relax.search(variant, state, relaxation, budget.positions - spent, left)
        spent += made
        if outcome == LOST:
            return spent, relax.name(relaxation)
    return spent, None


_said_missing = False


def _say_core_missing() -> None:
    """Log, once a process, that the slow search stands in for the missing core."""
    global _said_missing
    if not _said_missing:
        _said_missing = True
        logger.error("%s Searching with the Python reference meanwhile.", compiled.MISSING)


def line_wins(variant: Variant, state: State, moves: list[Move] | list[dict[str, Any]]) -> bool:
    """Whether ``moves`` are legal from ``state``, through the engine, and end the game won."""
    try:
        return variant.is_won(variant.follow(state, moves))
    except IllegalMove:
        return False


def _face_down(state: State) -> int:
    return sum(pile.face_down for pile in state.piles)


class _Search:
    def __init__(
        self,
        variant: Variant,
        budget: Budget,
        settings: Pass,
        best: bool = False,
        view_only: bool = False,
    ):
        self.variant = variant
        self.settings = settings
        self.tactics = Tactics(variant)
        self.evaluator = Evaluator(variant, settings.weights)
        self.budget = budget
        self.deadline = time.perf_counter() + budget.seconds
        self.positions = 0
        self.next_look = CLOCK_EVERY
        self.seen: set[tuple[Any, ...]] = set()
        #: Node n's parent node and the move that led to it; node 0 is the start.
        self.parents: list[tuple[int, Move | None]] = [(-1, None)]
        #: With ``best``: the first node met with the highest score (0, the start, when none
        #: beats it) and that score.
        self.want_best = best
        self.best_node = 0
        self.best_score = float("-inf")
        self.outcome = UNKNOWN
        #: With ``view_only``: no safe moves, and a move that turns a face-down card up (a
        #: deal included) ends the search unknown. A loss it proves is then proven from the
        #: face-up cards alone: every position the position can reach without turning a card
        #: up was searched (no pruning that reads a face-down card), none wins and none can
        #: turn one up, and what moves where depends on the face-up cards only.
        self.view_only = view_only
        #: Positions that are static dead ends (``deadends``) are counted, never kept.
        self.dead_ends = deadends.applies(variant)

    def run(self, start: State) -> tuple[str, list[Move] | None]:
        if self.variant.is_won(start):
            self.outcome = WON
            return WON, []
        self.seen.add(self._key(start, None))
        if self.want_best:
            self.best_score = self.evaluator.score(start)
        try:
            if self.settings.method == "dfs":
                self._depth_first(start)
            else:
                self._best_first(start)
        except _Won as won:
            self.outcome = WON
            return WON, self._line(won.node)
        except _OutOfBudget:
            return UNKNOWN, None
        self.outcome = LOST
        return LOST, None

    def best_line(self) -> list[Move]:
        """The line to the best node when the search ended unknown, else ``[]``."""
        return self._line(self.best_node) if self.outcome == UNKNOWN else []

    def _depth_first(self, start: State) -> None:
        stack = [(0, start)]
        while stack:
            node, state = stack.pop()
            children = self._expand(node, state)
            children.sort(key=lambda child: child[0])  # best last: popped first
            stack.extend((child_node, child) for _, child_node, child in children)

    def _best_first(self, start: State) -> None:
        move_cost = self.settings.move_cost
        heap = [(0.0, 0, 0, start)]  # (move cost so far less score, node, depth, state)
        while heap:
            _, node, depth, state = heapq.heappop(heap)
            cost = move_cost * (depth + 1)
            for score, child_node, child in self._expand(node, state):
                heapq.heappush(heap, (cost - score, child_node, depth + 1, child))

    def _expand(self, node: int, state: State) -> list[tuple[float, int, State]]:
        """(score, node, state) of each position one move away that was not met before; a
        safe move, where there is one, is the only move tried."""
        variant, tactics, seen = self.variant, self.tactics, self.seen
        moves = variant.legal_moves(state)
        if tactics.folds_deals and node > 0 and self._dealt(node):
            moves = [move for move in moves if tactics.after_a_deal(state, move)]
        if self.settings.narrow:
            moves = tactics.productive(state, moves)
        safe = None if self.view_only else tactics.safe_move(state, moves)
        if safe is None:
            moves = tactics.distinct(state, moves)
        hidden = _face_down(state) if self.view_only else 0
        children = []
        for move in moves if safe is None else (safe,):
            child = variant.successor(state, move)
            self.positions += 1
            self.parents.append((node, move))
            if variant.is_won(child):
                raise _Won(len(self.parents) - 1)
            self._check_budget()
            if self.view_only and _face_down(child) < hidden:
                raise _OutOfBudget
            key = self._key(child, move)
            if key in seen:
                self.parents.pop()
                continue
            seen.add(key)
            if self.dead_ends and deadends.is_dead_end(variant, child):
                self.parents.pop()
                continue
            score = self.evaluator.score(child)
            node_id = len(self.parents) - 1
            if self.want_best and score > self.best_score:
                self.best_node, self.best_score = node_id, score
            children.append((score, node_id, child))
        return children

    def _dealt(self, node: int) -> bool:
        """Whether node was reached by a deal (the game's ``solver.folds_deals``)."""
        move = self.parents[node][1]
        return move is not None and move.type == "deal"

    def _key(self, state: State, move: Move | None) -> tuple[Any, ...]:
        """The transposition table's key of ``state``, reached by ``move``: where deals are
        folded, whether it was just dealt too."""
        key = self.tactics.key(state)
        if self.tactics.folds_deals:
            return (key, move is not None and move.type == "deal")
        return key

    def _check_budget(self) -> None:
        if self.positions >= self.budget.positions:
            raise _OutOfBudget
        if self.positions >= self.next_look:
            self.next_look += CLOCK_EVERY
            if time.perf_counter() >= self.deadline:
                raise _OutOfBudget

    def _line(self, node: int) -> list[Move]:
        moves = []
        while node > 0:
            node, move = self.parents[node]
            moves.append(move)  # type: ignore[arg-type]
        return moves[::-1]
