"""The solver's speed and reach, per game, on consecutive deals with a fixed budget.

    .venv/bin/python -m bench.solver_bench [GAME ...] [--deals 200] [--seconds 10]
        [--positions 5000000] [--from 0] [--out DIR] [--read DIR] [--reference]
        [--speed N] [--speed-positions 30000]

For each game it solves deals ``--from`` .. ``--from + --deals - 1`` (each seed is a shuffled
deal like any other) and prints positions per second, the median and 95th percentile time to
an answer (a deal left unknown counts as the whole budget, so those figures are then a floor),
the share answered (won or proven lost) within 10 s, and how long a daily challenge takes to
prepare: taking the deals in turn as a day's candidates, the time spent from each deal until
the first won one, median over every starting deal.

``--out DIR`` writes each deal's answer as a line of ``DIR/<game>.jsonl`` (seed, outcome,
positions, seconds, length), appending, so a long run can be resumed with ``--from``;
``--read DIR`` prints the figures of such files without solving anything.

The solver searches with its compiled core (``games.solver.core``); ``--reference`` runs the
Python search instead. ``--speed N`` first solves deals ``--from`` .. ``--from + N - 1`` of each
game with both, on the same budget of positions (``--speed-positions``, no time limit), and
prints each one's positions per second, the ratio, and whether they gave the same answers
with the same position counts.
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
from games.solver.winnability import compressed, result_lines

ANSWERED_WITHIN_S = 10.0


def solve_deals(
    slug: str, seeds: range, budget: Budget, out: Path | None = None, reference: bool = False
) -> list[dict[str, object]]:
    variant = get_variant(slug)
    rows = []
    for seed in seeds:
        answer = solve(variant, variant.deal(seed), budget, reference=reference)
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


SPEED_HEADER = (
    f"{'game':22s} {'deals':>5s} {'python pos/s':>13s} {'core pos/s':>13s} {'core/python':>12s} "
    f"{'same answers and counts':>24s}"
)


def speed(slug: str, seeds: range, positions: int) -> str:
    """Both searches on the same deals and budget of positions: their speed, side by side."""
    variant = get_variant(slug)
    budget = Budget(positions, 3600.0)
    spent = {True: [0, 0.0], False: [0, 0.0]}
    same = 0
    for seed in seeds:
        state = variant.deal(seed)
        answers = {}
        for reference in (True, False):
            answer = solve(variant, state, budget, reference=reference)
            spent[reference][0] += answer.positions
            spent[reference][1] += answer.seconds
            answers[reference] = (answer.outcome, answer.positions)
        same += answers[True] == answers[False]
    python = spent[True][0] / max(spent[True][1], 1e-9)
    core = spent[False][0] / max(spent[False][1], 1e-9)
    return (
        f"{slug:22s} {len(seeds):5d} {python:13,.0f} {core:13,.0f} {core / python:11.1f}x "
        f"{same:>17d} of {len(seeds):<3d}"
    )


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
    """A results file's lines, from ``<game>.jsonl`` and its compressed ``<game>.jsonl.gz``."""
    return [json.loads(line) for line in result_lines(path) if line.strip()]


def main(argv: list[str] | None = None, out: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.solver_bench", description=__doc__)
    parser.add_argument("games", nargs="*", choices=[[], *VARIANTS], default=[])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--positions", type=int, default=5_000_000)
    parser.add_argument("--from", dest="first", type=int, default=0)
    parser.add_argument("--out", type=Path, help="append each answer to DIR/<game>.jsonl")
    parser.add_argument("--read", type=Path, help="print the figures of DIR/<game>.jsonl")
    parser.add_argument(
        "--reference", action="store_true", help="search with the Python reference, not the core"
    )
    parser.add_argument(
        "--speed", type=int, default=0, help="first compare both searches' speed on N deals"
    )
    parser.add_argument("--speed-positions", type=int, default=30_000)
    args = parser.parse_args(argv)
    games = args.games or list(VARIANTS)
    if args.speed and not args.read:
        out(f"speed: {args.speed_positions:,d} positions per deal, both searches")
        out(SPEED_HEADER)
        for slug in games:
            out(speed(slug, range(args.first, args.first + args.speed), args.speed_positions))
        if not args.deals:
            return 0
    if not args.read:
        search = "the Python reference" if args.reference else "the compiled core"
        out(f"budget {args.seconds:g} s / {args.positions:,d} positions per deal, {search}")
    out(HEADER)
    for slug in games:
        if args.read:
            path = args.read / f"{slug}.jsonl"
            if not path.exists() and not compressed(path).exists():
                continue
            rows = read_rows(path)
        else:
            target = None
            if args.out:
                args.out.mkdir(parents=True, exist_ok=True)
                target = args.out / f"{slug}.jsonl"
            started = time.perf_counter()
            seeds = range(args.first, args.first + args.deals)
            budget = Budget(args.positions, args.seconds)
            rows = solve_deals(slug, seeds, budget, target, reference=args.reference)
            out(f"  ({slug}: {time.perf_counter() - started:.0f} s)")
        out(figures(slug, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
