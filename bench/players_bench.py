"""Many players at a person's pace: how many the server holds, and its CPU per move.

    .venv/bin/python -m bench.players_bench [--players 10,100,200,300,400,500,600,800]
                                            [--think 2.0] [--step-seconds 30] [--warmup 5]
                                            [--health-seconds 10] [--workers 2]

Method
------
1. Database and players (``bench/harness.py``): a database of its own (``--database``,
   default ``patience_players_bench``) is created if missing, migrated and flushed, and one
   account and API token per player is written in bulk (``manage.py shell``; this process
   never imports Django).
2. Server: ``python -m deploy.serve --workers 2`` (the production launcher) on a free port of
   127.0.0.1, DEBUG=0, plain HTTP, a random SECRET_KEY, PostgreSQL and Redis
   (``--redis-url``, default database 10: a group is named by a game's id, and another run on
   database 0 numbers its games from 1 too). The server's background search for winnable
   deals is turned off (``WINNABLE_POOL_IN_SERVER=0``): a flushed database has empty pools,
   and their filling would run the solver on the server's cores for minutes, counted as the
   server's CPU; nobody here asks for a winnable deal. For the same reason the preparation of
   the daily challenges (``CLOSE_DAYS_IN_SERVER=0``, which also leaves past days' attempts
   unclosed) is off: the players play casual games. All players come from 127.0.0.1, so
   ``WEBSOCKET_CONNECTIONS_PER_ADDRESS`` is twice the largest step (the cap still counted)
   and ``GAMES_CREATED_PER_ADDRESS_PER_MINUTE`` is off (the per-player cap still counted).
3. Idle server: its CPU over 3 s with nobody connected. Trivial request: 10 clients send
   ``GET /api/health/`` back to back for ``--health-seconds`` (no database, no sign-in): the
   server's CPU per request.
4. Players, in steps (``--players``): each step adds players until there are N, waits
   ``--warmup`` seconds, then measures ``--step-seconds``. Players stay from one step to the
   next. Each player plays as the play page does: its own account and token, ONE keep-alive
   HTTP/1.1 connection (opened again, as a browser does, when the server has closed it after
   5 s idle: counted and printed, not an error), and the game's websocket
   (``/ws/games/<id>/?since=N``, signed in by ``Authorization: Token``, ``Origin`` set,
   permessage-deflate offered, a ``ping`` every 25 s) open while it plays that game; a move
   every ``--think`` seconds on average (over REST, or with ``--socket-moves`` on the game's
   websocket, answered there, as the play page sends them)
   (exponentially distributed pauses), a random one of the game's ``legal_moves``, sent with
   ``expected_move_number`` and a new ``Idempotency-Key``; a new game (``POST /api/games/``,
   the five in turn, its websocket replacing the last) when a game ends or has no move left.
   Players start 20 at a time (a handshake subscribes two groups in Redis). With
   ``--hints SHARE`` a player first asks for a hint (``POST .../hint/``, as the Hint button
   does) on that share of its turns: the hints' rate and latency are printed per step, with
   how many were looked ahead (``source: solver``; the others the rule-of-thumb hint), a 429
   (the hint's own per-player limits) counted apart; what the moves' latency and CPU per move
   then show is what hints cost the other players.
5. Per step, over the measured window: moves/s (201 answers received in it, against the
   N / think offered), move latency p50/p99 (send to whole answer), the delay from a move's
   answer to the update of that move on the player's own websocket (p50/p99; negative when
   the update came first), errors over the whole step, ramp and warm-up included (non-2xx by
   status and code, timeouts after 10 s, transport errors, websockets closed or refused,
   updates not seen within 5 s), the server's CPU per move (utime + stime of its process
   group from /proc over the window, divided by the window's moves: everything it did,
   game starts, handshakes and pings included), this client's CPU and the rest of the
   machine's (others' work included), in cores and per move.
6. A step is held when its move p99 is under 100 ms with no error. The run stops after a step
   that fails badly: p99 over 1 s, errors over 1 % of its moves, fewer than 80 % of the
   offered moves, or players that could not start.
7. Targets (printed, never the exit status): at least 600 players held; the server's CPU per
   move at 600 players within 25 % of its figure at 10; CPU per move at most 3x the trivial
   request's, at every step measured.

The client is one asyncio process (uvloop when installed): a hand-written HTTP/1.1 client on
asyncio streams (a request costs it a few tens of µs, where httpx costs ~1.8 ms) and the
``websockets`` package. Its CPU is printed with the rest, so a client-bound figure shows.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import sys
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets
from websockets.asyncio.client import ClientConnection, connect

from bench import profile_breakdown
from bench.harness import (
    CLK_TCK,
    HOST,
    Resources,
    Server,
    Snapshot,
    event_loop_factory,
    group_pids,
    in_group,
    launcher_description,
    percentile,
    prepare_database,
    raise_open_files_limit,
    resources_between,
    running_server,
    server_env,
    tail,
    without_background_solver,
)

DB_NAME = "patience_players_bench"
DEFAULT_REDIS_URL = f"redis://{HOST}:6379/10"
VARIANT_SLUGS = (
    "grounds-for-divorce",
    "gold-mine",
    "selective-castle",
    "grandfathers-clock",
    "blondes-and-brunettes",
)
STEPS = (10, 100, 200, 300, 400, 500, 600, 800)
HEALTH_CLIENTS = 10
IDLE_SECONDS = 3.0
REQUEST_TIMEOUT_S = 10.0
#: py-spy's samples per second per process (--profile).
PROFILE_RATE = 200
UPDATE_TIMEOUT_S = 5.0
STARTS_AT_ONCE = 20
PING_EVERY_S = 25.0
HELD_P99_S = 0.100
BAD_P99_S = 1.0
BAD_ERROR_SHARE = 0.01
BAD_RATE_SHARE = 0.8
TARGET_PLAYERS = 600
TARGET_BASE_PLAYERS = 10
TARGET_GROWTH = 0.25
TARGET_RATIO = 3.0
NAN = float("nan")


# -- configuration ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Config:
    steps: tuple[int, ...]
    think: float
    step_seconds: float
    warmup: float
    health_seconds: float
    workers: int
    database: str
    redis_url: str
    seed: int
    idempotency_keys: bool = True
    websockets: bool = True
    hint_share: float = 0.0
    socket_moves: bool = False
    #: py-spy's path: the last step's window profiled (bench/profile_breakdown.py).
    profile_with: str | None = None


def parse_args(argv: list[str] | None = None) -> Config:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--players",
        type=lambda text: tuple(int(n) for n in text.split(",")),
        default=STEPS,
        help="comma-separated steps of players (default 10,100,200,300,400,500,600,800)",
    )
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds between moves")
    parser.add_argument("--step-seconds", type=float, default=30.0, help="measured per step")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before each window")
    parser.add_argument(
        "--health-seconds", type=float, default=10.0, help="trivial requests' window"
    )
    parser.add_argument("--workers", type=int, default=2, help="server worker processes")
    parser.add_argument("--database", default=DB_NAME, help="created, migrated and FLUSHED")
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL)
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' choices")
    parser.add_argument(
        "--no-idempotency-keys",
        action="store_true",
        help="moves without the Idempotency-Key the play page sends",
    )
    parser.add_argument(
        "--no-websockets",
        action="store_true",
        help="players open no websocket (what the live updates' delivery costs, by difference)",
    )
    parser.add_argument(
        "--socket-moves",
        action="store_true",
        help="moves sent on the game's websocket, answered there (the play page's way)",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="py-spy samples the server's processes over the last step's window (py-spy needed)",
    )
    parser.add_argument("--py-spy", default=None, help="py-spy's path (default: on PATH)")
    parser.add_argument(
        "--hints",
        type=float,
        default=0.0,
        help="share of turns on which a player first asks for a hint (the Hint button), 0-1",
    )
    args = parser.parse_args(argv)
    steps = tuple(sorted(set(args.players)))
    if not steps or steps[0] < 1 or args.think <= 0 or args.step_seconds <= 0:
        parser.error("--players, --think and --step-seconds must be positive")
    if args.warmup < 0 or args.health_seconds < 0 or args.workers < 1:
        parser.error("--warmup and --health-seconds cannot be negative, --workers must be >= 1")
    if args.socket_moves and args.no_websockets:
        parser.error("--socket-moves needs the websockets")
    profile_with = profile_breakdown.find_py_spy(args.py_spy) if args.profile else None
    if args.profile and profile_with is None:
        parser.error("--profile needs py-spy: pip install py-spy anywhere, then --py-spy PATH")
    if not 0 <= args.hints <= 1:
        parser.error("--hints is a share of turns, from 0 to 1")
    return Config(
        steps=steps,
        think=args.think,
        step_seconds=args.step_seconds,
        warmup=args.warmup,
        health_seconds=args.health_seconds,
        workers=args.workers,
        database=args.database,
        redis_url=args.redis_url,
        seed=args.seed,
        idempotency_keys=not args.no_idempotency_keys,
        websockets=not args.no_websockets,
        hint_share=args.hints,
        socket_moves=args.socket_moves,
        profile_with=profile_with,
    )


# -- a lean HTTP/1.1 client ------------------------------------------------------------------


class HttpError(Exception):
    """A transport failure: the connection is dropped and opened again on the next request."""


class Http:
    """One keep-alive HTTP/1.1 connection to the server, one request at a time."""

    def __init__(self, port: int, token: str | None, counts: Counter[str] | None = None) -> None:
        self.port = port
        self.counts = counts if counts is not None else Counter()
        self.reused = False
        auth = f"Authorization: Token {token}\r\n" if token else ""
        self.head = f"Host: {HOST}:{port}\r\n{auth}Accept: application/json\r\n"
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, body: Any = None, headers: str = ""
    ) -> tuple[int, bytes]:
        """(status, body) of one request; HttpError on a transport failure or timeout.

        The server closes a keep-alive connection idle for 5 s (uvicorn's default), and a
        player's pause is sometimes longer: as a browser does, a connection found closed is
        opened again (``reconnects``), and a request that met the close on its way out (no
        byte of an answer) is sent again once on a new connection (``retries``)."""
        try:
            async with asyncio.timeout(REQUEST_TIMEOUT_S):
                try:
                    return await self._request(method, path, body, headers)
                except (asyncio.IncompleteReadError, ConnectionError) as exc:
                    if not self.reused or (
                        isinstance(exc, asyncio.IncompleteReadError) and exc.partial
                    ):
                        raise
                    self.close()
                    self.counts["retries"] += 1
                    return await self._request(method, path, body, headers)
        except TimeoutError:
            self.close()
            raise HttpError("timeout") from None
        except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
            self.close()
            raise HttpError(type(exc).__name__) from None

    async def _request(self, method: str, path: str, body: Any, headers: str) -> tuple[int, bytes]:
        if self.reader is not None and self.reader.at_eof():  # closed by the server
            self.close()
            self.counts["reconnects"] += 1
        self.reused = self.writer is not None
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        assert self.reader is not None and self.writer is not None
        if body is None:
            data = f"{method} {path} HTTP/1.1\r\n{self.head}{headers}\r\n".encode()
        else:
            payload = json.dumps(body).encode()
            data = (
                f"{method} {path} HTTP/1.1\r\n{self.head}{headers}"
                f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
            ).encode() + payload
        self.writer.write(data)
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        length, chunked, close = 0, False, False
        for line in lines[1:]:
            name, _, value = line.partition(":")
            name = name.lower()
            if name == "content-length":
                length = int(value)
            elif name == "transfer-encoding":
                chunked = "chunked" in value.lower()
            elif name == "connection":
                close = "close" in value.lower()
        if chunked:
            content = await self._chunks()
        else:
            content = await self.reader.readexactly(length) if length else b""
        if close:
            self.close()
        return status, content

    async def _chunks(self) -> bytes:
        assert self.reader is not None
        parts = []
        while True:
            size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
            parts.append(await self.reader.readexactly(size + 2))
            if size == 0:
                return b"".join(part[:-2] for part in parts)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def error_of(status: int, body: bytes) -> str:
    """A refusal's status and code, e.g. ``409 stale_move``."""
    try:
        return f"{status} {json.loads(body)['error']['code']}"
    except (ValueError, KeyError, TypeError):
        return f"{status} {body[:40]!r}"


# -- one step's figures ----------------------------------------------------------------------


@dataclass
class Step:
    players: int
    recording: bool = False
    latencies: list[float] = field(default_factory=list)
    delays: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    started: int = 0  # players running when the window began
    resources: Resources | None = None
    per_process: dict[int, float] = field(default_factory=dict)  # pid -> cores in the window
    reconnects: Counter[str] = field(default_factory=Counter)  # the players' HTTP connections
    hint_latencies: list[float] = field(default_factory=list)
    hints_declined: Counter[str] = field(default_factory=Counter)  # 429s: the hint's own limits
    # The answered hints' ``source``: ``solver`` (looked ahead) or ``heuristic`` (the rule of
    # thumb: no search, or none back in time, or the server's hint searches all busy).
    hint_sources: Counter[str] = field(default_factory=Counter)
    #: --profile, the last step: py-spy's samples per layer (bench/profile_breakdown.py).
    profile: Counter[str] | None = None

    @property
    def seconds(self) -> float:
        return self.resources.seconds if self.resources else NAN

    @property
    def moves(self) -> int:
        return len(self.latencies)

    @property
    def rate(self) -> float:
        return self.moves / self.seconds if self.resources else NAN

    def p(self, values: list[float], q: float) -> float:
        return percentile(values, q)

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())

    def server_ms_per_move(self) -> float:
        use = self.resources
        return 1000 * use.server * use.seconds / self.moves if use and self.moves else NAN

    def client_ms_per_move(self) -> float:
        use = self.resources
        return 1000 * use.client * use.seconds / self.moves if use and self.moves else NAN

    def rest_cores(self) -> float:
        use = self.resources
        return max(0.0, use.machine - use.server - use.client) if use else NAN

    def rest_ms_per_move(self) -> float:
        use = self.resources
        return 1000 * self.rest_cores() * use.seconds / self.moves if use and self.moves else NAN

    def held(self) -> bool:
        return (
            self.moves > 0
            and self.error_count == 0
            and self.started == self.players
            and self.p(self.latencies, 99) < HELD_P99_S
        )

    def failed_badly(self, offered: float) -> str | None:
        if self.started < self.players:
            return f"only {self.started} of {self.players} players started"
        if not self.moves:
            return "no move answered"
        if self.p(self.latencies, 99) > BAD_P99_S:
            return f"move p99 over {BAD_P99_S:g} s"
        if self.error_count > BAD_ERROR_SHARE * self.moves:
            return f"errors over {BAD_ERROR_SHARE:.0%} of the moves"
        if self.rate < BAD_RATE_SHARE * offered:
            return f"under {BAD_RATE_SHARE:.0%} of the offered moves/s"
        return None


# -- a player --------------------------------------------------------------------------------


class Player:
    """Plays as the play page does: one HTTP connection, the game's websocket, a move every
    ``think`` seconds on average."""

    def __init__(self, run: Run, index: int, token: str) -> None:
        self.run = run
        self.index = index
        self.token = token
        self.http = Http(run.server.port, token, run.connections)
        self.rng = random.Random(run.config.seed * 100_000 + index)
        self.games_started = 0
        self.game: dict[str, Any] | None = None
        self.socket: ClientConnection | None = None
        self.listener: asyncio.Task[None] | None = None
        # Per move number of the current game: when its answer came (and in which step, if
        # recorded), and when its update came when that was first.
        self.answered: dict[int, tuple[float, Step | None]] = {}
        self.early: dict[int, float] = {}
        # --socket-moves: the answers awaited on the socket, by request_id.
        self.awaited: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.requests = 0

    def error(self, what: str) -> None:
        self.run.step.errors[what] += 1

    async def start(self) -> bool:
        """The first game and its websocket; False when either failed."""
        return await self.new_game()

    async def new_game(self) -> bool:
        await self.close_socket()
        variant = VARIANT_SLUGS[(self.index + self.games_started) % len(VARIANT_SLUGS)]
        self.games_started += 1
        try:
            status, body = await self.http.request("POST", "/api/games/", {"variant": variant})
        except HttpError as exc:
            self.error(f"new game: {exc}")
            return False
        if status != 201:
            self.error(f"new game: {error_of(status, body)}")
            return False
        self.game = json.loads(body)
        self.answered.clear()
        self.early.clear()
        return await self.open_socket() if self.run.config.websockets else True

    async def open_socket(self) -> bool:
        assert self.game is not None
        server = self.run.server
        url = (
            f"ws://{HOST}:{server.port}/ws/games/{self.game['id']}/"
            f"?since={self.game['move_number']}"
        )
        try:
            self.socket = await connect(
                url,
                origin=f"http://{HOST}:{server.port}",  # type: ignore[arg-type]
                additional_headers={"Authorization": f"Token {self.token}"},
                proxy=None,
                compression="deflate",  # browsers offer it
                ping_interval=None,  # browsers send no pings; the server does
                open_timeout=REQUEST_TIMEOUT_S,
                close_timeout=2,
            )
            first = json.loads(await asyncio.wait_for(self.socket.recv(), REQUEST_TIMEOUT_S))
        except (OSError, TimeoutError, websockets.WebSocketException, ValueError) as exc:
            self.error(f"websocket open: {type(exc).__name__}")
            await self.close_socket()
            return False
        if first.get("type") not in ("sync", "catch_up"):
            self.error(f"websocket open: {first.get('type')} {first.get('code', '')}")
            await self.close_socket()
            return False
        self.listener = asyncio.create_task(self.listen(self.socket))
        return True

    async def listen(self, socket: ClientConnection) -> None:
        pings = asyncio.create_task(self.keep_alive(socket))
        try:
            async for raw in socket:
                at = time.monotonic()
                data = json.loads(raw)
                kind = data.get("type")
                if kind == "update":
                    self.updated(data["game"]["move_number"], at)
                elif kind == "answer":
                    awaited = self.awaited.pop(data.get("request_id"), None)
                    if awaited is not None and not awaited.done():
                        awaited.set_result(data)
            self.error(f"websocket closed by the server: {socket.close_code}")
        except websockets.ConnectionClosed as exc:
            self.error(f"websocket closed: {exc.rcvd.code if exc.rcvd else 'no close frame'}")
        except (OSError, ValueError, KeyError) as exc:
            self.error(f"websocket: {type(exc).__name__}")
        finally:
            pings.cancel()
            for awaited in self.awaited.values():
                if not awaited.done():
                    awaited.set_exception(ConnectionError("the websocket closed"))
            self.awaited.clear()

    @staticmethod
    async def keep_alive(socket: ClientConnection) -> None:
        """The play page's ping, every 25 s (its answer, a pong, is read and ignored)."""
        with contextlib.suppress(websockets.ConnectionClosed):
            while True:
                await asyncio.sleep(PING_EVERY_S)
                await socket.send('{"type": "ping"}')

    def updated(self, number: int, at: float) -> None:
        found = self.answered.pop(number, None)
        if found is None:
            self.early[number] = at
        elif found[1] is not None and found[1].recording:
            found[1].delays.append(at - found[0])

    async def close_socket(self) -> None:
        listener, socket = self.listener, self.socket
        self.listener = self.socket = None
        if listener is not None:
            listener.cancel()
            with contextlib.suppress(BaseException):
                await listener
        if socket is not None:
            with contextlib.suppress(Exception):
                await socket.close()

    def overdue(self, now: float) -> None:
        """Moves answered over UPDATE_TIMEOUT_S ago whose update never came."""
        for number, (at, _) in list(self.answered.items()):
            if now - at > UPDATE_TIMEOUT_S:
                del self.answered[number]
                self.error(f"update not seen within {UPDATE_TIMEOUT_S:g} s")

    async def move(self) -> bool:
        game = self.game
        assert game is not None
        payload = {
            "move": self.rng.choice(game["legal_moves"]),
            "expected_move_number": game["move_number"],
        }
        step = self.run.step
        sent = time.monotonic()
        if self.run.config.socket_moves:
            answer = await self.move_on_socket(payload)
            if answer is None:
                return False
            status, body = answer
        else:
            key = self.run.config.idempotency_keys
            headers = f"Idempotency-Key: {uuid.uuid4()}\r\n" if key else ""
            try:
                status, body = await self.http.request(
                    "POST", f"/api/games/{game['id']}/moves/", payload, headers
                )
            except HttpError as exc:
                self.error(f"move: {exc}")
                return False
        answered = time.monotonic()
        if status != 201:
            self.error(f"move: {error_of(status, body)}")
            return False
        self.game = game = json.loads(body)
        recorded = step.recording and self.run.step is step
        if recorded:
            step.latencies.append(answered - sent)
        number = game["move_number"]
        early = self.early.pop(number, None)
        if early is not None:
            if recorded:
                step.delays.append(early - answered)
        elif self.run.config.websockets and not self.run.config.socket_moves:
            # A move sent on the socket is answered there with its version, which is its
            # update on that socket: no update of it follows (games.consumers.GameConsumer).
            self.answered[number] = (answered, step if recorded else None)
            self.overdue(answered)
        return True

    async def move_on_socket(self, payload: dict[str, Any]) -> tuple[int, bytes] | None:
        """The move on the game's websocket, as the play page sends it (docs/api.md, "Moves on
        the game's websocket"): its answer's status and body, None when none came."""
        socket = self.socket
        if socket is None:
            self.error("move: no websocket")
            return None
        self.requests += 1
        request_id = self.requests
        awaited: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.awaited[request_id] = awaited
        message = {"type": "move", "request_id": request_id, **payload}
        if self.run.config.idempotency_keys:
            message["idempotency_key"] = str(uuid.uuid4())
        try:
            await socket.send(json.dumps(message))
            answer = await asyncio.wait_for(awaited, REQUEST_TIMEOUT_S)
        except (TimeoutError, ConnectionError, websockets.ConnectionClosed) as exc:
            self.awaited.pop(request_id, None)
            self.error(f"move on the websocket: {type(exc).__name__}")
            return None
        return answer["status"], json.dumps(answer["body"]).encode()

    async def hint(self) -> None:
        """Ask for a hint, as the Hint button does (the move that follows is still random). A
        429 is the hint's own limit (per player per minute, one search at a time): counted
        apart, not as an error."""
        game = self.game
        assert game is not None
        step = self.run.step
        sent = time.monotonic()
        try:
            status, body = await self.http.request(
                "POST",
                f"/api/games/{game['id']}/hint/",
                {"expected_move_number": game["move_number"]},
                f"Idempotency-Key: {uuid.uuid4()}\r\n",
            )
        except HttpError as exc:
            self.error(f"hint: {exc}")
            return
        if status == 429:
            step.hints_declined[error_of(status, body)] += 1
        elif status != 200:
            self.error(f"hint: {error_of(status, body)}")
        elif step.recording and self.run.step is step:
            step.hint_latencies.append(time.monotonic() - sent)
            step.hint_sources[json.loads(body)["source"]] += 1

    def needs_new_game(self) -> bool:
        game = self.game
        return (
            game is None
            or (self.socket is None and self.run.config.websockets)
            or game["status"] != "playing"
            or not game["legal_moves"]
        )

    async def play(self) -> None:
        stop = self.run.stop
        while not stop.is_set():
            pause = self.rng.expovariate(1 / self.run.config.think)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), pause)
            if stop.is_set():
                break
            if self.listener is not None and self.listener.done():
                await self.close_socket()  # lost: the page would reconnect
            if self.needs_new_game() and not await self.new_game():
                continue
            if self.run.config.hint_share and self.rng.random() < self.run.config.hint_share:
                await self.hint()
            if not await self.move():
                self.game = None  # a refused move: the page would reload the game
        await self.close_socket()
        self.http.close()


# -- the run ---------------------------------------------------------------------------------


class Run:
    def __init__(self, config: Config, server: Server, tokens: list[str]) -> None:
        self.config = config
        self.server = server
        self.tokens = tokens
        self.stop = asyncio.Event()
        self.step = Step(0)
        self.players: list[Player] = []
        self.tasks: list[asyncio.Task[None]] = []
        self.steps: list[Step] = []
        self.health: tuple[int, Resources] | None = None
        self.health_errors: Counter[str] = Counter()
        self.idle: Resources | None = None
        self.connections: Counter[str] = Counter()  # the players' HTTP reconnects and retries
        self.stopped_because: str | None = None

    async def measure_idle(self) -> None:
        """The server's CPU with nobody connected, over IDLE_SECONDS: its own timers."""
        start = Snapshot()
        await asyncio.sleep(IDLE_SECONDS)
        self.idle = resources_between(start, Snapshot(), self.server.pgid)

    async def measure_health(self) -> None:
        """HEALTH_CLIENTS clients, back to back: the server's CPU per trivial request."""
        if self.config.health_seconds <= 0:
            return
        done = asyncio.Event()
        counts = [0] * HEALTH_CLIENTS
        errors: Counter[str] = Counter()

        async def client(index: int, http: Http) -> None:
            while not done.is_set():
                try:
                    status, body = await http.request("GET", "/api/health/")
                except HttpError as exc:
                    errors[str(exc)] += 1
                    continue
                if status == 200:
                    counts[index] += 1
                else:
                    errors[error_of(status, body)] += 1
            http.close()

        https = [Http(self.server.port, None) for _ in range(HEALTH_CLIENTS)]
        tasks = [asyncio.create_task(client(i, http)) for i, http in enumerate(https)]
        await asyncio.sleep(1.0)  # warm-up
        start, before = Snapshot(), sum(counts)
        await asyncio.sleep(self.config.health_seconds)
        end, after = Snapshot(), sum(counts)
        done.set()
        await asyncio.gather(*tasks)
        self.health = (after - before, resources_between(start, end, self.server.pgid))
        self.health_errors = errors

    async def add_players(self, count: int) -> int:
        """Start players until ``count`` run (STARTS_AT_ONCE at a time); how many run."""
        gate = asyncio.Semaphore(STARTS_AT_ONCE)

        async def start(player: Player) -> None:
            async with gate:
                ok = await player.start()
            if ok:
                self.players.append(player)
                self.tasks.append(asyncio.create_task(player.play()))
            else:
                await player.close_socket()
                player.http.close()

        new = [Player(self, index, self.tokens[index]) for index in range(len(self.players), count)]
        await asyncio.gather(*(start(player) for player in new))
        return len(self.players)

    async def run_step(self, players: int) -> Step:
        step = self.step = Step(players)
        connections = Counter(self.connections)
        running = await self.add_players(players)
        await asyncio.sleep(self.config.warmup)
        step.started = running
        profiling = self.config.profile_with and players == self.config.steps[-1]
        step.recording, start = True, Snapshot()
        if profiling:
            step.profile = await self.profile(self.config.step_seconds)
        else:
            await asyncio.sleep(self.config.step_seconds)
        step.recording, end = False, Snapshot()
        step.resources = resources_between(start, end, self.server.pgid)
        step.per_process = per_process(start, end, self.server.pgid)
        step.reconnects = self.connections - connections
        return step

    async def profile(self, seconds: float) -> Counter[str]:
        """py-spy on every process of the server over ``seconds``: samples per layer."""
        assert self.config.profile_with is not None
        out = Path("artifacts") / "players-profile"
        for old in out.glob("*.folded"):
            old.unlink()
        pids = group_pids(self.server.pgid)
        files = await profile_breakdown.record(
            self.config.profile_with, pids, seconds, out, PROFILE_RATE
        )
        return profile_breakdown.read_folded(files)

    async def main(self) -> None:
        await self.measure_idle()
        print(f"Trivial requests: {HEALTH_CLIENTS} clients, GET /api/health/", flush=True)
        await self.measure_health()
        if self.health:
            print(f"  {health_ms(self.health):.3f} ms of server CPU per request", flush=True)
        try:
            for players in self.config.steps:
                step = await self.run_step(players)
                self.steps.append(step)
                print_step_line(step, self.config)
                if step.profile is not None:
                    print_profile(step)
                reason = step.failed_badly(players / self.config.think)
                if reason:
                    self.stopped_because = f"{players} players: {reason}"
                    break
        finally:
            self.stop.set()
            if self.tasks:
                await asyncio.wait(self.tasks, timeout=REQUEST_TIMEOUT_S + 5)


def per_process(start: Snapshot, end: Snapshot, pgid: int) -> dict[int, float]:
    """pid -> cores used over the window, for each process of the server's group and their
    descendants (the hint processes)."""
    wall = end.at - start.at
    return {
        pid: (end.processes[pid][1] - start.processes.get(pid, (0, 0, 0))[1]) / CLK_TCK / wall
        for pid in in_group(end.processes, pgid)
    }


# -- report ----------------------------------------------------------------------------------


def health_ms(health: tuple[int, Resources]) -> float:
    count, use = health
    return 1000 * use.server * use.seconds / count if count else NAN


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}" if seconds == seconds else "n/a"


def print_profile(step: Step) -> None:
    """The server's time by layer over the step's window (py-spy, the GIL's holder)."""
    assert step.profile is not None and step.resources is not None
    moves = len(step.latencies)
    cpu = step.resources.server * step.resources.seconds
    print(
        f"  where the server's time went, {step.players} players (py-spy {PROFILE_RATE}/s on"
        f" each process, the thread holding the GIL; {moves} moves; server CPU in the window"
        f" {cpu:.2f} s by /proc, {1000 * cpu / moves if moves else NAN:.2f} ms a move):",
        flush=True,
    )
    print(profile_breakdown.table(step.profile, PROFILE_RATE, moves or None), flush=True)


def print_step_line(step: Step, config: Config) -> None:
    hints = ""
    if config.hint_share:
        hints = (
            f"; {len(step.hint_latencies) / step.seconds:.1f} hints/s, p50"
            f" {ms(step.p(step.hint_latencies, 50))} ms, p99"
            f" {ms(step.p(step.hint_latencies, 99))} ms, declined"
            f" {sum(step.hints_declined.values())}, looked ahead"
            f" {step.hint_sources['solver']}/{len(step.hint_latencies)}"
        )
    print(
        f"  {step.players:>4} players: {step.rate:6.1f} moves/s (offered"
        f" {step.players / config.think:.1f}), p50 {ms(step.p(step.latencies, 50))} ms,"
        f" p99 {ms(step.p(step.latencies, 99))} ms, errors {step.error_count}, server"
        f" {step.server_ms_per_move():.2f} ms CPU/move{hints}",
        flush=True,
    )


def print_config(config: Config, env: dict[str, str], load: tuple[float, ...]) -> None:
    print("Config")
    print(f"  server: {launcher_description(config.workers, False)}, DEBUG=0, HTTPS=0")
    print(
        f"  settings: {env['DJANGO_SETTINGS_MODULE']}, WINNABLE_POOL_IN_SERVER=0,"
        " CLOSE_DAYS_IN_SERVER=0 (no solver in the background)"
    )
    print(f"  DB: postgres://postgres@{HOST}:5432/{config.database}; Redis: {config.redis_url}")
    print(
        f"  players: a move every {config.think:g} s on average (exponential), one HTTP"
        " connection"
        + (" and the game's websocket" if config.websockets else "")
        + " each"
        + (", Idempotency-Key on every move" if config.idempotency_keys else "")
        + ("" if config.websockets else "; NO websockets (--no-websockets)")
        + ("; moves on the websocket" if config.socket_moves else "; moves over REST")
        + (
            f"; a hint asked before {config.hint_share:.0%} of the moves (--hints)"
            if config.hint_share
            else ""
        )
    )
    print(
        f"  steps: {', '.join(map(str, config.steps))} players, {config.warmup:g} s warm-up +"
        f" {config.step_seconds:g} s measured each"
    )
    shown = ", ".join(f"{v:.2f}" for v in load)
    print(f"  machine: {os.cpu_count()} cores, load average before the run {shown}")


def print_table(run: Run) -> None:
    header = (
        f"{'players':>7} | {'moves/s':>7} {'offered':>7} | {'p50 ms':>6} {'p99 ms':>7} |"
        f" {'ws p50':>6} {'ws p99':>7} | {'errors':>6} | {'server':>6} {'client':>6}"
        f" {'rest':>5} | {'CPU ms/move: server':>19} {'client':>6} {'rest':>5} | {'x trivial':>9}"
    )
    print(header)
    print("-" * len(header))
    trivial = health_ms(run.health) if run.health else NAN
    for step in run.steps:
        use = step.resources
        assert use is not None
        print(
            f"{step.players:>7} | {step.rate:>7.1f} {step.players / run.config.think:>7.1f} |"
            f" {ms(step.p(step.latencies, 50)):>6} {ms(step.p(step.latencies, 99)):>7} |"
            f" {ms(step.p(step.delays, 50)):>6} {ms(step.p(step.delays, 99)):>7} |"
            f" {step.error_count:>6} | {use.server:>6.2f} {use.client:>6.2f}"
            f" {step.rest_cores():>5.2f} | {step.server_ms_per_move():>19.2f}"
            f" {step.client_ms_per_move():>6.2f} {step.rest_ms_per_move():>5.2f} |"
            f" {step.server_ms_per_move() / trivial:>9.2f}"
        )
    print(
        "  moves/s: answered in the window (offered: players / think). p50/p99: a move's"
        " latency, send to\n  whole answer. ws: from a move's answer to its update on the"
        " player's own websocket (negative:\n  the update came first). errors: the whole step"
        " (see below). server, client, rest: cores used in\n  the window by the server's"
        " processes, this client, and the rest of the machine (PostgreSQL,\n  Redis, the"
        " kernel, other work on the host); per move, their CPU over the window's moves."
        " x trivial:\n  the server's CPU per move over its CPU per trivial request."
    )
    print(
        "  players' HTTP connections found closed by the server (idle 5 s) and opened again;"
        " requests sent\n  again after meeting such a close (no answer byte), per step:"
        + "".join(
            f"\n  {step.players:>7} | {step.reconnects['reconnects']} reopened,"
            f" {step.reconnects['retries']} sent again"
            for step in run.steps
        )
    )
    print("  the server's processes (pid: cores in the window):")
    for step in run.steps:
        shown = ", ".join(f"{pid}: {cores:.2f}" for pid, cores in sorted(step.per_process.items()))
        print(f"  {step.players:>7} | {shown}")


def print_health(run: Run) -> None:
    if run.idle:
        print(
            f"Idle server (nobody connected, {run.idle.seconds:.0f} s): {run.idle.server:.3f}"
            f" cores (machine {run.idle.machine:.2f})"
        )
    if not run.health:
        print("Trivial request: not measured (--health-seconds 0)")
        return
    count, use = run.health
    print(
        f"Trivial request (GET /api/health/, {HEALTH_CLIENTS} clients back to back,"
        f" {use.seconds:.1f} s): {count / use.seconds:.0f} req/s, server"
        f" {health_ms(run.health):.3f} ms CPU per request (server {use.server:.2f},"
        f" client {use.client:.2f}, machine {use.machine:.2f} cores)"
        + (f"; errors {dict(run.health_errors)}" if run.health_errors else "")
    )


def print_errors(run: Run) -> None:
    errors = [(step.players, what, n) for step in run.steps for what, n in step.errors.items()]
    if not errors:
        print("Errors: none")
        return
    print("Errors (per step, its ramp and warm-up included)")
    for players, what, count in sorted(errors, key=lambda e: (e[0], -e[2])):
        print(f"  {players:>5} players {count:>7}  {what}")
    if log := tail(run.server.log, 15):
        print(f"Server log ({run.server.log}), last lines:\n{log}")


def held(run: Run) -> int:
    """The largest step held (p99 under 100 ms, no error), 0 if none."""
    return max((step.players for step in run.steps if step.held()), default=0)


def print_targets(run: Run) -> dict[str, bool]:
    steps = {step.players: step for step in run.steps}
    largest = held(run)
    trivial = health_ms(run.health) if run.health else NAN
    at_base, at_target = steps.get(TARGET_BASE_PLAYERS), steps.get(TARGET_PLAYERS)
    growth = NAN
    if at_base and at_target:
        growth = at_target.server_ms_per_move() / at_base.server_ms_per_move() - 1
    ratios = [step.server_ms_per_move() / trivial for step in run.steps]
    worst = max(ratios, default=NAN)
    met = {
        "players": largest >= TARGET_PLAYERS,
        "growth": abs(growth) <= TARGET_GROWTH,
        "ratio": bool(ratios) and worst <= TARGET_RATIO,
    }

    def verdict(ok: bool) -> str:
        return "MET" if ok else "NOT MET"

    print("Targets")
    print(
        f"  largest N held (move p99 < {HELD_P99_S * 1000:.0f} ms, no error): {largest}"
        f" players; at least {TARGET_PLAYERS}: {verdict(met['players'])}"
    )
    shown = f"{growth:+.0%}" if growth == growth else "not measured"
    print(
        f"  server CPU per move at {TARGET_PLAYERS} players within {TARGET_GROWTH:.0%} of"
        f" {TARGET_BASE_PLAYERS} players': {verdict(met['growth'])} ({shown})"
    )
    print(
        f"  server CPU per move <= {TARGET_RATIO:g}x the trivial request's, every step:"
        f" {verdict(met['ratio'])} (worst {worst:.2f}x)"
    )
    if run.stopped_because:
        print(f"  stopped after {run.stopped_because}")
    return met


def report(run: Run, env: dict[str, str], load: tuple[float, ...]) -> dict[str, bool]:
    print()
    print_config(run.config, env, load)
    print()
    print_health(run)
    print()
    print_table(run)
    print()
    print_errors(run)
    print()
    return print_targets(run)


# -- main ------------------------------------------------------------------------------------


def bench(config: Config) -> tuple[Run, dict[str, bool]]:
    """Prepare the database, start the server, play the steps, print the report; the run
    (its figures) and which targets were met."""
    load = os.getloadavg()
    limits = raise_open_files_limit()
    most = config.steps[-1]
    if limits[1] < 4 * most + 200:
        sys.exit(f"RLIMIT_NOFILE's hard limit {limits[1]} is too low for {most} players")
    # The players play casual random deals: no daily challenge, no winnable deal.
    env = without_background_solver(server_env(config.redis_url, config.database))
    env.setdefault("WEBSOCKET_CONNECTIONS_PER_ADDRESS", str(2 * most))
    # Every player comes from 127.0.0.1: the per-address cap on new games (120 a minute) would
    # refuse a step of a few hundred players finishing games; the per-player one still counts.
    env.setdefault("GAMES_CREATED_PER_ADDRESS_PER_MINUTE", "0")
    print(f"Preparing {config.database}: migrate, flush, {most} players", flush=True)
    tokens = prepare_database(env, most)
    print(f"Starting the server with {config.workers} worker(s)", flush=True)
    with running_server(config.workers, env, log_prefix="players_bench_server_") as server:
        run = Run(config, server, tokens)
        with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
            runner.run(run.main())
        met = report(run, env, load)
    if not any(step.errors for step in run.steps):
        with contextlib.suppress(OSError):
            server.log.unlink()
    return run, met


def main(argv: list[str] | None = None) -> int:
    config = parse_args(argv)
    # A SIGTERM to the benchmark still runs the finally blocks that stop the server.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    bench(config)
    return 0


if __name__ == "__main__":
    sys.exit(main())
