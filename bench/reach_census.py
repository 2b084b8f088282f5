"""Where a deal's positions come from: the first N positions it can reach, breadth first, and
how many of them differ only in the tableau.

    .venv/bin/python -m bench.reach_census blondes-and-brunettes [--seed 0] [--positions 300000]
        [--moves 0]

``--moves K`` starts K moves into the deal instead, along the line to the most promising
position a 1,000,000-position search met (``solve(..., best=True)``, as a hint's), so that the
census looks at the middle of a game rather than its first deals.

Every legal move is followed (the compiled core's legal moves and successors, no pruning), and
positions are told apart by the search's own canonical key. Each position expanded is then
counted under what the tableau cannot undo: the stock, reserve and discard (by their size), the
foundations (their heights and top cards, as a sorted set) and the waste (its cards in order),
and again without the waste. Few positions per such level means a search's positions are
spent on which cards wait where outside the tableau, not on arrangements of the tableau: the
place a proof of loss would have to merge positions (docs/solver.md, "Proofs of loss").
"""

from __future__ import annotations

import argparse
import collections
import time

from games.rules import VARIANTS, get_variant
from games.rules.cards import IS_RED, RANK
from games.solver import Budget, solve
from games.solver.core import core_for

OUTSIDE = ("stock", "reserve", "discard")


def census(slug: str, seed: int, limit: int, moves: int = 0) -> dict[str, float]:
    variant = get_variant(slug)
    core = core_for(variant)
    if core is None:
        raise SystemExit(f"the compiled core does not play {slug}")
    rules = core.rules
    if variant.solver.keyed_by_colour:

        def card(c: int) -> int:
            return RANK[c] * 2 + IS_RED[c]
    else:

        def card(c: int) -> int:
            return c

    def levels(packed: bytes) -> tuple[tuple, tuple]:
        outside, waste, foundations = [], (), []
        k = 1
        for kind in variant.kinds:
            n = packed[k]
            cards = packed[k + 2 : k + 2 + n]
            k += 2 + n
            if kind in OUTSIDE:
                outside.append(n)
            elif kind == "waste":
                waste = tuple(card(c) for c in cards)
            elif kind == "foundation":
                foundations.append((n, card(cards[-1]) if n else -1))
        without_waste = (tuple(outside), tuple(sorted(foundations)))
        return without_waste, (without_waste, waste)

    state = variant.deal(seed)
    if moves:
        line = solve(variant, state, Budget(positions=1_000_000, seconds=600), best=True)
        for move in (line.moves or line.best or [])[:moves]:
            state = variant.successor(state, move)
    start = core.pack(state)
    home = sum(
        len(cards)
        for (cards, _), kind in zip(state.piles, variant.kinds, strict=True)
        if kind == "foundation"
    )
    seen = {rules.key(start)}
    queue = collections.deque([start])
    expanded = 0
    by_level: set[tuple] = set()
    by_level_without_waste: set[tuple] = set()
    began = time.perf_counter()
    while queue and len(seen) < limit:
        packed = queue.popleft()
        expanded += 1
        without_waste, level = levels(packed)
        by_level.add(level)
        by_level_without_waste.add(without_waste)
        for move in rules.legal_moves(packed):
            after = rules.successor(packed, move)
            key = rules.key(after)
            if key not in seen:
                seen.add(key)
                queue.append(after)
    return {
        "met": len(seen),
        "expanded": expanded,
        "levels": len(by_level),
        "levels_without_waste": len(by_level_without_waste),
        "seconds": time.perf_counter() - began,
        "exhausted": not queue,
        "home_at_start": home,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=list(VARIANTS))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--positions", type=int, default=300_000)
    parser.add_argument("--moves", type=int, default=0)
    args = parser.parse_args()
    figures = census(args.game, args.seed, args.positions, args.moves)
    expanded = figures["expanded"]
    print(
        f"{args.game} deal {args.seed}, {args.moves} moves in "
        f"({figures['home_at_start']} cards home): "
        f"{figures['met']:,} positions met, {expanded:,} expanded"
        f"{' (all it can reach)' if figures['exhausted'] else ''}, {figures['seconds']:.1f} s\n"
        f"  levels (stock, reserve, discard, foundations, waste): {figures['levels']:,}"
        f" ({expanded / figures['levels']:.1f} positions each)\n"
        f"  the same without the waste: {figures['levels_without_waste']:,}"
        f" ({expanded / figures['levels_without_waste']:,.0f} positions each)"
    )


if __name__ == "__main__":
    main()
