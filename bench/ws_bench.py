"""Live daily leaderboard: many websocket watchers, the delay of a finished attempt's update.

    .venv/bin/python -m bench.ws_bench [--quick] [--clients 1000] [--rounds 20] [--workers 2]
                                       [--gap S] [--board N] [--overlap] [--handshakes N]
                                       [--no-compression] [--no-trace] [--no-redis]
                                       [--shared-socket]

The figures of the issue: N websocket clients (default 1,000) watch one daily leaderboard;
how long from a finishing move's commit to the last client receiving the update (p50, p99),
and the server's memory per connection. Target: p99 under 1 s. ``--quick``: 200 clients,
5 rounds.

Method
------
1. Database and players (``bench/harness.py``). A dedicated PostgreSQL database,
   ``patience_ws_bench`` (not ``api_bench``'s, so the two can run side by side), is created if
   missing, migrated and flushed; one user and API token per player is made (``manage.py``
   in subprocesses: this process never imports Django). The board is therefore empty at start.
2. Server. ``python -m deploy.serve --workers N`` (default 2; ``--shared-socket``: ``uvicorn
   --workers N``, see ``bench/harness.py``) in its own process group
   on a free port of 127.0.0.1, DEBUG=0, a random SECRET_KEY, with ``REDIS_URL`` (the Channels
   layer between the workers, as in production) set to ``redis://127.0.0.1:6379/9``: a
   database of its own, since a group is named by the board's date and game and anything else
   publishing to today's board in database 0 (a test run) would reach these watchers.
   ``--no-redis``: the in-memory layer, one worker only. ``DJANGO_SETTINGS_MODULE``, when set,
   is passed on (a module that imports ``config.settings`` and changes something, to try a
   fix). The whole process group is stopped at the end, whatever happens.
   Unless ``--no-trace``, the server runs with a settings module written to a temporary
   directory that imports those settings unchanged and wraps Django's ``CursorWrapper.execute``
   to log a line per execution of the live board's ranking query (process, start and end on
   the machine's monotonic clock, which this process uses too): how many board reads an update
   cost, in which process, when. Its cost is a substring test per query.
3. Warm-up: one player starts and resigns a daily attempt at another game (first requests,
   pools) with nobody watching. ``--board N`` then adds N attempts to the watched board, each
   with one move made, so that they rank below the rounds' players, who resign with no move
   (ranking: won, cards home, fewer moves, less time, who got there first).
4. Connections. The soft RLIMIT_NOFILE is raised to the hard limit (the server, started
   afterwards, inherits it). N clients (``websockets``, asyncio, one process, uvloop when
   installed, no proxy; permessage-deflate offered as browsers do, ``--no-compression`` not)
   open ``ws://127.0.0.1:PORT/ws/leaderboards/daily/<today UTC>/gold-mine/`` with ``Origin:
   http://127.0.0.1:PORT`` (the origin validator wants it), anonymously (anyone may watch),
   ``--handshakes`` at a time (default 50: the server's Redis pool allows 100 connections per
   process, and each handshake needs one for ``group_add``), and each waits for its first
   ``{"type": "leaderboard"}``. They all come from one address, so the server runs with
   ``WEBSOCKET_CONNECTIONS_PER_ADDRESS`` at twice their number (unless the environment sets
   it): the cap is counted, as in production, and never reached. The server's memory is the
   sum of ``VmRSS`` over its process group (/proc/<pid>/status) before the first connection
   and once all have their first board:
   the difference over the connected clients is the memory per connection.
5. Rounds (default 20, at most 20). In each, a fresh player starts their ranked attempt
   (``POST /api/daily/<date>/gold-mine/attempt/``); once every client has seen them on the
   board (``--overlap``: at once, without waiting), and ``--gap`` seconds later (default 1 s,
   well above ``LEADERBOARD_PUSH_INTERVAL``, 0.25 s, so the server's throttle merges nothing),
   the player resigns (``POST /api/games/<id>/resign/``): a finishing action whose commit, and
   the update's publication, come before the HTTP response. Each client records when it first
   receives a board whose ``results`` show that player with status ``resigned``; one that has
   not within 10 s, or lost its connection, missed it. The next round starts ``--gap`` seconds
   after the last client saw it. Detection needs the player in ``results``, the board's top
   20: the board holds only this run's attempts and the rounds' players rank above the others,
   so with at most 20 rounds every round's player is in it.
   Latency of a client: that arrival minus t_commit, taken as the resign response's arrival
   (the issue's measure). The commit comes before the response, but the response may leave
   the server long after (it waits behind the fan-out on the same event loop), so two bounds
   are printed too: after the response or the first board read of the update (the trace),
   whichever came first (both follow the commit), and after sending the request (before it).
6. Report. Per round: the resign request's time, first/median/last client, missed clients,
   messages per client, board reads. Across rounds: p50, p99 and max of each client's latency
   (every client of every round) and of the last client's per round (the issue's figure);
   the start's update; where the time goes (trace: reads per update and process, the query,
   from the last read to the last client); CPU of the server (per update and watcher), this
   client and the machine; errors of the clients and the server's logged exceptions (while
   connecting, during the rounds, while closing); the verdict: p99 of the last client's
   latency < 1 s and no update missed, for each of the three measures. Percentiles are
   nearest-rank (with 20 rounds, p99 is the max).

The clients share the machine with the server, PostgreSQL and Redis: one Python process reads
every client's messages, so a late "last client" may be the client's own queue; its CPU use is
printed. The exit status is 0 whether or not the target is met (1 only if the benchmark fails).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import itertools
import json
import os
import re
import signal
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection, connect

from bench.harness import (
    HOST,
    Resources,
    Server,
    Snapshot,
    event_loop_factory,
    group_pids,
    group_rss,
    launcher_description,
    open_sockets,
    percentile,
    player_name,
    prepare_database,
    raise_open_files_limit,
    resources_between,
    running_server,
    server_env,
)

DB_NAME = "patience_ws_bench"
# A Redis database of its own: a group is named by the board's date and game, so anything else
# publishing to today's board in Redis database 0 (a test run, another benchmark) would reach
# these watchers, and this run's updates would reach theirs.
DEFAULT_REDIS_URL = f"redis://{HOST}:6379/9"
VARIANT = "gold-mine"
WARMUP_VARIANT = "grounds-for-divorce"
TOP = 20  # LeaderboardConsumer.TOP: the entries a live board's message carries
TARGET_P99_S = 1.0
UPDATE_TIMEOUT_S = 10.0
CONNECT_TIMEOUT_S = 300.0
CLOSE_TIMEOUT_S = 30.0
# Handshakes (and closes) in flight at once: each reads the board and subscribes its channel in
# Redis; the server takes them all, this keeps the client's own queue of handshakes short.
HANDSHAKES_AT_ONCE = 50
REQUEST_TIMEOUT_S = 30.0
FILLERS_AT_ONCE = 8
TRACE_MARK = "WS_BENCH_READ"
NAN = float("nan")


# -- configuration ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Config:
    clients: int
    rounds: int
    workers: int
    redis_url: str | None
    gap: float
    board: int
    overlap: bool
    compression: bool
    trace: bool
    handshakes: int
    shared_socket: bool = False


def parse_args(argv: list[str] | None = None) -> Config:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="200 clients, 5 rounds")
    parser.add_argument("--clients", type=int, help="websocket clients (default 1000)")
    parser.add_argument("--rounds", type=int, help=f"finished attempts (default 20, at most {TOP})")
    parser.add_argument("--workers", type=int, default=2, help="server worker processes")
    parser.add_argument(
        "--shared-socket",
        action="store_true",
        help="uvicorn --workers N (one listening socket) instead of deploy.serve",
    )
    parser.add_argument(
        "--gap", type=float, default=1.0, help="seconds between updates (default 1)"
    )
    parser.add_argument(
        "--board", type=int, default=0, help="other attempts on the board, ranked below (0)"
    )
    parser.add_argument(
        "--overlap",
        action="store_true",
        help="resign right after the start's response, without waiting for its update",
    )
    parser.add_argument("--no-compression", action="store_true", help="no permessage-deflate")
    parser.add_argument(
        "--handshakes",
        type=int,
        default=HANDSHAKES_AT_ONCE,
        help=f"websocket handshakes (and closes) in flight at once (default {HANDSHAKES_AT_ONCE})",
    )
    parser.add_argument("--no-trace", action="store_true", help="no board-read log line")
    parser.add_argument("--no-redis", action="store_true", help="in-memory channel layer")
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL)
    args = parser.parse_args(argv)
    clients = args.clients if args.clients is not None else (200 if args.quick else 1000)
    rounds = args.rounds if args.rounds is not None else (5 if args.quick else 20)
    if clients < 1 or args.workers < 1 or args.handshakes < 1 or args.board < 0 or args.gap < 0:
        parser.error("--clients and --workers must be positive, --board and --gap not negative")
    if not 1 <= rounds <= TOP:
        parser.error(f"--rounds must be 1 to {TOP}: every round's player must be in the top {TOP}")
    if args.no_redis and args.workers > 1:
        parser.error("--no-redis needs --workers 1 (the in-memory layer is one process's)")
    return Config(
        clients=clients,
        rounds=rounds,
        workers=args.workers,
        redis_url=None if args.no_redis else args.redis_url,
        gap=args.gap,
        board=args.board,
        overlap=args.overlap,
        compression=not args.no_compression,
        trace=not args.no_trace,
        handshakes=args.handshakes,
        shared_socket=args.shared_socket,
    )


# The trace: a settings module that changes nothing but logs each ranking read.
TRACE_SETTINGS = '''"""ws_bench's trace: BASE unchanged, each ranking read logged to stderr."""
import os as _os
import sys as _sys
import time as _time

from django.db.backends import utils as _utils

from BASE import *  # noqa: F403

_execute = _utils.CursorWrapper.execute


def _traced_execute(self, sql, params=None):
    # games.core.ranking.ranked_attempts(...).values(*LEADERBOARD_FIELDS): the live board's read.
    if not isinstance(sql, str) or 'AS "owner__username"' not in sql or "CASE WHEN" not in sql:
        return _execute(self, sql, params)
    start = _time.monotonic()
    try:
        return _execute(self, sql, params)
    finally:
        _sys.stderr.write(f"MARK {_os.getpid()} {start:.6f} {_time.monotonic():.6f}\\n")


_utils.CursorWrapper.execute = _traced_execute
'''


def traced_env(env: dict[str, str], directory: Path) -> dict[str, str]:
    """``env`` with the trace settings module (in ``directory``) as DJANGO_SETTINGS_MODULE."""
    module = "ws_bench_trace_settings"
    text = TRACE_SETTINGS.replace("BASE", env["DJANGO_SETTINGS_MODULE"]).replace("MARK", TRACE_MARK)
    (directory / f"{module}.py").write_text(text)
    path = [str(directory), env.get("PYTHONPATH", "")]
    return dict(
        env, DJANGO_SETTINGS_MODULE=module, PYTHONPATH=os.pathsep.join(p for p in path if p)
    )


@dataclass(frozen=True)
class Read:
    pid: int
    start: float
    end: float


def trace_reads(log: Path) -> list[Read]:
    reads = []
    with contextlib.suppress(OSError), log.open(errors="replace") as lines:
        for line in lines:
            if line.startswith(TRACE_MARK + " "):
                with contextlib.suppress(ValueError):
                    _, pid, start, end = line.split()
                    reads.append(Read(int(pid), float(start), float(end)))
    return reads


def log_size(log: Path) -> int:
    try:
        return log.stat().st_size
    except OSError:
        return 0


EXCEPTION_LINE = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception))(?::|$)")


def server_errors(log: Path, marks: dict[str, int]) -> dict[str, Counter[str]]:
    """The exceptions the server logged (a traceback's last line), by phase: ``marks`` maps a
    phase to the log's size at its end; what follows the last is "while closing or stopping"."""
    try:
        data = log.read_bytes()
    except OSError:
        return {}
    ends = [*marks.items(), ("while closing or stopping", len(data))]
    phases = {}
    for (_, start), (phase, end) in itertools.pairwise([("", 0), *ends]):
        found: Counter[str] = Counter()
        for line in data[start:end].decode(errors="replace").splitlines():
            if EXCEPTION_LINE.match(line):
                found[line[:100]] += 1
        phases[phase] = found
    return phases


# -- the watchers ----------------------------------------------------------------------------


class Watch:
    """One update awaited by every connected client: ``user`` on the board (with ``status``,
    or any status when None)."""

    def __init__(self, user: str, status: str | None, clients: list[int]) -> None:
        self.user, self.status = user, status
        self.needle = f'"{user}"'
        self.times: dict[int, float | None] = dict.fromkeys(clients)
        self.messages: Counter[int] = Counter()
        self.dropped: set[int] = set()  # lost their connection before seeing it
        self.remaining = len(clients)
        self.done = asyncio.Event()
        if not clients:
            self.done.set()

    def see(self, client: int, at: float, raw: str) -> None:
        self.messages[client] += 1
        if client not in self.times or self.times[client] is not None or self.needle not in raw:
            return
        board = json.loads(raw)
        for entry in board.get("results") or ():
            if entry.get("user") == self.user and self.status in (None, entry.get("status")):
                self.times[client] = at
                self.remaining -= 1
                if self.remaining == 0:
                    self.done.set()
                return

    def drop(self, client: int) -> None:
        """The client's connection is gone: it will not see the update (a miss), and is not
        waited for."""
        if self.times.get(client, 0.0) is None and client not in self.dropped:
            self.dropped.add(client)
            self.remaining -= 1
            if self.remaining == 0:
                self.done.set()

    async def wait(self, timeout: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.done.wait(), timeout)

    @property
    def seen(self) -> list[float]:
        return [t for t in self.times.values() if t is not None]

    @property
    def missed(self) -> int:
        return sum(t is None for t in self.times.values())


class Watchers:
    """N websocket clients of one board, each recording when it saw what ``watch`` awaits."""

    def __init__(self, url: str, origin: str, count: int, compression: bool, at_once: int) -> None:
        self.url, self.origin, self.count, self.at_once = url, origin, count, at_once
        self.compression = "deflate" if compression else None
        self.first_board: dict[int, float] = {}
        self.sockets: dict[int, ClientConnection] = {}
        self.connected: set[int] = set()
        self.errors: Counter[str] = Counter()
        self.stray_messages = 0  # messages while no update was awaited
        self.watches: list[Watch] = []
        self.stopping = False
        self.handshakes = asyncio.Semaphore(at_once)
        self.all_settled = asyncio.Event()
        self.settled = 0
        self.tasks: list[asyncio.Task[None]] = []

    def open_watch(self, user: str, status: str | None) -> Watch:
        """Await an update; every message goes to every open watch until ``close_watches``."""
        watch = Watch(user, status, sorted(self.connected))
        self.watches.append(watch)
        return watch

    def close_watches(self) -> None:
        self.watches = []

    def _settle(self) -> None:
        self.settled += 1
        if self.settled == self.count:
            self.all_settled.set()

    async def client(self, index: int) -> None:
        settled = False
        try:
            async with self.handshakes:
                conn = await connect(
                    self.url,
                    origin=self.origin,  # type: ignore[arg-type]
                    proxy=None,  # 127.0.0.1 only, whatever the environment says
                    compression=self.compression,
                    ping_interval=None,  # browsers send no pings; the server pings
                    open_timeout=60,
                    close_timeout=10,
                )
                self.sockets[index] = conn
                raw = await asyncio.wait_for(conn.recv(), 60)
            if json.loads(raw).get("type") != "leaderboard":
                raise RuntimeError(f"first message is not a board: {str(raw)[:80]}")
            self.first_board[index] = time.monotonic()
            self.connected.add(index)
            settled = True
            self._settle()
            async for raw in conn:
                at = time.monotonic()
                if not self.watches:
                    self.stray_messages += 1
                for watch in self.watches:
                    watch.see(index, at, str(raw))
            if not self.stopping:
                self.errors["closed by the server"] += 1
        except (OSError, TimeoutError, websockets.WebSocketException, RuntimeError) as exc:
            if not self.stopping:
                self.errors[f"{type(exc).__name__}: {str(exc)[:80]}"] += 1
        finally:
            self.connected.discard(index)
            for watch in self.watches:
                watch.drop(index)
            if not settled:
                self._settle()

    async def open_all(self) -> float:
        """Start every client; wait until each has its first board (or failed). Seconds taken."""
        start = time.monotonic()
        self.tasks = [asyncio.create_task(self.client(i)) for i in range(self.count)]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.all_settled.wait(), CONNECT_TIMEOUT_S)
        return time.monotonic() - start

    async def close_all(self) -> None:
        self.stopping = True
        closing = asyncio.Semaphore(self.at_once)

        async def close(conn: ClientConnection) -> None:
            async with closing:
                await conn.close()

        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(
                asyncio.gather(*(close(s) for s in self.sockets.values()), return_exceptions=True),
                CLOSE_TIMEOUT_S,
            )
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


# -- the rounds ------------------------------------------------------------------------------


@dataclass
class Update:
    """One awaited update: when its request was sent and answered, who saw it when."""

    sent: float
    answered: float
    watch: Watch
    ended: float = 0.0
    reads: list[Read] = field(default_factory=list)  # the board reads it caused (trace)

    @property
    def request(self) -> float:
        return self.answered - self.sent

    @property
    def committed_by(self) -> float:
        """A time the commit preceded: the response, or the first board read it caused
        (commit, then publication, delivery, read) when that came first."""
        return min([self.answered, *(r.start for r in self.reads)])

    def from_answer(self) -> list[float]:
        return [t - self.answered for t in self.watch.seen]

    def from_send(self) -> list[float]:
        return [t - self.sent for t in self.watch.seen]

    def from_commit_bound(self) -> list[float]:
        return [t - self.committed_by for t in self.watch.seen]

    def take_reads(self, trace: list[Read]) -> None:
        self.reads = [r for r in trace if self.sent <= r.start <= self.ended]


@dataclass
class Round:
    user: str
    start: Update
    finish: Update


class ApiError(RuntimeError):
    pass


def checked(response: httpx.Response, expected: int, what: str) -> dict[str, Any]:
    if response.status_code != expected:
        raise ApiError(f"{what}: {response.status_code} {response.text[:200]}")
    return response.json()


async def timed_post(
    http: httpx.AsyncClient, url: str, token: str, expected: int, what: str
) -> tuple[dict[str, Any], float, float]:
    sent = time.monotonic()
    response = await http.post(url, json={}, headers={"Authorization": f"Token {token}"})
    answered = time.monotonic()
    return checked(response, expected, what), sent, answered


def attempt_url(date: dt.date, variant: str) -> str:
    return f"/api/daily/{date.isoformat()}/{variant}/attempt/"


async def play_round(
    http: httpx.AsyncClient, watchers: Watchers, date: dt.date, token: str, user: str, c: Config
) -> Round:
    watch = watchers.open_watch(user, None)
    game, sent, answered = await timed_post(http, attempt_url(date, VARIANT), token, 201, "start")
    start = Update(sent, answered, watch)
    if not c.overlap:
        await watch.wait(UPDATE_TIMEOUT_S)
        start.ended = time.monotonic()
        watchers.close_watches()
        await asyncio.sleep(c.gap)
    watch = watchers.open_watch(user, "resigned")
    _, sent, answered = await timed_post(
        http, f"/api/games/{game['id']}/resign/", token, 200, "resign"
    )
    finish = Update(sent, answered, watch)
    await watch.wait(UPDATE_TIMEOUT_S)
    finish.ended = time.monotonic()
    if c.overlap:
        start.ended = finish.ended
    watchers.close_watches()
    return Round(user, start, finish)


async def warm_up(http: httpx.AsyncClient, date: dt.date, token: str) -> None:
    """An attempt at another game, started and resigned with nobody watching."""
    game, _, _ = await timed_post(http, attempt_url(date, WARMUP_VARIANT), token, 201, "warm-up")
    await timed_post(http, f"/api/games/{game['id']}/resign/", token, 200, "warm-up resign")


async def fill_board(http: httpx.AsyncClient, date: dt.date, tokens: list[str]) -> None:
    """Attempts that rank below the rounds' players: each makes one move (the rounds' players
    make none), chosen not to send a card home (cards home rank first)."""
    queue = list(tokens)

    async def worker() -> None:
        while queue:
            token = queue.pop()
            game, _, _ = await timed_post(http, attempt_url(date, VARIANT), token, 201, "filler")
            moves = game["legal_moves"]
            move = next((m for m in moves if "foundation" not in str(m.get("to"))), moves[0])
            response = await http.post(
                f"/api/games/{game['id']}/moves/",
                json={"move": move, "expected_move_number": game["move_number"]},
                headers={"Authorization": f"Token {token}"},
            )
            checked(response, 201, "filler move")

    await asyncio.gather(*(worker() for _ in range(FILLERS_AT_ONCE)))


async def ranked_above_round_players(http: httpx.AsyncClient, date: dt.date) -> int:
    """Attempts on the board that a resigned attempt with no move and no card home might not
    outrank (some card home, or no move): those would take top-20 places from the rounds."""
    url = f"/api/leaderboards/daily/{date.isoformat()}/{VARIANT}/"
    board = checked(await http.get(url), 200, "leaderboard")
    return sum(e["cards_home"] > 0 or e["moves"] == 0 for e in board["results"][:TOP])


@dataclass
class Memory:
    rss: dict[int, int]
    sockets: dict[int, int]

    @classmethod
    def of(cls, pgid: int) -> Memory:
        rss = group_rss(pgid)
        return cls(rss, {pid: open_sockets(pid) for pid in rss})

    @property
    def total(self) -> int:
        return sum(self.rss.values())


@dataclass
class Results:
    config: Config
    date: dt.date
    limits: tuple[int, int]
    connect_seconds: float = 0.0
    connected: int = 0
    memory_before: Memory | None = None
    memory_connected: Memory | None = None
    memory_after: Memory | None = None
    connect_window: tuple[float, float] = (0.0, 0.0)
    rounds: list[Round] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    stray_messages: int = 0
    resources: Resources | None = None
    connect_resources: Resources | None = None
    trace: list[Read] = field(default_factory=list)
    failure: str | None = None
    pids: list[int] = field(default_factory=list)
    # The server log's size at the end of each phase (connecting, the rounds).
    log_marks: dict[str, int] = field(default_factory=dict)
    server_errors: dict[str, Counter[str]] = field(default_factory=dict)  # per phase


async def run(server: Server, tokens: list[str], c: Config, results: Results) -> None:
    date = results.date
    results.pids = group_pids(server.pgid)
    async with httpx.AsyncClient(
        base_url=server.base_url, timeout=REQUEST_TIMEOUT_S, trust_env=False
    ) as http:
        await warm_up(http, date, tokens[0])
        if c.board:
            print(f"Adding {c.board} attempts to the board", flush=True)
            await fill_board(http, date, tokens[1 + c.rounds :])
        above = await ranked_above_round_players(http, date)
        if above + c.rounds > TOP:
            raise ApiError(f"{above} attempts rank above the rounds' players: lower --rounds")
        url = f"ws://{HOST}:{server.port}/ws/leaderboards/daily/{date.isoformat()}/{VARIANT}/"
        origin = f"http://{HOST}:{server.port}"
        watchers = Watchers(url, origin, c.clients, c.compression, c.handshakes)
        try:
            await watch_rounds(server, http, watchers, tokens, c, results)
        finally:
            results.stray_messages = watchers.stray_messages
            results.log_marks["during the rounds"] = log_size(server.log)
            await watchers.close_all()
            results.errors = watchers.errors
            await asyncio.sleep(1.0)  # the server's disconnects


async def watch_rounds(
    server: Server,
    http: httpx.AsyncClient,
    watchers: Watchers,
    tokens: list[str],
    c: Config,
    results: Results,
) -> None:
    """Connect every watcher (memory before and after), then play the rounds."""
    await asyncio.sleep(1.0)
    results.memory_before = Memory.of(server.pgid)
    print(f"Connecting {c.clients} websocket clients", flush=True)
    before, opened = Snapshot(), time.monotonic()
    results.connect_seconds = await watchers.open_all()
    results.connect_resources = resources_between(before, Snapshot(), server.pgid)
    results.connect_window = (opened, time.monotonic())
    results.connected = len(watchers.connected)
    await asyncio.sleep(1.0)
    results.memory_connected = Memory.of(server.pgid)
    results.log_marks["while connecting"] = log_size(server.log)
    print(
        f"  {results.connected}/{c.clients} connected in {results.connect_seconds:.1f} s",
        flush=True,
    )
    if results.connected == 0:
        raise ApiError(f"no client connected: {dict(watchers.errors)}")
    await asyncio.sleep(c.gap)
    start = Snapshot()
    for number in range(1, c.rounds + 1):
        played = await play_round(
            http, watchers, results.date, tokens[number], player_name(number), c
        )
        results.rounds.append(played)
        finish = played.finish
        print(
            f"  round {number:>2}: last client {ms(max(finish.from_answer(), default=0))}"
            f" ms after the response, missed {finish.watch.missed}",
            flush=True,
        )
        await asyncio.sleep(c.gap)
    results.resources = resources_between(start, Snapshot(), server.pgid)
    results.memory_after = Memory.of(server.pgid)


# -- report ----------------------------------------------------------------------------------


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f}" if seconds == seconds else "n/a"


def mib(size: float) -> str:
    return f"{size / 2**20:.1f} MiB"


def print_config(c: Config, env: dict[str, str], server: Server, results: Results) -> None:
    settings = env["DJANGO_SETTINGS_MODULE"]
    print("Config")
    print(
        f"  server: {launcher_description(c.workers, c.shared_socket)}"
        f" (processes {', '.join(map(str, results.pids))}), DEBUG=0"
    )
    print(f"  settings: {settings}" + (" (+ trace of the board reads)" if c.trace else ""))
    print(f"  DB:    postgres://postgres@{HOST}:5432/{DB_NAME}")
    print(f"  Redis: {c.redis_url or 'off (in-memory channel layer)'}")
    loop = "uvloop" if event_loop_factory() else "asyncio"
    print(
        f"  clients: {c.clients} websocket clients in one process ({loop} loop, websockets "
        f"{websockets.__version__}, permessage-deflate {'offered' if c.compression else 'off'})"
    )
    print(
        f"  board: {VARIANT} of {results.date} (UTC), {c.board} other attempts;"
        f" {c.rounds} rounds, {c.gap:g} s apart"
        + ("; resign right after the start (--overlap)" if c.overlap else "")
    )
    soft, hard = results.limits
    print(f"  RLIMIT_NOFILE: soft {soft} -> {hard}; machine: {os.cpu_count()} cores")


def print_memory(results: Results) -> None:
    before, after = results.memory_before, results.memory_connected
    if before is None or after is None:
        return
    n = results.connected
    grown = after.total - before.total
    per = f"{grown / n / 1024:.1f} KiB per connection" if n else "n/a"
    print(f"Connections: {n}/{results.config.clients} in {results.connect_seconds:.1f} s")
    print(
        f"  server RSS (sum over {len(after.rss)} processes): {mib(before.total)} before, "
        f"{mib(after.total)} with {n} connections: +{mib(grown)}, {per}"
    )
    for pid in after.rss:
        sockets = after.sockets.get(pid, 0) - before.sockets.get(pid, 0)
        grown_here = after.rss[pid] - before.rss.get(pid, 0)
        print(f"    pid {pid}: {mib(after.rss[pid])} (+{mib(grown_here)}), +{sockets} sockets")
    if results.memory_after:
        print(f"  after the rounds: {mib(results.memory_after.total)}")
    if results.connect_resources:
        use = results.connect_resources
        print(
            f"  CPU while connecting (cores): server {use.server:.2f}, client {use.client:.2f},"
            f" machine {use.machine:.2f}"
        )
    reads = [r for r in results.trace if results.connect_window[0] <= r.start]
    reads = [r for r in reads if r.start <= results.connect_window[1]]
    if results.config.trace:
        print(f"  board reads while connecting: {len(reads)} for {n} connections")


def print_rounds(results: Results) -> None:
    header = (
        f"{'round':>5} {'player':>9} | {'resign':>6} | {'first':>6} {'median':>6} {'last':>6}"
        f" {'last^':>6} {'last*':>6} | {'missed':>6} {'msgs':>5} | {'reads':>5} {'query':>5}"
        f" | {'start':>6}"
    )
    print(header)
    print("-" * len(header))
    for number, played in enumerate(results.rounds, start=1):
        finish = played.finish
        after = finish.from_answer()
        reads = finish.reads
        msgs = sum(finish.watch.messages.values()) / max(1, len(finish.watch.times))
        query = max((r.end - r.start for r in reads), default=NAN)
        print(
            f"{number:>5} {played.user:>9} | {ms(finish.request):>6} | "
            f"{ms(min(after, default=NAN)):>6} {ms(percentile(after, 50)):>6} "
            f"{ms(max(after, default=NAN)):>6} "
            f"{ms(max(finish.from_commit_bound(), default=NAN)):>6} "
            f"{ms(max(finish.from_send(), default=NAN)):>6} | "
            f"{finish.watch.missed:>6} {msgs:>5.2f} | "
            f"{len(reads) if results.config.trace else 'n/a':>5} {ms(query):>5} | "
            f"{ms(max(played.start.from_answer(), default=NAN)):>6}"
        )
    print(
        "  ms. resign: the request, send to response. first/median/last: clients' arrival of"
        " the board\n  showing the player resigned, after the response (t_commit). last^: the"
        " last, after the\n  response or the first board read it caused, whichever came first"
        " (both follow the commit);\n  last*: after sending the request (the commit came later)."
        " missed: clients without it\n  within"
        f" {UPDATE_TIMEOUT_S:.0f} s. msgs: messages per client while awaited. reads: ranking"
        " queries the server\n  ran for it (trace), query: the longest. start: last client to"
        " see the attempt start, after\n  that response."
    )


def summary_row(name: str, values: list[float]) -> str:
    return (
        f"  {name:<44} {ms(percentile(values, 50)):>6} {ms(percentile(values, 99)):>6} "
        f"{ms(max(values, default=NAN)):>6} {len(values):>7}"
    )


def print_summary(results: Results) -> tuple[float, int]:
    rounds = results.rounds
    finishes = [r.finish for r in rounds]
    per_client = [x for f in finishes for x in f.from_answer()]
    per_client_send = [x for f in finishes for x in f.from_send()]
    last = [max(f.from_answer()) for f in finishes if f.watch.seen]
    last_send = [max(f.from_send()) for f in finishes if f.watch.seen]
    last_bound = [max(f.from_commit_bound()) for f in finishes if f.watch.seen]
    start_last = [max(r.start.from_answer()) for r in rounds if r.start.watch.seen]
    missed = sum(f.watch.missed for f in finishes)
    dropped = sum(len(f.watch.dropped) for f in finishes)
    print(f"  {'(ms)':<44} {'p50':>6} {'p99':>6} {'max':>6} {'samples':>7}")
    print(summary_row("per client, after the resign response", per_client))
    print(summary_row("per client, after sending the resign", per_client_send))
    print(summary_row("last client of a round, after the response", last))
    if results.config.trace:
        print(summary_row("  after the response or first read (last^)", last_bound))
    print(summary_row("  after sending (last*)", last_send))
    print(summary_row("resign request (send to response)", [f.request for f in finishes]))
    print(summary_row("start: last client, after its response", start_last))
    print(
        f"  missed updates: {missed} (resign; {dropped} by clients whose connection was lost),"
        f" {sum(r.start.watch.missed for r in rounds)} (start);\n  messages outside a round:"
        f" {results.stray_messages}"
    )
    if results.config.trace and finishes:
        print_trace(results, finishes)
    if results.resources is not None:
        use = results.resources
        print(
            f"  CPU during the rounds (cores): server {use.server:.2f}, client {use.client:.2f},"
            f" machine {use.machine:.2f} (others' work included)"
        )
        updates = 2 * len(rounds)  # each round: the start's update and the resign's
        per_update = use.server * use.seconds / updates if updates else NAN
        watchers = max(1, results.connected)
        print(
            f"  server CPU per update (start or resign, requests included): {ms(per_update)} ms,"
            f" {per_update / watchers * 1e6:.0f} us per watcher"
        )
    return percentile(last, 99), missed


def print_errors(results: Results) -> None:
    """Clients' failures (refused handshakes, closed connections) and the server's logged
    exceptions, by phase: connecting, the rounds, closing."""
    if not results.errors and not any(results.server_errors.values()):
        print("Errors: none (clients, server log)")
        return
    print("Errors")
    for what, count in results.errors.most_common():
        print(f"  {count:>6}  client: {what}")
    for phase, found in results.server_errors.items():
        for what, count in found.most_common():
            print(f"  {count:>6}  server, {phase}: {what}")


def print_trace(results: Results, finishes: list[Update]) -> None:
    """Where the time goes, from the server's ranking reads."""
    per_push: list[int] = []
    per_process: list[int] = []
    to_first_read, query, after_last_read = [], [], []
    for finish in finishes:
        reads = finish.reads
        per_push.append(len(reads))
        by_pid: dict[int, list[Read]] = defaultdict(list)
        for read in reads:
            by_pid[read.pid].append(read)
        per_process += [len(v) for v in by_pid.values()]
        if reads and finish.watch.seen:
            to_first_read.append(min(r.start for r in reads) - finish.answered)
            query += [r.end - r.start for r in reads]
            after_last_read.append(max(finish.watch.seen) - max(r.end for r in reads))
    print(
        f"  board reads per resign: {percentile(per_push, 50):g} (p50), {max(per_push)} (max);"
        f" per process that read: {percentile(per_process, 50):g} (p50),"
        f" {max(per_process, default=0)} (max)"
    )
    print(summary_row("first read's start, after the response", to_first_read))
    print(summary_row("ranking query (each read)", query))
    print(summary_row("last client, after the last read's end", after_last_read))


def print_target(p99: float, missed: int, results: Results) -> None:
    """The issue's measure (after the response), and the bound counted from the send."""
    rounds = [r.finish for r in results.rounds if r.finish.watch.seen]
    p99_bound = percentile([max(f.from_commit_bound()) for f in rounds], 99)
    p99_send = percentile([max(f.from_send()) for f in rounds], 99)

    def verdict(value: float) -> str:
        met = value < TARGET_P99_S and missed == 0 and bool(results.rounds)
        return "MET" if met else "NOT MET"

    print("Target")
    print(
        f"  p99 of the last client's latency < {TARGET_P99_S:g} s, no update missed"
        f" ({results.connected} clients, {results.config.workers} worker(s), {missed} missed):"
    )
    print(f"    after the response (t_commit = response):   {verdict(p99)} ({ms(p99)} ms)")
    if results.config.trace:
        print(
            f"    after the response or first read (last^):   {verdict(p99_bound)}"
            f" ({ms(p99_bound)} ms)"
        )
    print(
        f"    after sending (upper bound, last*):         {verdict(p99_send)} ({ms(p99_send)} ms)"
    )


def report(c: Config, env: dict[str, str], server: Server, results: Results) -> None:
    print()
    print_config(c, env, server, results)
    print()
    print_memory(results)
    print()
    if results.rounds:
        print_rounds(results)
        print()
        p99, missed = print_summary(results)
        print()
        print_target(p99, missed, results)
    print()
    print_errors(results)
    if results.failure:
        print(f"Failed: {results.failure}")
    if results.failure and (log := server_messages(server.log)):
        print(f"Server log ({server.log}), last lines (trace left out):\n{log}")


def server_messages(log: Path, lines: int = 40) -> str:
    try:
        text = log.read_text(errors="replace")
    except OSError:
        return ""
    kept = [line for line in text.splitlines() if not line.startswith(TRACE_MARK + " ")]
    return "\n".join(kept[-lines:])


# -- main ------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    c = parse_args(argv)
    limits = raise_open_files_limit()
    if limits[1] < c.clients + 200:
        sys.exit(f"RLIMIT_NOFILE's hard limit {limits[1]} is too low for {c.clients} clients")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    env = server_env(c.redis_url, DB_NAME)
    # Every watcher comes from 127.0.0.1: the per-address cap stays on (its counting is part of
    # what a connection costs) with room for them all, and for the slots of an earlier run's
    # server that was killed until they expire. Set in the environment, that value wins.
    env.setdefault("WEBSOCKET_CONNECTIONS_PER_ADDRESS", str(2 * c.clients))
    players = 1 + c.rounds + c.board
    print(f"Preparing {DB_NAME}: create if missing, migrate, flush, {players} players", flush=True)
    tokens = prepare_database(env, players)
    date = dt.datetime.now(dt.UTC).date()
    results = Results(c, date, limits)
    with tempfile.TemporaryDirectory(prefix="ws_bench_") as directory:
        run_env = traced_env(env, Path(directory)) if c.trace else env
        print(f"Starting the server with {c.workers} worker(s)", flush=True)
        with running_server(
            c.workers, run_env, log_prefix="ws_bench_server_", shared_socket=c.shared_socket
        ) as server:
            try:
                with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
                    runner.run(run(server, tokens, c, results))
            except (ApiError, httpx.HTTPError) as exc:
                results.failure = f"{type(exc).__name__}: {exc}"
        # After the server stopped: its log is complete.
        results.trace = trace_reads(server.log)
        results.server_errors = server_errors(server.log, results.log_marks)
        for played in results.rounds:
            played.start.take_reads(results.trace)
            played.finish.take_reads(results.trace)
        report(c, run_env, server, results)
    if results.failure or results.errors or any(results.server_errors.values()):
        print(f"Server log kept: {server.log}")
    else:
        with contextlib.suppress(OSError):
            server.log.unlink()
    return 1 if results.failure else 0


if __name__ == "__main__":
    sys.exit(main())
