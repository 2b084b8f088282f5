"""The solver's speed and reach, per game, on consecutive deals with a fixed budget.

    .venv/bin/python -m bench.solver_bench [GAME ...] [--deals 200] [--seconds 10]
        [--positions 5000000] [--from 0] [--out DIR] [--read DIR]

For each game it solves deals ``--from`` .. ``--from + --deals - 1`` (each seed is a shuffled
deal like any other) and prints positions per second, the median and 95th percentile time to
an answer (a deal left unknown counts as the whole budget, so those figures are then a floor),
the share answered (won or proven lost) within 10 s, and how long a daily challenge takes to
prepare: taking the deals in turn as a day's candidates, the time spent from each deal until
the first won one, median over every starting deal.

``--out DIR`` writes each deal's answer as a line of ``DIR/<game>.jsonl`` (seed, outcome,
positions, seconds, length), appending, so a long run can be resumed with ``--from``;
``--read DIR`` prints the figures of such files without solving anything.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from games.rules import VARIANTS, get_variant
from games.solver import LOST, UNKNOWN, WON, Budget, solve

ANSWERED_WITHIN_S = 10.0


def solve_deals(
    slug: str, seeds: range, budget: Budget, out: Path | None = None
) -> list[dict[str, object]]:
    variant = get_variant(slug)
    rows = []
    for seed in seeds:
        answer = solve(variant, variant.deal(seed), budget)
        row = {
            "seed": seed,
            "outcome": answer.outcome,
            "positions": answer.positions,
            "seconds": round(answer.seconds, 4),
            "length": len(answer.moves) if answer.moves is not None else None,
        }
        rows.append(row)
        if out is not None:
            with out.open("a") as file:
                file.write(json.dumps(row) + "\n")
    return rows


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def preparation_seconds(rows: list[dict[str, object]]) -> list[float]:
    """From each deal, the seconds spent until the first won deal, taking them in turn."""
    times = []
    for start in range(len(rows)):
        spent = 0.0
        for row in rows[start:]:
            spent += float(row["seconds"])  # type: ignore[arg-type]
            if row["outcome"] == WON:
                times.append(spent)
                break
    return times


def figures(slug: str, rows: list[dict[str, object]]) -> str:
    n = len(rows)
    count = {outcome: sum(row["outcome"] == outcome for row in rows) for outcome in (WON, LOST)}
    unknown = n - count[WON] - count[LOST]
    seconds = [float(row["seconds"]) for row in rows]  # type: ignore[arg-type]
    positions = sum(int(row["positions"]) for row in rows)  # type: ignore[call-overload]
    within = sum(
        row["outcome"] != UNKNOWN and float(row["seconds"]) <= ANSWERED_WITHIN_S  # type: ignore[arg-type]
        for row in rows
    )
    prepare = preparation_seconds(rows)
    prepared = f"{statistics.median(prepare):8.1f}" if prepare else "     n/a"
    return (
        f"{slug:22s} {n:5d} {count[WON]:5d} {count[LOST]:5d} {unknown:5d} "
        f"{positions / max(sum(seconds), 1e-9):9,.0f} {statistics.median(seconds):7.2f} "
        f"{percentile(seconds, 0.95):7.2f} {100 * within / n:7.1f}% {prepared}"
    )


HEADER = (
    f"{'game':22s} {'deals':>5s} {'won':>5s} {'lost':>5s} {'unkn':>5s} {'pos/s':>9s} "
    f"{'p50 s':>7s} {'p95 s':>7s} {'<=10 s':>8s} {'prep s':>8s}"
)


def read_rows(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def main(argv: list[str] | None = None, out: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.solver_bench", description=__doc__)
    parser.add_argument("games", nargs="*", choices=[[], *VARIANTS], default=[])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--positions", type=int, default=5_000_000)
    parser.add_argument("--from", dest="first", type=int, default=0)
    parser.add_argument("--out", type=Path, help="append each answer to DIR/<game>.jsonl")
    parser.add_argument("--read", type=Path, help="print the figures of DIR/<game>.jsonl")
    args = parser.parse_args(argv)
    games = args.games or list(VARIANTS)
    if not args.read:
        out(f"budget {args.seconds:g} s / {args.positions:,d} positions per deal")
    out(HEADER)
    for slug in games:
        if args.read:
            path = args.read / f"{slug}.jsonl"
            if not path.exists():
                continue
            rows = read_rows(path)
        else:
            target = None
            if args.out:
                args.out.mkdir(parents=True, exist_ok=True)
                target = args.out / f"{slug}.jsonl"
            started = time.perf_counter()
            seeds = range(args.first, args.first + args.deals)
            rows = solve_deals(slug, seeds, Budget(args.positions, args.seconds), target)
            out(f"  ({slug}: {time.perf_counter() - started:.0f} s)")
        out(figures(slug, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
