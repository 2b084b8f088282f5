"""Find winning deals: a small search over the rules engine's public API.

    .venv/bin/python -m bench.solver GAME [--seeds 0-50] [--budget 200000] [--write]
        [--method dfs|best|beam] [--move-cost C] [--width W] [--segment N] [--stop N]

For each seed it searches ``variant.deal(seed)`` for a line of moves that ends in "won" and
prints whether it found one, the line's length, the positions it generated and the time taken.
``--write`` stores the shortest win of the run in ``tests/rules/winning_lines.json`` (as
``{"<slug>": {"seed": N, "moves": [move JSON, ...]}}``), keeping the other games' entries and
replacing this game's only with a shorter line.

This is an offline tool: it looks at face-down cards (they are in the state) to judge
positions. Everything else goes through the engine: ``deal``, ``legal_moves``, ``play``.

The searches
------------
All three judge a position by ``Evaluator.score`` (cards home, cards resting on a card they
may sit on, long same-suit runs, face-down cards, cards buried on top of ones a foundation
wants, empty piles, cards in the waste or reserve: weights per game in ``SETTINGS``) and keep
a set of the positions seen, keyed on the piles and base rank with interchangeable piles
sorted, so transpositions, undo moves and moves that only swap two piles' places are
searched once. Positions keep a pointer to their parent; a line is built only for a win.

- ``dfs``: depth first, the children of a position tried best first and the stock action
  (which cannot be taken back) after every card move. Long lines, but often quick.
- ``best``: best first, on the score less ``move_cost`` per move made (higher: shorter lines,
  fewer wins). For games where a greedy dive sinks the budget into one hopeless branch.
- ``beam``: deal by deal, for Grounds for Divorce (whose positions between two deals are far
  too many to search) and Blondes and Brunettes: from each of the ``width`` best positions
  after k deals, a best-first search of card moves (``segment`` positions); the ``width``
  best positions that deal from what those reached make round k + 1.

A win is then shortened (``shorten``): short cuts of up to two moves to a later position of
the line (one move in Grounds for Divorce, where two take long), and moves that can simply be
left out.
"""

from __future__ import annotations

import argparse
import heapq
import json
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from games.rules import (
    DEAL,
    VARIANTS,
    WON,
    IllegalMove,
    Move,
    State,
    Variant,
    get_variant,
    move_to_json,
)
from games.rules.cards import RANK

WINNING_LINES = Path(__file__).resolve().parent.parent / "tests" / "rules" / "winning_lines.json"

#: Games whose tableau piles are interchangeable (nothing depends on a pile's place). Grounds
#: for Divorce is not: its deal gives the stock's cards to the piles left to right.
SYMMETRIC_TABLEAU = {"gold-mine", "selective-castle", "grandfathers-clock", "blondes-and-brunettes"}
#: Games whose foundations are interchangeable (Grandfather's Clock ties each to an hour).
SYMMETRIC_FOUNDATIONS = {"gold-mine", "selective-castle", "blondes-and-brunettes"}


# -- judging positions -------------------------------------------------------------------------


@dataclass(frozen=True)
class Weights:
    home: float = 100.0  # per card on a foundation or the discard
    link: float = 2.0  # per face-up card resting on one it may legally sit on
    runs: float = 0.0  # per square of the length of each run that moves as a group
    face_down: float = 0.0  # per face-down tableau card (a penalty)
    buried: float = 0.0  # per card lying on top of a card a foundation wants now (a penalty)
    empty: float = 0.0  # per empty tableau pile
    waste: float = 0.0  # per card in the waste (a penalty)
    reserve: float = 0.0  # per card in the reserve (a penalty)


@dataclass(frozen=True)
class Settings:
    """How to search one game: the method, its parameters and the evaluation's weights."""

    weights: Weights
    method: str = "best"
    move_cost: float = 1.0  # best: score given up per move made
    width: int = 10  # beam: positions kept after each deal
    segment: int = 2000  # beam: positions searched between two deals, from each kept one
    reach: int = 2  # shorten: the longest short cut looked for (2 is slow with many moves)


SETTINGS = {
    "grounds-for-divorce": Settings(
        Weights(home=100, link=1, runs=4, face_down=12, empty=8), method="beam", reach=1
    ),
    "gold-mine": Settings(Weights(home=100, link=0, buried=3, empty=4, waste=2)),
    "selective-castle": Settings(Weights(home=100, link=4, buried=3, empty=6), move_cost=20),
    "grandfathers-clock": Settings(Weights(home=100, link=4, buried=3, empty=6), move_cost=50),
    "blondes-and-brunettes": Settings(
        Weights(home=100, link=4, buried=3, empty=2, waste=1, reserve=8),
        method="beam",
        segment=500,
    ),
}


class Evaluator:
    """Scores positions of one game (higher is better) and keys them for the seen set."""

    def __init__(self, variant: Variant, weights: Weights) -> None:
        self.variant = variant
        self.weights = weights
        kinds = variant.kinds
        self.tableau = [i for i, kind in enumerate(kinds) if kind == "tableau"]
        self.foundations = [i for i, kind in enumerate(kinds) if kind == "foundation"]
        self.home = [i for i, kind in enumerate(kinds) if kind in ("foundation", "discard")]
        self.waste = variant.index.get("waste")
        self.reserve = variant.index.get("reserve")
        self.fits = variant.tableau.fits
        self.group_fits = variant.group.fits if variant.group is not None else None
        self.sort_tableau = variant.slug in SYMMETRIC_TABLEAU
        self.sort_foundations = variant.slug in SYMMETRIC_FOUNDATIONS
        build = variant.foundation
        #: The cards that may go on each card on a foundation.
        self.follows = [
            tuple(card for card in range(52) if build.fits(card, top)) if build else ()
            for top in range(52)
        ]

    def key(self, state: State) -> tuple:
        """The position, up to the order of interchangeable piles."""
        piles = state.piles
        if not (self.sort_tableau or self.sort_foundations):
            return (state.base_rank, piles)
        parts: list = [state.base_rank]
        groups = (self.tableau, self.sort_tableau), (self.foundations, self.sort_foundations)
        grouped = {i for indices, _ in groups for i in indices}
        parts.append(tuple(pile for i, pile in enumerate(piles) if i not in grouped))
        for indices, interchangeable in groups:
            chosen = tuple(piles[i] for i in indices)
            parts.append(tuple(sorted(chosen)) if interchangeable else chosen)
        return tuple(parts)

    def wanted(self, state: State) -> set[int]:
        """Cards some foundation would take now (by the foundation's building rule)."""
        wanted: set[int] = set()
        start = self.variant.foundation_start
        start_rank = 1 if start == "ace" else state.base_rank if start == "base_rank" else None
        for i in self.foundations:
            cards = state.piles[i].cards
            if cards:
                wanted.update(self.follows[cards[-1]])
            elif start_rank is not None:
                wanted.update(card for card in range(52) if RANK[card] == start_rank)
        return wanted

    def score(self, state: State) -> float:
        w, piles = self.weights, state.piles
        total = w.home * sum(len(piles[i].cards) for i in self.home)
        if w.waste and self.waste is not None:
            total -= w.waste * len(piles[self.waste].cards)
        if w.reserve and self.reserve is not None:
            total -= w.reserve * len(piles[self.reserve].cards)
        wanted = self.wanted(state) if w.buried else ()
        for i in self.tableau:
            cards, down = piles[i]
            if not cards:
                total += w.empty
                continue
            total -= w.face_down * down
            run = 1
            for j in range(down + 1, len(cards)):
                if self.fits(cards[j], cards[j - 1]):
                    total += w.link
                    if self.group_fits is not None and self.group_fits(cards[j], cards[j - 1]):
                        run += 1
                        continue
                total += w.runs * run * run
                run = 1
            total += w.runs * run * run
            if wanted:
                for j, card in enumerate(cards):
                    if card in wanted:
                        total -= w.buried * (len(cards) - 1 - j)
        return total


# -- searching ---------------------------------------------------------------------------------


@dataclass
class Result:
    seed: int
    moves: list[Move] | None  # the winning line, None when none was found
    found: int | None  # the line's length as the search found it, before ``shorten``
    nodes: int  # positions generated (moves applied)
    seconds: float
    exhausted: bool  # every position reachable (up to the seen set's pruning) was searched


class Search:
    """The search of one deal: ``dfs``, ``best_first`` and ``beam`` return a winning line or
    None; ``nodes`` counts the positions generated, at most about ``budget``."""

    def __init__(self, variant: Variant, seed: int, budget: int, weights: Weights) -> None:
        self.variant = variant
        self.evaluator = Evaluator(variant, weights)
        self.start = variant.deal(seed)
        self.budget = budget
        self.nodes = 0
        self.exhausted = False
        self.parents: list[tuple[int, Move | None]] = [(-1, None)]
        self.seen = {self.evaluator.key(self.start)}

    def line(self, node: int) -> list[Move]:
        moves = []
        while node > 0:
            node, move = self.parents[node]
            moves.append(move)
        return moves[::-1]

    def children(
        self, state: State, node: int, deal: bool = True
    ) -> Iterable[tuple[bool, float, int, State, bool]]:
        """(is a card move, score, node, state, won) for each unseen position one move away
        (by card moves only when ``deal`` is false)."""
        for move in self.variant.legal_moves(state):
            if move != DEAL or deal:
                child = self.step(state, node, move)
                if child is not None:
                    yield (move != DEAL, *child)

    def step(self, state: State, node: int, move: Move) -> tuple[float, int, State, bool] | None:
        """Play ``move``: (score, node, state, won), or None for a position seen before or
        lost."""
        child, events = self.variant.play(state, move)
        self.nodes += 1
        key = self.evaluator.key(child)
        if key in self.seen:
            return None
        self.seen.add(key)
        self.parents.append((node, move))
        kinds = {event["type"] for event in events}
        if "game_lost" in kinds:
            return None
        won = "game_won" in kinds
        return self.evaluator.score(child), len(self.parents) - 1, child, won

    def dfs(self) -> list[Move] | None:
        stack = [(self.start, 0)]
        while stack and self.nodes < self.budget:
            state, node = stack.pop()
            # Best child last (popped first); the stock action, which cannot be taken back,
            # only after every card move.
            found = sorted(self.children(state, node), key=lambda child: child[:2])
            for *_, child_node, _, won in found:
                if won:
                    return self.line(child_node)
            stack.extend((child, child_node) for *_, child_node, child, _ in found)
        self.exhausted = not stack
        return None

    def best_first(self, move_cost: float) -> list[Move] | None:
        """Expand the best position seen so far, less ``move_cost`` per move on the way to it
        (the higher, the shorter the lines and the slower the search)."""
        heap = [(0.0, 0, 0, self.start)]  # (-score + depth cost, node, depth, state)
        while heap and self.nodes < self.budget:
            _, node, depth, state = heapq.heappop(heap)
            for _, score, child_node, child, won in self.children(state, node):
                if won:
                    return self.line(child_node)
                cost = -score + move_cost * (depth + 1)
                heapq.heappush(heap, (cost, child_node, depth + 1, child))
        self.exhausted = not heap
        return None

    def beam(self, width: int, segment: int) -> list[Move] | None:
        """Deal by deal. From each of the ``width`` best positions after k deals, search the
        card moves best first for ``segment`` positions; deal from the best positions found
        that can deal, and keep the ``width`` best of those for the next round. A round that
        deals nothing (the stock is out) is the last, its searches get four times as long."""
        level = [(0, self.start)]
        while level and self.nodes < self.budget:
            ready: list[tuple[float, int, State]] = []
            for node, state in level:
                won = self.segment(state, node, segment, ready)
                if won is not None:
                    return self.line(won)
            ready.sort(key=lambda found: -found[0])
            dealt: list[tuple[float, int, State]] = []
            for _, node, state in ready:
                if len(dealt) >= width * width:
                    break
                child = self.step(state, node, DEAL) if self.can_deal(state) else None
                if child is not None:
                    score, child_node, after, won = child
                    if won:
                        return self.line(child_node)
                    dealt.append((score, child_node, after))
            if not dealt:
                # The stock is out (or cannot be dealt): search on from the best positions.
                for _, node, state in ready[:width]:
                    won = self.segment(state, node, 4 * segment, [])
                    if won is not None:
                        return self.line(won)
                return None
            dealt.sort(key=lambda found: -found[0])
            level = [(node, state) for _, node, state in dealt[:width]]
        return None

    def can_deal(self, state: State) -> bool:
        return DEAL in self.variant.legal_moves(state)

    def segment(
        self, state: State, node: int, limit: int, found: list[tuple[float, int, State]]
    ) -> int | None:
        """Best-first search of card moves from ``state``, at most ``limit`` positions; adds
        what it reaches to ``found`` and returns the node of a win, if it meets one."""
        heap = [(0.0, node, state)]
        stop = self.nodes + limit
        found.append((self.evaluator.score(state), node, state))
        while heap and self.nodes < stop:
            _, node, state = heapq.heappop(heap)
            for _, score, child_node, child, won in self.children(state, node, deal=False):
                if won:
                    return child_node
                found.append((score, child_node, child))
                heapq.heappush(heap, (-score, child_node, child))
        return None


def solve(variant: Variant, seed: int, budget: int, settings: Settings | None = None) -> Result:
    """Search deal ``seed`` for a win with at most about ``budget`` positions."""
    settings = settings or SETTINGS[variant.slug]
    started = time.perf_counter()
    search = Search(variant, seed, budget, settings.weights)
    if settings.method == "dfs":
        moves = search.dfs()
    elif settings.method == "best":
        moves = search.best_first(settings.move_cost)
    else:
        moves = search.beam(settings.width, settings.segment)
    found = None if moves is None else len(moves)
    if moves is not None:
        moves = shorten(variant, seed, moves, settings.reach)
    seconds = time.perf_counter() - started
    return Result(seed, moves, found, search.nodes, seconds, search.exhausted)


def shorten(variant: Variant, seed: int, moves: list[Move], reach: int = 2) -> list[Move]:
    """A winning line without the detours and idle moves that ``cut_detours`` and
    ``drop_moves`` find, applied in turn until neither shortens it."""
    while True:
        shorter = drop_moves(variant, seed, cut_detours(variant, seed, moves, reach))
        if len(shorter) >= len(moves):
            return moves
        moves = shorter


def cut_detours(variant: Variant, seed: int, moves: list[Move], reach: int = 2) -> list[Move]:
    """Wherever up to ``reach`` moves from a position on the line reach a later position of
    the line that the line takes longer to reach, take the short cut. Repeats until nothing
    shortens."""
    while True:
        states = [variant.deal(seed)]
        for move in moves:
            states.append(variant.apply(states[-1], move))
        last_index = {(s.base_rank, s.piles): i for i, s in enumerate(states)}
        shorter: list[Move] = []
        i = 0
        while i < len(moves):
            jump, via = i + 1, [moves[i]]  # the furthest saving found: to states[jump]
            frontier: list[tuple[State, list[Move]]] = [(states[i], [])]
            for depth in range(1, reach + 1):
                reached = []
                for state, path in frontier:
                    for move in variant.legal_moves(state):
                        child = variant.apply(state, move)
                        j = last_index.get((child.base_rank, child.piles), -1)
                        if j - depth > jump - len(via):
                            jump, via = j, [*path, move]
                        reached.append((child, [*path, move]))
                frontier = reached
            shorter.extend(via)
            i = jump
        if len(shorter) >= len(moves):
            return moves
        moves = shorter


def drop_moves(variant: Variant, seed: int, moves: list[Move]) -> list[Move]:
    """Leave out each move in turn, keeping the line shorter wherever it still wins."""
    states = [variant.deal(seed)]  # states[i]: the position before moves[i]
    i = 0
    while i < len(moves):
        if wins(variant, states[i], moves[i + 1 :]):
            moves = moves[:i] + moves[i + 1 :]
            continue
        states.append(variant.apply(states[i], moves[i]))
        i += 1
    return moves


def wins(variant: Variant, state: State, moves: list[Move]) -> bool:
    """Whether ``moves`` are legal from ``state`` and end the game won."""
    try:
        for move in moves:
            state = variant.apply(state, move)
    except IllegalMove:
        return False
    return variant.status(state) == WON


# -- the command line --------------------------------------------------------------------------


def parse_seeds(text: str) -> list[int]:
    """``"0-50"`` (inclusive), ``"7"`` or ``"1,5,9-12"``."""
    seeds: list[int] = []
    for part in text.split(","):
        low, dash, high = part.partition("-")
        seeds.extend(range(int(low), int(high) + 1) if dash else [int(low)])
    return seeds


def load_lines(path: Path = WINNING_LINES) -> dict:
    return json.loads(path.read_text()) if path.exists() else {}


def write_line(slug: str, result: Result, path: Path = WINNING_LINES) -> bool:
    """Store ``result`` for ``slug`` unless a line at least as short is stored already."""
    lines = load_lines(path)
    old = lines.get(slug)
    if old is not None and len(old["moves"]) <= len(result.moves or ()):
        return False
    lines[slug] = {"seed": result.seed, "moves": [move_to_json(m) for m in result.moves or ()]}
    ordered = {name: lines[name] for name in VARIANTS if name in lines}
    path.write_text(dump_lines(ordered))
    return True


def dump_lines(lines: dict) -> str:
    """The winning lines as JSON, one move to a line."""
    games = []
    for slug, entry in lines.items():
        moves = ",\n".join(f"      {json.dumps(move)}" for move in entry["moves"])
        games.append(
            f'  {json.dumps(slug)}: {{\n    "seed": {entry["seed"]},\n'
            f'    "moves": [\n{moves}\n    ]\n  }}'
        )
    return "{\n" + ",\n".join(games) + "\n}\n"


def main(argv: list[str] | None = None, out: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.solver",
        description="Search deals of a game for winning lines (see bench/solver.py).",
    )
    parser.add_argument("game", choices=list(VARIANTS))
    parser.add_argument("--seeds", default="0-50", help="e.g. 0-50 or 3,8,10-20 (default 0-50)")
    parser.add_argument("--budget", type=int, default=200_000, help="positions per seed")
    parser.add_argument("--method", choices=("dfs", "best", "beam"), help="default: per game")
    parser.add_argument("--move-cost", type=float, help="best: score given up per move")
    parser.add_argument("--width", type=int, help="beam: positions kept after each deal")
    parser.add_argument("--segment", type=int, help="beam: positions searched between deals")
    parser.add_argument("--reach", type=int, help="shorten: longest short cut looked for")
    parser.add_argument("--stop", type=int, default=0, help="stop after this many wins")
    parser.add_argument("--write", action="store_true", help="store the shortest win found")
    args = parser.parse_args(argv)

    variant = get_variant(args.game)
    settings = SETTINGS[args.game]
    chosen = {
        name: value
        for name in ("method", "move_cost", "width", "segment", "reach")
        if (value := getattr(args, name)) is not None
    }
    settings = replace(settings, **chosen)
    out(
        f"{args.game}: {settings.method}, budget {args.budget:,d}"
        + (f", move cost {settings.move_cost:g}" if settings.method == "best" else "")
        + (
            f", width {settings.width}, segment {settings.segment:,d}"
            if settings.method == "beam"
            else ""
        )
    )
    wins: list[Result] = []
    total_nodes, tried, started = 0, 0, time.perf_counter()
    for seed in parse_seeds(args.seeds):
        tried += 1
        result = solve(variant, seed, args.budget, settings)
        total_nodes += result.nodes
        if result.moves is not None:
            outcome = f"won in {len(result.moves)} moves (found {result.found})"
            wins.append(result)
        elif result.exhausted:
            outcome = "no win (searched all)"
        else:
            outcome = "no win"
        out(f"seed {seed:>6}: {outcome:32s} {result.nodes:>9,d} nodes {result.seconds:7.2f} s")
        if args.stop and len(wins) >= args.stop:
            break
    seconds = time.perf_counter() - started
    out(f"{len(wins)} win(s) in {tried} seed(s); {total_nodes:,d} nodes in {seconds:.1f} s")
    if wins:
        best = min(wins, key=lambda result: len(result.moves or ()))
        out(f"shortest: seed {best.seed}, {len(best.moves or ())} moves")
        if args.write:
            stored = write_line(args.game, best)
            out(
                f"{'wrote' if stored else 'kept the stored line, no longer than this, in'} "
                f"{WINNING_LINES}"
            )
    return 0 if wins else 1


if __name__ == "__main__":
    sys.exit(main())
