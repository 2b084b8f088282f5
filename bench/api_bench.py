"""API throughput and latency against a real server: the trivial endpoint vs move submission.

    .venv/bin/python -m bench.api_bench [--quick] [--workers N] [--duration S] [--no-redis]
                                        [--clients 1,10,50] [--think-ms MS]
                                        [--idempotency-keys] [--shared-socket]

Method
------
1. Database. A dedicated PostgreSQL database, ``patience_bench`` on 127.0.0.1:5432, is created
   if missing (psycopg), migrated and flushed with ``manage.py`` (``DATABASE_URL`` pointing at
   it), then one user and one API token per simulated player are made by ``manage.py shell`` in
   a subprocess. This process never imports Django: it only speaks HTTP to the server.
2. Server. ``python -m deploy.serve`` (the README's production launcher: uvicorn, each worker
   on a listening socket of its own; ``--shared-socket``: ``uvicorn --workers N``, whose
   workers share one) in its own process group, on a free port of 127.0.0.1, ``--workers N``
   (default 2), DEBUG=0, a random SECRET_KEY, ALLOWED_HOSTS=127.0.0.1,
   and ``REDIS_URL=redis://127.0.0.1:6379/0`` (the channel layer, so every move's live update
   goes to Redis as in production; ``--no-redis`` unsets it), and the server's background
   solver jobs off (``CLOSE_DAYS_IN_SERVER=0``, ``WINNABLE_POOL_IN_SERVER=0``: on the flushed
   database they would run the solver for minutes in the server's process group). The
   benchmark waits for ``GET /api/health/`` to answer, and always stops the whole process
   group at the end.
3. Load. For 1, 10 and 50 concurrent clients (asyncio, one ``httpx.AsyncClient`` per simulated
   player, each with its own keep-alive connection, token and games), two closed-loop phases,
   each a warm-up then a fixed measured window (default 10 s, ``--quick`` 3 s):

   - health: ``GET /api/health/`` as fast as each client can (no database, no auth);
   - moves: each client starts a game (``POST /api/games/``, the five games in turn), then
     posts a random legal move from the previous response's ``legal_moves`` with that response's
     ``move_number`` as ``expected_move_number``; a finished game, or one with no legal move,
     is replaced by a new game. Game creations are not counted as moves.

   A request counts in a window when its response arrives inside it. Only 201 answers are
   successful moves; every non-2xx answer (and any transport error), in a warm-up or a window,
   is counted and reported separately. Latency is client-side: from sending the request to
   having read the whole response. Percentiles are nearest-rank.
4. Report. Throughput (req/s, moves/s), p50/p99 latency, moves/health throughput ratio per
   concurrency level; per window, the CPU used (server process group, this client, the whole
   machine, from /proc) and the bench database's new connections and transactions per request
   (from ``pg_stat_database``); and whether the targets are met: move submission >= 40% of the
   trivial endpoint's throughput (at every level) and move p99 < 50 ms at 50 clients. The exit
   status is 0 whether or not they are met (1 only if the benchmark itself fails).

The client runs on the same machine as the server, PostgreSQL and Redis: its own CPU use is
printed so that a client-bound figure can be recognised as such. ``--think-ms`` makes each client
pause between requests (players are not robots); the targets are defined without a pause.
``--idempotency-keys`` sends a new ``Idempotency-Key`` with every move, as the play page does
(a script need not); without it, moves are posted as a script would.
``DJANGO_SETTINGS_MODULE``, when set in the environment, is passed on to the server (e.g. a
module that imports ``config.settings`` and changes one setting, to try an optimisation).

The database, players, server and /proc helpers are shared with ``bench.ws_bench``: they are
in ``bench/harness.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import sys
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import psycopg

from bench.harness import (
    DATABASE_URL,
    DB_NAME,
    DEFAULT_REDIS_URL,
    Resources,
    Server,
    Snapshot,
    launcher_description,
    percentile,
    pg_counters,
    prepare_database,
    resources_between,
    running_server,
    server_env,
    stats_connection,
    tail,
    without_background_solver,
)

# The engine's slugs, in its order (bench/rules_bench.py reads them from games.rules; this file
# stays free of project imports so it cannot pick up a different database than the server).
VARIANT_SLUGS = (
    "grounds-for-divorce",
    "gold-mine",
    "selective-castle",
    "grandfathers-clock",
    "blondes-and-brunettes",
)
CONCURRENCY_LEVELS = (1, 10, 50)
TARGET_RATIO = 0.40
TARGET_P99_MS = 50.0
TARGET_P99_CLIENTS = 50
REQUEST_TIMEOUT_S = 30.0


# -- configuration ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Config:
    workers: int
    duration: float
    warmup: float
    levels: tuple[int, ...]
    redis_url: str | None
    seed: int
    think: float
    idempotency_keys: bool = False
    shared_socket: bool = False


def parse_args(argv: list[str] | None = None) -> Config:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 s windows, 1 s warm-ups")
    parser.add_argument("--workers", type=int, default=2, help="server worker processes")
    parser.add_argument(
        "--shared-socket",
        action="store_true",
        help="uvicorn --workers N (one listening socket) instead of deploy.serve",
    )
    parser.add_argument("--duration", type=float, help="seconds measured per phase")
    parser.add_argument("--warmup", type=float, help="seconds of warm-up before each window")
    parser.add_argument(
        "--clients",
        type=lambda text: tuple(int(n) for n in text.split(",")),
        default=CONCURRENCY_LEVELS,
        help="comma-separated concurrency levels (default 1,10,50)",
    )
    parser.add_argument("--no-redis", action="store_true", help="unset REDIS_URL for the server")
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL)
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' move choices")
    parser.add_argument(
        "--think-ms",
        type=float,
        default=0.0,
        help="mean pause of each client between requests (default 0: back to back, as the "
        "targets are defined; with a pause, throughputs are set by the pacing)",
    )
    parser.add_argument(
        "--idempotency-keys",
        action="store_true",
        help="send an Idempotency-Key with every move, as the browser does",
    )
    args = parser.parse_args(argv)
    duration = args.duration if args.duration is not None else (3.0 if args.quick else 10.0)
    warmup = args.warmup if args.warmup is not None else (1.0 if args.quick else 2.0)
    if args.workers < 1 or duration <= 0 or warmup < 0 or min(args.clients) < 1:
        parser.error("--workers, --duration and --clients must be positive")
    if args.think_ms < 0:
        parser.error("--think-ms cannot be negative")
    return Config(
        workers=args.workers,
        duration=duration,
        warmup=warmup,
        levels=args.clients,
        redis_url=None if args.no_redis else args.redis_url,
        seed=args.seed,
        think=args.think_ms / 1000,
        idempotency_keys=args.idempotency_keys,
        shared_socket=args.shared_socket,
    )


# -- load generation -------------------------------------------------------------------------


@dataclass
class Recorder:
    """Latencies of successes answered inside the window, and every failure of the phase."""

    recording: bool = False
    latencies: list[float] = field(default_factory=list)
    failures: Counter[str] = field(default_factory=Counter)

    def success(self, seconds: float) -> None:
        if self.recording:
            self.latencies.append(seconds)

    def failure(self, what: str, response: httpx.Response | None, error: str = "") -> None:
        if response is not None:
            error = f"{response.status_code} {error_code(response)}"
        self.failures[f"{what}: {error}"] += 1


def error_code(response: httpx.Response) -> str:
    try:
        return str(response.json()["error"]["code"])
    except (ValueError, KeyError, TypeError):
        return response.text[:60].replace("\n", " ")


async def timed(request: Awaitable[httpx.Response]) -> tuple[httpx.Response, float]:
    start = time.perf_counter()
    response = await request
    return response, time.perf_counter() - start


ClientLoop = Callable[[httpx.AsyncClient, Recorder, asyncio.Event, int], Awaitable[None]]


async def think(rng: random.Random, mean: float) -> None:
    """A player's pause between requests: ``mean`` seconds give or take half (0: none)."""
    if mean > 0:
        await asyncio.sleep(rng.uniform(0.5 * mean, 1.5 * mean))


def health_client(think_time: float) -> ClientLoop:
    async def loop(
        client: httpx.AsyncClient, recorder: Recorder, stop: asyncio.Event, index: int
    ) -> None:
        rng = random.Random(index)
        while not stop.is_set():
            try:
                response, seconds = await timed(client.get("/api/health/"))
            except httpx.HTTPError as exc:
                recorder.failure("health", None, type(exc).__name__)
                await asyncio.sleep(0.05)
                continue
            if response.status_code == 200:
                recorder.success(seconds)
            else:
                recorder.failure("health", response)
            await think(rng, think_time)

    return loop


class Player:
    """One simulated player: plays random legal moves, one game after another."""

    def __init__(
        self,
        client: httpx.AsyncClient,
        recorder: Recorder,
        index: int,
        seed: int,
        think_time: float = 0.0,
        idempotency_keys: bool = False,
    ):
        self.client = client
        self.think_time = think_time
        self.idempotency_keys = idempotency_keys
        self.recorder = recorder
        self.index = index
        self.rng = random.Random(seed * 1000 + index)
        self.games_started = 0
        self.game: dict[str, Any] | None = None

    def needs_new_game(self) -> bool:
        game = self.game
        return game is None or game["status"] != "playing" or not game["legal_moves"]

    async def new_game(self) -> None:
        variant = VARIANT_SLUGS[(self.index + self.games_started) % len(VARIANT_SLUGS)]
        self.games_started += 1
        response = await self.client.post("/api/games/", json={"variant": variant})
        if response.status_code == 201:
            self.game = response.json()
        else:
            self.recorder.failure("create", response)
            self.game = None
            await asyncio.sleep(0.05)

    async def move(self) -> None:
        assert self.game is not None
        payload = {
            "move": self.rng.choice(self.game["legal_moves"]),
            "expected_move_number": self.game["move_number"],
        }
        url = f"/api/games/{self.game['id']}/moves/"
        headers = {}
        if self.idempotency_keys:  # a new random key per move, as the play page makes them
            headers["Idempotency-Key"] = str(uuid.uuid4())
        response, seconds = await timed(self.client.post(url, json=payload, headers=headers))
        if response.status_code == 201:
            self.recorder.success(seconds)
            self.game = response.json()
        else:
            self.recorder.failure("move", response)
            self.game = None

    async def play(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                if self.needs_new_game():
                    await self.new_game()
                else:
                    await self.move()
                    await think(self.rng, self.think_time)
            except httpx.HTTPError as exc:
                self.recorder.failure("move/create", None, type(exc).__name__)
                self.game = None
                await asyncio.sleep(0.05)


def move_client(seed: int, think_time: float, idempotency_keys: bool = False) -> ClientLoop:
    """The loop of a player whose move choices follow ``seed`` and its own index."""

    async def loop(
        client: httpx.AsyncClient, recorder: Recorder, stop: asyncio.Event, index: int
    ) -> None:
        await Player(client, recorder, index, seed, think_time, idempotency_keys).play(stop)

    return loop


@dataclass(frozen=True)
class PhaseResult:
    kind: str
    clients: int
    seconds: float
    latencies: list[float]
    failures: Counter[str]
    resources: Resources

    @property
    def throughput(self) -> float:
        return len(self.latencies) / self.seconds

    def percentile_ms(self, q: float) -> float:
        """Nearest-rank percentile, in milliseconds (NaN without any sample)."""
        return percentile(self.latencies, q) * 1000


async def run_phase(
    kind: str,
    loop: ClientLoop,
    server: Server,
    tokens: list[str | None],
    config: Config,
    pg: psycopg.Connection[Any] | None,
) -> PhaseResult:
    """``len(tokens)`` clients run ``loop`` through a warm-up, then one measured window."""
    recorder, stop = Recorder(), asyncio.Event()
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    clients = [
        httpx.AsyncClient(
            base_url=server.base_url,
            headers={"Authorization": f"Token {token}"} if token else {},
            timeout=REQUEST_TIMEOUT_S,
            limits=limits,
            trust_env=False,  # no proxy: traffic goes to 127.0.0.1 only
        )
        for token in tokens
    ]
    try:
        tasks = [
            asyncio.create_task(loop(client, recorder, stop, index))
            for index, client in enumerate(clients)
        ]
        await asyncio.sleep(config.warmup)
        recorder.recording, start = True, Snapshot(pg_counters(pg))
        await asyncio.sleep(config.duration)
        recorder.recording, end = False, Snapshot(pg_counters(pg))
        stop.set()
        done, pending = await asyncio.wait(tasks, timeout=REQUEST_TIMEOUT_S + 5)
        for task in pending:
            task.cancel()
        for task in done:
            if task.exception() is not None:
                recorder.failure(kind, None, f"client crashed: {task.exception()!r}")
    finally:
        await asyncio.gather(*(client.aclose() for client in clients))
    return PhaseResult(
        kind=kind,
        clients=len(tokens),
        seconds=end.at - start.at,
        latencies=recorder.latencies,
        failures=recorder.failures,
        resources=resources_between(start, end, server.pgid),
    )


async def run_levels(server: Server, tokens: list[str], config: Config) -> list[PhaseResult]:
    """Both phases at each concurrency level, the trivial endpoint first."""
    results = []
    moves = move_client(config.seed, config.think, config.idempotency_keys)
    health_loop = health_client(config.think)
    pg = stats_connection()
    try:
        for n in config.levels:
            health = await run_phase("health", health_loop, server, [None] * n, config, pg)
            print(f"  {n:>3} clients  health {health.throughput:8.1f} req/s", flush=True)
            played = await run_phase("moves", moves, server, list(tokens[:n]), config, pg)
            print(f"  {n:>3} clients  moves  {played.throughput:8.1f} moves/s", flush=True)
            results += [health, played]
    finally:
        if pg is not None:
            pg.close()
    return results


# -- report ----------------------------------------------------------------------------------


def pairs(results: list[PhaseResult]) -> list[tuple[PhaseResult, PhaseResult]]:
    health = {r.clients: r for r in results if r.kind == "health"}
    moves = {r.clients: r for r in results if r.kind == "moves"}
    return [(health[n], moves[n]) for n in sorted(health) if n in moves]


def print_config(config: Config, env: dict[str, str], load: tuple[float, ...]) -> None:
    print("Server")
    print(f"  {launcher_description(config.workers, config.shared_socket)}, uvloop, httptools")
    print(f"  DEBUG=0, HTTPS=0, ALLOWED_HOSTS=127.0.0.1, settings: {env['DJANGO_SETTINGS_MODULE']}")
    print(f"  DB:    {DATABASE_URL}")
    redis = config.redis_url or "off (in-memory channel layer, local-memory cache)"
    print(f"  Redis: {redis}")
    shown = ", ".join(f"{v:.2f}" for v in load)
    print(f"  machine: {os.cpu_count()} cores, load average before the run {shown}")
    print(
        f"  windows: {config.warmup:g} s warm-up + {config.duration:g} s measured, per phase; "
        f"clients {', '.join(map(str, config.levels))}"
    )
    if config.think:
        print(f"  clients pause {config.think * 1000:g} ms (+/- 50%) between requests")
    if config.idempotency_keys:
        print("  every move carries a new Idempotency-Key (as the play page sends them)")


def print_table(results: list[PhaseResult]) -> None:
    header = (
        f"{'clients':>7} | {'health req/s':>12} {'p50 ms':>7} {'p99 ms':>7} | "
        f"{'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7} | {'moves/health':>12} | {'non-2xx':>7}"
    )
    print(header)
    print("-" * len(header))
    for health, moves in pairs(results):
        failures = sum(health.failures.values()) + sum(moves.failures.values())
        print(
            f"{health.clients:>7} | {health.throughput:>12.1f} {health.percentile_ms(50):>7.2f} "
            f"{health.percentile_ms(99):>7.2f} | {moves.throughput:>8.1f} "
            f"{moves.percentile_ms(50):>7.2f} {moves.percentile_ms(99):>7.2f} | "
            f"{ratio(health, moves):>12.1%} | {failures:>7}"
        )
    print(
        "  p50/p99: client-side latency of the requests answered in the window; non-2xx: "
        "both phases,\n  warm-ups and game creations included."
    )


def per_request(value: float | None, result: PhaseResult) -> str:
    requests = len(result.latencies)
    return "n/a" if value is None or not requests else f"{value / requests:.2f}"


def print_resources(results: list[PhaseResult]) -> None:
    header = (
        f"{'clients':>7} {'phase':>7} | {'server':>6} {'client':>6} {'machine':>7} | "
        f"{'CPU ms/req: server':>18} {'rest':>5} | {'PG sessions/req':>15} {'PG xacts/req':>12}"
    )
    print(header)
    print("-" * len(header))
    for result in results:
        use = result.resources
        server_ms = 1000 * use.server * result.seconds
        print(
            f"{result.clients:>7} {result.kind:>7} | {use.server:>6.2f} {use.client:>6.2f} "
            f"{use.machine:>7.2f} | {per_request(server_ms, result):>18} "
            f"{per_request(rest_ms(result), result):>5} | "
            f"{per_request(use.pg_sessions, result):>15} "
            f"{per_request(use.pg_transactions, result):>12}"
        )
    print(
        "  CPU: cores used on average in the window by the server's processes, this client, and"
        " the\n  whole machine (others' work included); per request, the server's and the rest"
        " of the\n  machine's (this client, PostgreSQL, Redis, the kernel). PG: new connections"
        " and transactions\n  of the bench database per successful request (approximate:"
        " PostgreSQL publishes them about\n  once a second)."
    )


def rest_ms(result: PhaseResult) -> float:
    """CPU milliseconds the machine spent outside the server over the window."""
    use = result.resources
    return 1000 * max(0.0, use.machine - use.server) * result.seconds


def least_mean_latency_ms(result: PhaseResult, *, with_client: bool = True) -> float | None:
    """The mean latency below which ``result.clients`` clients sending back to back cannot go
    on this machine, even if the server cost nothing (and, ``with_client`` false, this client
    too): each request still costs the rest of the machine its CPU, so at most
    ``cores / rest`` requests a second are answered, and by Little's law the mean latency is
    at least ``clients * rest / cores``."""
    if not result.latencies:
        return None
    rest = rest_ms(result)
    if not with_client:
        rest = max(0.0, rest - 1000 * result.resources.client * result.seconds)
    return result.clients * rest / len(result.latencies) / (os.cpu_count() or 1)


def ratio(health: PhaseResult, moves: PhaseResult) -> float:
    return moves.throughput / health.throughput if health.throughput else 0.0


def print_failures(results: list[PhaseResult], server: Server | None) -> None:
    failures: Counter[str] = Counter()
    for result in results:
        for what, count in result.failures.items():
            failures[f"{result.kind} x{result.clients}: {what}"] += count
    if not failures:
        print("Non-2xx answers and transport errors: none")
        return
    print("Non-2xx answers and transport errors (warm-ups included):")
    for what, count in failures.most_common():
        print(f"  {count:>7}  {what}")
    if server is not None and (log := tail(server.log)):
        print(f"Server log ({server.log}), last lines:\n{log}")
    print(
        "  (with DEBUG=0 Django logs no traceback to the console: for a 500, PostgreSQL's log"
        " may tell,\n  e.g. 'too many clients already')"
    )


def verdict(met: bool, think: float) -> str:
    if think:
        return "not judged (the targets are for clients without --think-ms)"
    return "MET" if met else "NOT MET"


def print_targets(results: list[PhaseResult], think: float) -> bool:
    """Print each target and whether it is met; True when all are."""
    levels = pairs(results)
    ratios = {health.clients: ratio(health, moves) for health, moves in levels}
    ratio_met = bool(ratios) and all(r >= TARGET_RATIO for r in ratios.values())
    at_target = [moves for _, moves in levels if moves.clients == TARGET_P99_CLIENTS]
    p99 = at_target[0].percentile_ms(99) if at_target else float("nan")
    p99_met = p99 < TARGET_P99_MS
    shown = ", ".join(f"{n} clients {r:.1%}" for n, r in ratios.items())
    print("Targets")
    print(
        f"  move submission >= {TARGET_RATIO:.0%} of the trivial endpoint's throughput "
        f"(every level): {verdict(ratio_met, think)} ({shown})"
    )
    shown_p99 = f"{p99:.1f} ms" if at_target else "not measured (run with 50 clients)"
    print(
        f"  move p99 < {TARGET_P99_MS:.0f} ms at {TARGET_P99_CLIENTS} clients: "
        f"{verdict(p99_met, think)} ({shown_p99})"
    )
    if at_target and not think and (floor := least_mean_latency_ms(at_target[0])) is not None:
        bare = least_mean_latency_ms(at_target[0], with_client=False)
        print(
            f"    {TARGET_P99_CLIENTS} clients' least mean latency on this machine"
            f" ({os.cpu_count()} cores), the rest of its work per move as measured:\n"
            f"    {floor:.0f} ms with a server that cost nothing, {bare:.0f} ms if this client"
            " cost nothing too"
        )
    return ratio_met and p99_met


def report(
    config: Config,
    env: dict[str, str],
    load: tuple[float, ...],
    results: list[PhaseResult],
    server: Server | None,
) -> bool:
    print()
    print_config(config, env, load)
    print()
    print_table(results)
    print()
    print_resources(results)
    print()
    print_failures(results, server)
    print()
    return print_targets(results, config.think)


# -- main ------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    config = parse_args(argv)
    load = os.getloadavg()
    # A SIGTERM to the benchmark still runs the finally blocks that stop the server.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    # Casual games only: the server's background solver would count as its CPU (harness).
    env = without_background_solver(server_env(config.redis_url))
    players = max(config.levels)
    print(f"Preparing {DB_NAME}: create if missing, migrate, flush, {players} players", flush=True)
    tokens = prepare_database(env, players)
    print(f"Starting the server with {config.workers} worker(s)", flush=True)
    with running_server(
        config.workers, env, log_prefix="api_bench_server_", shared_socket=config.shared_socket
    ) as server:
        results = asyncio.run(run_levels(server, tokens, config))
        report(config, env, load, results, server)
    with contextlib.suppress(OSError):
        server.log.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
