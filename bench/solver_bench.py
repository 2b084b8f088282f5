"""The solver's speed and reach, per game, on consecutive deals with a fixed budget.

    .venv/bin/python -m bench.solver_bench [GAME ...] [--deals 200] [--seconds 10]
        [--positions 5000000] [--from 0] [--out DIR] [--read DIR] [--reference]
        [--rung N] [--speed N] [--speed-positions 30000]
        [--prove-lost DIR [--at 10000000] [--relax-seconds 60] [--limit N]]

For each game it solves deals ``--from`` .. ``--from + --deals - 1`` (each seed is a shuffled
deal like any other) and prints positions per second, the median and 95th percentile time to
an answer (a deal left unknown counts as the whole budget, so those figures are then a floor),
the share answered (won or proven lost) within 10 s, and how long a daily challenge takes to
prepare: taking the deals from each one on as a day's candidates, the seconds the daily's
own ladder of budgets (``games.solver.ladder.climb``, the code ``games.daily.challenges``
runs) spends until it takes a won one: where the game has a first rung below the budget, each
of the first 20 candidates searched within the rung's positions (each deal is solved on the
rung once, and those seconds count), then, when none is won, every candidate on the full
budget (these runs' answers); median (``prep s``) and 95th percentile (``prep p95``) over
every starting deal that reaches a won one. ``flat s`` is the median without the rung, every
candidate on the full budget (what a day cost before the ladder). ``--rung N`` tries another
first rung than the game's (0: none). ``--read`` has no rung answers: a game whose rung is
below the run's budget shows ``n/a`` there.

``--out DIR`` writes each deal's answer as a line of ``DIR/<game>.jsonl`` (seed, outcome,
positions, seconds, length), appending, so a long run can be resumed with ``--from``;
``--read DIR`` prints the figures of such files without solving anything.

The solver searches with its compiled core (``games.solver.core``); ``--reference`` runs the
Python search instead. ``--speed N`` first solves deals ``--from`` .. ``--from + N - 1`` of each
game with both, on the same budget of positions (``--speed-positions``, no time limit), and
prints each one's positions per second, the ratio, and whether they gave the same answers
with the same position counts.

``--prove-lost DIR`` solves nothing with the search: it takes the deals ``DIR/<game>.jsonl``
left unknown on at least ``--at`` positions (the stored winnability run's retry at
10,000,000 positions is about 10 s of a core) and tries the proofs of loss on each
(docs/solver.md, "Proofs of loss"): the static dead ends (``games.solver.deadends``), then
the game's relaxed games (``games.solver.relax``) within ``--relax-seconds`` a deal, the
first ``--limit`` deals the static rules left (all when 0). It prints, per game, the deals
proven lost by each, the relaxed games won (which proves nothing) or cut off, and the share of
the unknown deals proven lost.
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from games.rules import VARIANTS, get_variant
from games.solver import LOST, UNKNOWN, WON, Budget, relax, solve
from games.solver.deadends import reserve_blocked
from games.solver.ladder import climb, first_rung
from games.solver.winnability import compressed, result_lines

ANSWERED_WITHIN_S = 10.0


def solve_deal(slug: str, seed: int, budget: Budget, reference: bool = False) -> dict[str, object]:
    variant = get_variant(slug)
    answer = solve(variant, variant.deal(seed), budget, reference=reference)
    return {
        "seed": seed,
        "outcome": answer.outcome,
        "positions": answer.positions,
        "seconds": round(answer.seconds, 4),
        "length": len(answer.moves) if answer.moves is not None else None,
    }


def solve_deals(
    slug: str, seeds: range, budget: Budget, out: Path | None = None, reference: bool = False
) -> list[dict[str, object]]:
    rows = []
    for seed in seeds:
        row = solve_deal(slug, seed, budget, reference)
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


@dataclass(frozen=True)
class _Answered:
    outcome: str


def ladder_seconds(
    slug: str,
    rows: list[dict[str, object]],
    on_rung: Callable[[int], dict[str, object]],
    positions: int,
    rung: int | None = None,
) -> list[float]:
    """From each deal, the seconds the daily's ladder (``climb``) spends until it takes a won
    deal, the deals from it on as the day's candidates: a deal's answer on the full budget is
    its row, on the rung ``on_rung(seed)``'s; a start that reaches no won deal is left out."""
    full = {int(row["seed"]): row for row in rows}  # type: ignore[call-overload]
    seeds = list(full)
    times = []
    for start in range(len(seeds)):
        spent = 0.0

        def answer(seed: int, on: int | None) -> _Answered:
            nonlocal spent
            row = full[seed] if on is None else on_rung(seed)
            spent += float(row["seconds"])  # type: ignore[arg-type]
            return _Answered(str(row["outcome"]))

        if climb(slug, seeds[start:], answer, positions, rung=rung).won is not None:
            times.append(spent)
    return times


def _no_rung(seed: int) -> dict[str, object]:
    raise AssertionError("a ladder without a rung asks for no rung answer")


def figures(slug: str, rows: list[dict[str, object]], prepare: list[float] | None = None) -> str:
    """The figures of a game's run; ``prepare``: the ladder's preparation times (None: the
    run cannot tell them, ``n/a``)."""
    n = len(rows)
    count = {outcome: sum(row["outcome"] == outcome for row in rows) for outcome in (WON, LOST)}
    unknown = n - count[WON] - count[LOST]
    seconds = [float(row["seconds"]) for row in rows]  # type: ignore[arg-type]
    positions = sum(int(row["positions"]) for row in rows)  # type: ignore[call-overload]
    within = sum(
        row["outcome"] != UNKNOWN and float(row["seconds"]) <= ANSWERED_WITHIN_S  # type: ignore[arg-type]
        for row in rows
    )
    flat = preparation_seconds(rows)
    return (
        f"{slug:22s} {n:5d} {count[WON]:5d} {count[LOST]:5d} {unknown:5d} "
        f"{positions / max(sum(seconds), 1e-9):9,.0f} {statistics.median(seconds):7.2f} "
        f"{percentile(seconds, 0.95):7.2f} {100 * within / n:7.1f}% "
        f"{_seconds(prepare, statistics.median)} "
        f"{_seconds(prepare, lambda times: percentile(times, 0.95))} "
        f"{_seconds(flat, statistics.median)}"
    )


def _seconds(times: list[float] | None, of: Callable[[list[float]], float]) -> str:
    return f"{of(times):9.2f}" if times else f"{'n/a':>9s}"


HEADER = (
    f"{'game':22s} {'deals':>5s} {'won':>5s} {'lost':>5s} {'unkn':>5s} {'pos/s':>9s} "
    f"{'p50 s':>7s} {'p95 s':>7s} {'<=10 s':>8s} {'prep s':>9s} {'prep p95':>9s} {'flat s':>9s}"
)


def read_rows(path: Path) -> list[dict[str, object]]:
    """A results file's lines, from ``<game>.jsonl`` and its compressed ``<game>.jsonl.gz``."""
    return [json.loads(line) for line in result_lines(path) if line.strip()]


PROVE_HEADER = (
    f"{'game':22s} {'unknown':>7s} {'static':>7s} {'tried':>6s} {'s won':>7s} {'s lost':>7s} "
    f"{'relaxed':>8s} "
    f"{'rel won':>8s} {'rel cut':>8s} {'rel p50 s':>10s} {'proven':>8s}"
)


def prove_lost(
    slug: str,
    rows: list[dict[str, object]],
    at: int,
    seconds: float,
    limit: int,
    search_seconds: float = 0.0,
) -> tuple[str, list[dict[str, object]]]:
    """The proofs of loss tried on the deals ``rows`` left unknown on ``at`` positions or more:
    the figures' line and one row per deal tried (seed, how it ended, seconds)."""
    variant = get_variant(slug)
    unknown = [
        int(row["seed"])  # type: ignore[call-overload]
        for row in rows
        if row["outcome"] == UNKNOWN and int(row["positions"]) >= at  # type: ignore[call-overload]
    ]
    static = [seed for seed in unknown if reserve_blocked(variant, variant.deal(seed))]
    left = [seed for seed in unknown if seed not in set(static)]
    tried = left[:limit] if limit else left
    found: list[dict[str, object]] = []
    for seed in tried:
        started = time.perf_counter()
        ended, made = UNKNOWN, 0
        if search_seconds:
            # The search as it is now (its dead-end pruning included), first.
            answer = solve(variant, variant.deal(seed), Budget(10**10, search_seconds))
            if answer.outcome != UNKNOWN:
                found.append(
                    {
                        "seed": seed,
                        "ended": "search " + answer.outcome,
                        "positions": answer.positions,
                        "seconds": round(time.perf_counter() - started, 2),
                    }
                )
                continue
            made = answer.positions
        relaxing = time.perf_counter()  # the relaxed games' seconds start here
        for relaxation in variant.solver.relaxations:
            spent = time.perf_counter() - relaxing
            outcome, positions = relax.search(
                variant, variant.deal(seed), relaxation, 10**9, seconds - spent
            )
            made += positions
            ended = relax.name(relaxation) if outcome == LOST else outcome
            if outcome == LOST or time.perf_counter() - relaxing >= seconds:
                break
        found.append(
            {
                "seed": seed,
                "ended": ended,
                "positions": made,
                "seconds": round(time.perf_counter() - started, 2),
            }
        )
    relaxed = sum(str(row["ended"]).startswith("relaxation") for row in found)
    by_search = {
        outcome: sum(row["ended"] == f"search {outcome}" for row in found)
        for outcome in (WON, LOST)
    }
    won = sum(row["ended"] == WON for row in found)
    cut = sum(row["ended"] == UNKNOWN for row in found)
    times = [float(row["seconds"]) for row in found]  # type: ignore[arg-type]
    # The share proven: the static proofs over every unknown deal, the relaxed ones over
    # the deals tried (scaled to those the static rules left).
    share = (len(static) + (relaxed / len(tried) * len(left) if tried else 0)) / max(
        len(unknown), 1
    )
    line = (
        f"{slug:22s} {len(unknown):7d} {len(static):7d} {len(tried):6d} "
        f"{by_search[WON]:7d} {by_search[LOST]:7d} {relaxed:8d} "
        f"{won:8d} {cut:8d} {_seconds(times, statistics.median):>10s} {100 * share:7.1f}%"
    )
    return line, found


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
    parser.add_argument(
        "--rung", type=int, help="the first rung's positions instead of the game's (0: none)"
    )
    parser.add_argument(
        "--prove-lost", type=Path, help="try the proofs of loss on DIR/<game>.jsonl's unknown deals"
    )
    parser.add_argument("--at", type=int, default=10_000_000, help="with --prove-lost")
    parser.add_argument("--relax-seconds", type=float, default=60.0, help="with --prove-lost")
    parser.add_argument("--limit", type=int, default=0, help="with --prove-lost: deals tried")
    parser.add_argument(
        "--search-seconds",
        type=float,
        default=0.0,
        help="with --prove-lost: first search each deal again for this long (0: not)",
    )
    args = parser.parse_args(argv)
    games = args.games or list(VARIANTS)
    if args.prove_lost:
        out(
            f"proofs of loss on the deals unknown at {args.at:,d} positions; the relaxed games "
            f"within {args.relax_seconds:g} s a deal"
            + (
                f", after the search within {args.search_seconds:g} s"
                if args.search_seconds
                else ""
            )
        )
        out(PROVE_HEADER)
        for slug in games:
            if not get_variant(slug).solver.relaxations:
                continue
            path = args.prove_lost / f"{slug}.jsonl"
            if not path.exists() and not compressed(path).exists():
                continue
            line, found = prove_lost(
                slug, read_rows(path), args.at, args.relax_seconds, args.limit, args.search_seconds
            )
            for row in found:
                out(f"  {slug} {json.dumps(row)}")
            out(line)
        return 0
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
            # The run's budget, as far as its rows tell (its unknown deals spent it all).
            positions = max(int(row["positions"]) for row in rows)  # type: ignore[call-overload]
        else:
            positions = args.positions
        rung = first_rung(slug, positions) if args.rung is None else args.rung
        rung = rung if rung and rung < positions else None
        if args.read:
            prepare = None if rung else ladder_seconds(slug, rows, _no_rung, positions, rung=0)
        else:
            target = None
            if args.out:
                args.out.mkdir(parents=True, exist_ok=True)
                target = args.out / f"{slug}.jsonl"
            started = time.perf_counter()
            seeds = range(args.first, args.first + args.deals)
            budget = Budget(args.positions, args.seconds)
            rows = solve_deals(slug, seeds, budget, target, reference=args.reference)
            solved = time.perf_counter()
            on_rung = functools.partial(
                solve_deal, slug, budget=Budget(rung or 0, args.seconds), reference=args.reference
            )
            prepare = ladder_seconds(
                slug, rows, functools.cache(on_rung), args.positions, rung=rung or 0
            )
            said = f"first rung {rung:,d} positions" if rung else "no first rung"
            out(
                f"  ({slug}: {solved - started:.0f} s; {said}, "
                f"{time.perf_counter() - solved:.0f} s more on it)"
            )
        out(figures(slug, rows, prepare))
    return 0


if __name__ == "__main__":
    sys.exit(main())
