"""Guests from one address asking hints, and what it costs another player's reads.

    .venv/bin/python -m bench.guest_hints_bench [--guests 40] [--variant grounds-for-divorce]
                                                [--seconds 30] [--warmup 5] [--rounds 1]
                                                [--read-interval 0.05] [--base-root PATH]

The review behind issue 45: 40 guests made from one address, each asking hints in Grounds for
Divorce within its own per-player limit, slowed another player's ``GET /api/games/{id}/`` from
p50 11.6 ms to 153 ms. Done when the same load leaves those reads within 2x their unloaded p50.

Method
------
1. Database and server (``bench/harness.py``): the bench database (``--database``, default
   ``patience_guest_hints_bench``) migrated and flushed, one account (the reader) with an API
   token; in Redis (``--redis-url``, default database 12) the counts this bench spends (the
   limits', the hint searches' claims, the guests' quota) deleted, so that they start empty
   each round. ``python -m deploy.serve --workers 2`` (the production
   launcher) with the default settings (limits included), DEBUG=0, PostgreSQL and Redis, the
   background solver off (``without_background_solver``: its pool filling would run the
   solver on the same cores); hint processes as configured (``HINT_PROCESSES`` 1 per worker).
2. The reader starts a game of ``--variant`` and reads it (``GET /api/games/{id}/``, one
   keep-alive connection, a read every ``--read-interval`` s) for ``--seconds``: unloaded.
3. ``--guests`` visitors, all from 127.0.0.1, each become a guest as a browser does (the CSRF
   cookie from ``GET /api/auth/csrf/``, then "New deal", ``POST /api/games/`` with the token:
   the server makes the guest and signs the session in) and start a game of ``--variant``.
   Each then asks for hints as fast as it is allowed: the next as soon as an answer is back,
   and after a 429 (``throttled`` or ``hint_in_progress``) when its ``Retry-After`` says.
   After ``--warmup`` s the reader reads again for ``--seconds``: loaded.
4. Printed per round: the reads' p50/p99/max unloaded and loaded and the ratio of the p50s;
   the hints answered (looked ahead by the solver or the rule-of-thumb one) and refused, by
   code; ``os.getloadavg()`` before and after (other work on the machine shows there).
5. ``--base-root PATH``: a worktree of another commit (its solver core built or copied in);
   each round then runs that commit's server and this one's, in turn, on the same database,
   Redis and settings, so the two are compared under the same load of the machine.

The reader runs in this process's main thread (httpx, synchronous); the guests in an asyncio
loop in another thread (httpx's AsyncClient, one per guest: its own cookies).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import redis

from bench import harness

DB_NAME = "patience_guest_hints_bench"
DEFAULT_REDIS_URL = f"redis://{harness.HOST}:6379/12"


@dataclass
class Config:
    guests: int = 40
    variant: str = "grounds-for-divorce"
    seconds: float = 30.0
    warmup: float = 5.0
    rounds: int = 1
    read_interval: float = 0.05
    workers: int = 2
    database: str = DB_NAME
    redis_url: str = DEFAULT_REDIS_URL
    base_root: Path | None = None


@dataclass
class Hints:
    """What the guests were answered."""

    answered: Counter[str] = field(default_factory=Counter)  # by source
    refused: Counter[str] = field(default_factory=Counter)  # by status and code

    def total(self) -> int:
        return sum(self.answered.values())


@dataclass
class Round:
    label: str
    unloaded: list[float]
    loaded: list[float]
    hints: Hints
    seconds: float
    load_before: tuple[float, float, float]
    load_after: tuple[float, float, float]

    def ratio(self) -> float:
        return percentile(self.loaded, 50) / percentile(self.unloaded, 50)


def parse_args(argv: list[str] | None = None) -> Config:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--guests", type=int, default=40)
    parser.add_argument("--variant", default="grounds-for-divorce")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--read-interval", type=float, default=0.05)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database", default=DB_NAME)
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL)
    parser.add_argument("--base-root", type=Path, default=None)
    args = parser.parse_args(argv)
    return Config(**{key.replace("-", "_"): value for key, value in vars(args).items()})


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q / 100))]


# -- the reader ------------------------------------------------------------------------------


def read_for(
    base_url: str, token: str, game_id: int, seconds: float, interval: float
) -> list[float]:
    """Latencies (s) of ``GET /api/games/{id}/`` read every ``interval`` s for ``seconds``."""
    latencies = []
    headers = {"Authorization": f"Token {token}"}
    with httpx.Client(base_url=base_url, headers=headers, trust_env=False, timeout=10) as client:
        client.get(f"/api/games/{game_id}/")  # the connection opened outside the figures
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            started = time.perf_counter()
            answer = client.get(f"/api/games/{game_id}/")
            latencies.append(time.perf_counter() - started)
            if answer.status_code != 200:
                raise RuntimeError(f"a read failed: {answer.status_code} {answer.text[:200]}")
            time.sleep(interval)
    return latencies


def start_game(base_url: str, token: str, variant: str) -> int:
    headers = {"Authorization": f"Token {token}"}
    answer = httpx.post(
        f"{base_url}/api/games/", json={"variant": variant}, headers=headers, trust_env=False
    )
    answer.raise_for_status()
    return answer.json()["id"]


# -- the guests ------------------------------------------------------------------------------


async def become_guest(client: httpx.AsyncClient, variant: str) -> tuple[dict[str, str], int]:
    """A browser's first "New deal": the guest's CSRF header and its game's id."""
    (await client.get("/api/auth/csrf/")).raise_for_status()
    headers = {"X-CSRFToken": client.cookies["csrftoken"]}
    answer = await client.post("/api/games/", json={"variant": variant}, headers=headers)
    if answer.status_code != 201:
        raise RuntimeError(f"no guest: {answer.status_code} {answer.text[:200]}")
    # Signing in rotates the CSRF token: the new one is the guest's.
    return {"X-CSRFToken": client.cookies["csrftoken"]}, answer.json()["id"]


async def ask_hints(
    client: httpx.AsyncClient,
    headers: dict[str, str],
    game_id: int,
    stop: asyncio.Event,
    hints: Hints,
) -> None:
    while not stop.is_set():
        try:
            answer = await client.post(f"/api/games/{game_id}/hint/", json={}, headers=headers)
        except httpx.HTTPError as error:
            hints.refused[type(error).__name__] += 1
            continue
        if answer.status_code == 200:
            hints.answered[answer.json().get("source", "?")] += 1
            continue
        code = answer.json().get("error", {}).get("code", "?") if answer.content else "?"
        hints.refused[f"{answer.status_code} {code}"] += 1
        wait = float(answer.headers.get("Retry-After", 1))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), wait)


async def guests_asking(
    base_url: str, config: Config, ready: threading.Event, stop_at: list[float], hints: Hints
) -> None:
    limits = httpx.Limits(max_connections=2)
    clients = [
        httpx.AsyncClient(base_url=base_url, trust_env=False, timeout=30, limits=limits)
        for _ in range(config.guests)
    ]
    try:
        made = await asyncio.gather(*(become_guest(c, config.variant) for c in clients))
        stop = asyncio.Event()
        tasks = [
            asyncio.create_task(ask_hints(client, headers, game_id, stop, hints))
            for client, (headers, game_id) in zip(clients, made, strict=True)
        ]
        ready.set()
        while not stop_at or time.monotonic() < stop_at[0]:
            await asyncio.sleep(0.1)
        stop.set()
        await asyncio.gather(*tasks)
    finally:
        ready.set()
        for client in clients:
            await client.aclose()


# -- a round ---------------------------------------------------------------------------------


def forget_counts(redis_url: str) -> None:
    """Delete the limits' counts, the hint searches' claims and the guests' quota (every
    round's guests come from the same address, 127.0.0.1)."""
    store = redis.Redis.from_url(redis_url)
    for pattern in ("*throttle_*", "*games:hint-search*", "*accounts:login-failures:guest:*"):
        for key in store.scan_iter(match=pattern):
            store.delete(key)


def one_round(label: str, root: Path, config: Config) -> Round:
    env = harness.without_background_solver(harness.server_env(config.redis_url, config.database))
    (token,) = harness.prepare_database(env, 1)
    forget_counts(config.redis_url)
    load_before = os.getloadavg()
    with harness.running_server(
        config.workers, env, root=root, log_prefix="guest_hints_"
    ) as server:
        game_id = start_game(server.base_url, token, config.variant)
        unloaded = read_for(server.base_url, token, game_id, config.seconds, config.read_interval)
        hints = Hints()
        ready = threading.Event()
        stop_at: list[float] = []
        guests = threading.Thread(
            target=asyncio.run,
            args=(guests_asking(server.base_url, config, ready, stop_at, hints),),
        )
        guests.start()
        ready.wait()
        time.sleep(config.warmup)
        started = time.monotonic()
        stop_at.append(started + config.seconds + 1)
        loaded = read_for(server.base_url, token, game_id, config.seconds, config.read_interval)
        guests.join()
        seconds = time.monotonic() - started + config.warmup
    return Round(label, unloaded, loaded, hints, seconds, load_before, os.getloadavg())


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def print_round(round_: Round, config: Config) -> None:
    hints = round_.hints
    refused = ", ".join(f"{code} {n}" for code, n in sorted(hints.refused.items())) or "none"
    sources = ", ".join(f"{source} {n}" for source, n in sorted(hints.answered.items()))
    print(
        f"{round_.label:>8}  reads unloaded p50 {ms(percentile(round_.unloaded, 50))} ms "
        f"p99 {ms(percentile(round_.unloaded, 99))} ms (n={len(round_.unloaded)}); loaded p50 "
        f"{ms(percentile(round_.loaded, 50))} ms p99 {ms(percentile(round_.loaded, 99))} ms max "
        f"{ms(max(round_.loaded))} ms (n={len(round_.loaded)}); p50 ratio {round_.ratio():.2f}x"
    )
    print(
        f"{'':>8}  hints answered {hints.total()} ({hints.total() / round_.seconds:.1f}/s: "
        f"{sources or 'none'}); refused: {refused}; loadavg before "
        f"{' '.join(f'{x:.2f}' for x in round_.load_before)}, after "
        f"{' '.join(f'{x:.2f}' for x in round_.load_after)}"
    )


def bench(config: Config) -> list[Round]:
    print(
        f"{config.guests} guests from one address asking hints in {config.variant}; reads every "
        f"{config.read_interval} s for {config.seconds:.0f} s; {config.workers} workers "
        f"(deploy.serve); loadavg {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
        f"{os.cpu_count()} CPUs",
        flush=True,
    )
    roots = [("this", harness.ROOT)]
    if config.base_root is not None:
        roots.insert(0, ("base", config.base_root.resolve()))
    rounds = []
    for _ in range(config.rounds):
        for label, root in roots:
            rounds.append(one_round(label, root, config))
            print_round(rounds[-1], config)
    for label, _ in roots:
        ratios = [r.ratio() for r in rounds if r.label == label]
        verdict = "within" if max(ratios) <= 2 else "NOT within"
        print(
            f"{label}: loaded/unloaded p50 {', '.join(f'{x:.2f}x' for x in ratios)}: "
            f"{verdict} 2x (median {statistics.median(ratios):.2f}x)"
        )
    return rounds


def main(argv: list[str] | None = None) -> int:
    bench(parse_args(argv))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
