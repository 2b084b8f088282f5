"""How long a look-ahead hint takes, and how often it differs from today's hint.

    .venv/bin/python -m bench.hint_bench [--positions 20] [--seconds 1.0]

Per game: positions from random deals after a few moves of today's hints (3 to 10), each
hinted with ``games.solver.hints.lookahead_hint`` at the cap; the median and largest time, how
many hints came from the solver (a win, or a proven loss), how many said lost, and how many
others suggest another move than today's hint (``Variant.hint``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from games.rules import VARIANTS, get_variant
from games.solver.hints import SOLVER, lookahead_hint


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    rng = random.Random(27)
    print("game                   median   max   solver  lost  differs")
    for slug in sorted(VARIANTS):
        variant = get_variant(slug)
        times, solver, lost, differs = [], 0, 0, 0
        while len(times) < args.positions:
            state = variant.deal(rng.randrange(2**32))
            seen = {state._replace(move_number=0)}
            for _ in range(rng.randint(3, 10)):
                move = variant.hint(state, seen)
                if move is None:
                    break
                state = variant.apply(state, move)
                seen.add(state._replace(move_number=0))
            if variant.status(state) != "playing":
                continue
            started = time.perf_counter()
            hint = lookahead_hint(variant, state, seen, args.seconds)
            times.append(time.perf_counter() - started)
            solver += hint.source == SOLVER
            lost += hint.lost
            differs += not hint.lost and hint.move != variant.hint(state, seen)
        n = len(times)
        print(
            f"{slug:22} {statistics.median(times):6.3f} {max(times):6.3f}"
            f"  {solver:3}/{n}  {lost:3}  {differs:3}/{n}"
        )


if __name__ == "__main__":
    main()
