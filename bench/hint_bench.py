"""How often a look-ahead hint comes from the solver within its cap, per game.

    .venv/bin/python -m bench.hint_bench [GAME ...] [--positions 100] [--seconds 1.0]
        [--seed 27]

Per game: ``--positions`` positions taken from play, each from a fresh deal (a seeded random
seed) played for 0 to 60 moves, each move today's rule-of-thumb hint (``Variant.hint``) three
times in four and a random legal move otherwise, as a player might; a position where the game
has ended is replaced by another. Each is hinted with ``games.solver.lookahead.lookahead_hint`` at
the cap (``--seconds``, positions as the server counts them), and the bench prints the share
of hints that came from the solver (target: at least 90 %), split into ``win`` (the move starts
a win found, or the position is proven lost) and ``best`` (no win found within the cap: the
move starts the line to the most promising position searched), how many said lost, how many
of those with hidden cards came from it, the median and largest time,
and how many suggest another move than the rule-of-thumb hint.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from games.rules import VARIANTS, State, Variant, get_variant
from games.solver.lookahead import BEST, SOLVER, lookahead_hint

TARGET = 0.90
HEADER = (
    f"{'game':22s} {'hints':>5s} {'solver':>7s} {'share':>6s} {'win':>5s} {'best':>5s} "
    f"{'lost':>4s} {'hidden':>9s} "
    f"{'p50 s':>6s} {'max s':>6s} {'differs':>7s}"
)


def positions_from_play(
    variant: Variant, count: int, rng: random.Random
) -> list[tuple[State, set[State]]]:
    """``count`` positions of games being played, with the positions each game has had."""
    found = []
    while len(found) < count:
        state = variant.deal(rng.randrange(2**32))
        seen = {state._replace(move_number=0)}
        for _ in range(rng.randint(0, 60)):
            moves = variant.legal_moves(state)
            if not moves:
                break
            move = variant.hint(state, seen) if rng.random() < 0.75 else rng.choice(moves)
            if move is None:
                move = rng.choice(moves)
            state = variant.apply(state, move)
            seen.add(state._replace(move_number=0))
        if variant.status(state) == "playing":
            found.append((state, seen - {state._replace(move_number=0)}))
    return found


def bench(slug: str, count: int, seconds: float, seed: int) -> tuple[str, float]:
    variant = get_variant(slug)
    rng = random.Random(f"{seed}-{slug}")
    times, solver, lost, differs, hidden, hidden_solver, best = [], 0, 0, 0, 0, 0, 0
    for state, seen in positions_from_play(variant, count, rng):
        started = time.perf_counter()
        hint = lookahead_hint(variant, state, seen, seconds)
        times.append(time.perf_counter() - started)
        from_solver = hint.source == SOLVER
        solver += from_solver
        best += hint.ahead == BEST
        lost += hint.lost
        if any(pile.face_down for pile in state.piles):
            hidden += 1
            hidden_solver += from_solver
        differs += not hint.lost and hint.move != variant.hint(state, seen)
    n = len(times)
    share = solver / n
    line = (
        f"{slug:22} {n:5} {solver:7} {share:6.0%} {solver - best:5} {best:5} {lost:4} "
        f"{hidden_solver:4}/{hidden:<4} "
        f"{statistics.median(times):6.3f} {max(times):6.3f} {differs:7}"
    )
    return line, share


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("games", nargs="*", default=sorted(VARIANTS))
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=27)
    args = parser.parse_args()
    print(f"look-ahead hints, {args.positions} positions a game, cap {args.seconds} s")
    print(HEADER)
    shares = {}
    for slug in args.games:
        line, shares[slug] = bench(slug, args.positions, args.seconds, args.seed)
        print(line, flush=True)
    met = [slug for slug, share in shares.items() if share >= TARGET]
    print(f"solver's share >= {TARGET:.0%}: {len(met)} of {len(shares)} games")


if __name__ == "__main__":
    main()
