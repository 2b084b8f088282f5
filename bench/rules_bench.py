"""Rules engine speed, per game, on one core.

    .venv/bin/python -m bench.rules_bench [--quick]

Positions come from the middle of random playouts (moves 10 to 80 of random games). Prints
deals/s, legal_moves calls/s, apply calls/s (each legal move of each sampled position), and
the median time to replay a 300-move history given as JSON, as the service stores it.
Targets (issue 2): >= 20,000 legal-move generations/s and >= 50,000 applies/s per game, and a
300-move replay under 15 ms.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from games.rules import VARIANTS, State, Variant


def sample_positions(variant: Variant, games: int, rng: random.Random) -> list[State]:
    positions = []
    for seed in range(games):
        state = variant.deal(seed)
        for _ in range(rng.randrange(10, 80)):
            moves = variant.legal_moves(state)
            if not moves:
                break
            state = variant.apply(state, rng.choice(moves))
        if variant.status(state) == "playing":
            positions.append(state)
    return positions


def long_history(variant: Variant, length: int) -> tuple[int, list[dict]]:
    """A random game of exactly ``length`` moves, as (seed, JSON moves)."""
    for seed in range(10_000):
        rng, state, history = random.Random(seed), variant.deal(seed), []
        while len(history) < length:
            moves = variant.legal_moves(state)
            if not moves:
                break
            history.append(rng.choice(moves))
            state = variant.apply(state, history[-1])
        if len(history) == length:
            return seed, [move.to_json() for move in history]
    raise RuntimeError(f"no random {variant.slug} game lasted {length} moves")


def rate(calls: int, seconds: float) -> float:
    return calls / seconds


def timed(function, repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        function()
    return time.perf_counter() - start


def bench(variant: Variant, quick: bool) -> dict[str, float]:
    rng = random.Random(variant.slug)
    positions = sample_positions(variant, 20 if quick else 60, rng)
    legal = [(state, variant.legal_moves(state)) for state in positions]
    rounds = 3 if quick else 20

    deals = 200 if quick else 2000
    deal_rate = rate(deals, timed(lambda: [variant.deal(s) for s in range(deals)], 1))
    moves_rate = rate(
        rounds * len(positions),
        timed(lambda: [variant.legal_moves(state) for state in positions], rounds),
    )
    applies = sum(len(moves) for _, moves in legal)
    apply_rate = rate(
        rounds * applies,
        timed(lambda: [variant.apply(s, m) for s, moves in legal for m in moves], rounds),
    )
    seed, history = long_history(variant, 300)
    replays = [timed(lambda: variant.replay(seed, history), 1) for _ in range(5 if quick else 30)]
    return {
        "positions": len(positions),
        "deals/s": deal_rate,
        "legal_moves/s": moves_rate,
        "apply/s": apply_rate,
        "replay 300 ms": statistics.median(replays) * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds, for a smoke run")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, as the issue asks
    header = f"{'game':<24}{'deals/s':>10}{'legal_moves/s':>15}{'apply/s':>11}{'replay 300':>12}"
    print(header)
    print("-" * len(header))
    for slug, variant in VARIANTS.items():
        r = bench(variant, args.quick)
        print(
            f"{slug:<24}{r['deals/s']:>10,.0f}{r['legal_moves/s']:>15,.0f}"
            f"{r['apply/s']:>11,.0f}{r['replay 300 ms']:>9.2f} ms"
        )


if __name__ == "__main__":
    main()
