"""Races at a person's pace: how soon a player's progress reaches the others of its room, and
the server's CPU per race move beside a casual game's.

    .venv/bin/python -m bench.race_bench [--players 200] [--room 5] [--think 2.0]
                                         [--step-seconds 30] [--warmup 5] [--workers 2]
                                         [--database patience_race_bench]
                                         [--redis-url redis://127.0.0.1:6379/11]

Method
------
1. Database, players, server: as ``bench/players_bench.py`` (``bench/harness.py``): a database
   of its own (``--database``, created if missing, migrated and FLUSHED), one account and API
   token per player, ``python -m deploy.serve --workers 2`` (the production launcher) on a free
   port of 127.0.0.1, DEBUG=0, plain HTTP, PostgreSQL and Redis (``--redis-url``), the
   server's background solver off. Every player comes from 127.0.0.1, so the per-address caps
   are raised by env: ``WEBSOCKET_CONNECTIONS_PER_ADDRESS`` (4 x the players: a racer holds
   two websockets), ``GAMES_CREATED_PER_ADDRESS_PER_MINUTE`` off, and the race limits
   (``RACES_OPENED_*``, ``RACES_JOINED_*``, per player and per address) off.
2. Casual window: the players play casual games exactly as players_bench's do (its
   ``Player`` and ``Run``: one keep-alive HTTP connection and the game's websocket each, a
   random legal move every ``--think`` s on average, exponential pauses, over REST with an
   ``Idempotency-Key``, a new game when one ends), ``--warmup`` s, then ``--step-seconds``
   measured: the server's CPU per move (utime + stime of its process group from /proc over
   the window, over the window's moves). Then they stop and close their connections.
3. Races: the same accounts in rooms of ``--room``, a room's game the five in turn. Per room
   (a few rooms at a time): the first player opens a race (``POST /api/races/``, unlisted,
   ``time_limit_seconds`` 3600, beyond the run: no race ends by time), the others join
   (``POST /api/races/{code}/join/``), each opens the room's websocket (``/ws/races/{code}/``,
   ``Authorization: Token``, ``Origin`` set), the opener starts it
   (``POST /api/races/{code}/start/``); at the countdown's end the room's websocket tells each
   player its game (``you.game``), which it reads (``GET /api/games/{id}/``), opens its
   websocket and plays as the casual players do (the same ``Player.move``). A player whose
   game is over (won, at a dead end, no legal move left) stops moving and keeps watching its
   room; a room whose players are all done has ended (no rematch).
4. Over the race window (``--warmup`` s after the last room started, then ``--step-seconds``):
   moves answered, their latency, the server's CPU per move (as in 2: everything the server
   did, the room's messages included), and the **progress delay**: for each move answered in
   the window (its ``move_number`` N) and each OTHER player of the room, from the answer's
   arrival (parsed) to the first message on that player's room websocket whose ``players``
   show the mover at ``moves`` >= N (negative when it came before the answer). A progress not
   seen within 5 s is an error; errors count the whole race part, ramp included.
5. Targets (printed, never the exit status): progress p99 under 500 ms; the race's server CPU
   per move within 25 % of the casual window's.

Both windows run in one process, one after the other, on the same server, so they share the
machine's load of the moment: quote ``uptime`` before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import sys
import time
import uuid
from collections import defaultdict, deque
from dataclasses import dataclass

import websockets
from websockets.asyncio.client import ClientConnection, connect

from bench import profile_breakdown
from bench.harness import (
    HOST,
    Server,
    event_loop_factory,
    percentile,
    player_name,
    prepare_database,
    raise_open_files_limit,
    running_server,
    server_env,
    tail,
    without_background_solver,
)
from bench.players_bench import (
    REQUEST_TIMEOUT_S,
    UPDATE_TIMEOUT_S,
    VARIANT_SLUGS,
    Config,
    HttpError,
    Player,
    Run,
    Step,
    error_of,
    ms,
    print_profile,
)

DB_NAME = "patience_race_bench"
DEFAULT_REDIS_URL = f"redis://{HOST}:6379/11"
TIME_LIMIT_S = 3600  # the most a race may take (docs/api.md): beyond the run
ROOMS_AT_ONCE = 8
COUNTDOWN_WAIT_S = 15.0  # the countdown (3 s) and its settling, at most
TARGET_P99_S = 0.500
TARGET_CPU_GROWTH = 0.25
RACE_LIMITS = (
    "RACES_OPENED_PER_HOUR",
    "RACES_OPENED_PER_ADDRESS_PER_HOUR",
    "RACES_JOINED_PER_HOUR",
    "RACES_JOINED_PER_ADDRESS_PER_HOUR",
)


@dataclass(frozen=True)
class RaceConfig:
    players: int
    room: int
    run: Config  # players_bench's, for its Player and Run


def parse_args(argv: list[str] | None = None) -> RaceConfig:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--room", type=int, default=5, help="players per race (2-10)")
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds between moves")
    parser.add_argument("--step-seconds", type=float, default=30.0, help="measured per window")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before each window")
    parser.add_argument("--workers", type=int, default=2, help="server worker processes")
    parser.add_argument("--database", default=DB_NAME, help="created, migrated and FLUSHED")
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL)
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' choices")
    parser.add_argument(
        "--py-spy",
        metavar="PATH",
        help="py-spy samples the server over each window (bench/profile_breakdown.py)",
    )
    args = parser.parse_args(argv)
    if not 2 <= args.room <= 10 or args.players < args.room or args.players % args.room == 1:
        parser.error("--room is 2 to 10, and --players must fill rooms of at least two")
    if args.think <= 0 or args.step_seconds <= 0 or args.warmup < 0 or args.workers < 1:
        parser.error("--think, --step-seconds and --workers must be positive")
    if args.warmup + args.step_seconds > TIME_LIMIT_S / 2:
        parser.error(f"the race window must stay well within the race's {TIME_LIMIT_S} s")
    run = Config(
        steps=(args.players,),
        think=args.think,
        step_seconds=args.step_seconds,
        warmup=args.warmup,
        health_seconds=0,
        workers=args.workers,
        database=args.database,
        redis_url=args.redis_url,
        seed=args.seed,
        profile_with=profile_breakdown.find_py_spy(args.py_spy) if args.py_spy else None,
    )
    if args.py_spy and run.profile_with is None:
        parser.error(f"no py-spy at {args.py_spy}")
    return RaceConfig(players=args.players, room=args.room, run=run)


# -- a racer ---------------------------------------------------------------------------------


class Racer(Player):
    """players_bench's Player on its race's game, also watching its room's websocket: it notes
    when each other player's ``moves`` went up, to time their progress."""

    def __init__(self, run: RaceRun, index: int, token: str, room: Room) -> None:
        super().__init__(run, index, token)
        self.race_run = run
        self.room = room
        self.name = player_name(index)
        self.game_id: int | None = None
        self.told_game: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.done = False  # its game is over: it watches, no longer moves
        self.room_socket: ClientConnection | None = None
        self.room_listener: asyncio.Task[None] | None = None
        # Another player's name -> (moves, when first seen) on this player's room websocket;
        # and the moves of theirs answered but not seen yet: (move number, answered, recorded).
        self.seen: dict[str, deque[tuple[int, float]]] = defaultdict(lambda: deque(maxlen=32))
        self.awaiting: dict[str, deque[tuple[int, float, bool]]] = defaultdict(deque)

    async def request(self, what: str, method: str, path: str, body: object = None) -> dict | None:
        """A race write (with an Idempotency-Key, as the race page sends) or read; its JSON, or
        None (an error, counted under ``what``) unless 200/201."""
        headers = f"Idempotency-Key: {uuid.uuid4()}\r\n" if method == "POST" else ""
        try:
            status, answer = await self.http.request(method, path, body, headers)
        except HttpError as exc:
            self.error(f"{what}: {exc}")
            return None
        if status not in (200, 201):
            self.error(f"{what}: {error_of(status, answer)}")
            return None
        return json.loads(answer)

    async def open_room(self, code: str) -> bool:
        port = self.run.server.port
        try:
            self.room_socket = await connect(
                f"ws://{HOST}:{port}/ws/races/{code}/",
                origin=f"http://{HOST}:{port}",  # type: ignore[arg-type]
                additional_headers={"Authorization": f"Token {self.token}"},
                proxy=None,
                compression="deflate",
                ping_interval=None,
                open_timeout=REQUEST_TIMEOUT_S,
                close_timeout=2,
            )
        except (OSError, TimeoutError, websockets.WebSocketException) as exc:
            self.error(f"room websocket open: {type(exc).__name__}")
            return False
        self.room_listener = asyncio.create_task(self.listen_room(self.room_socket))
        return True

    async def listen_room(self, socket: ClientConnection) -> None:
        pings = asyncio.create_task(self.keep_alive(socket))
        try:
            async for raw in socket:
                at = time.monotonic()
                data = json.loads(raw)
                if data.get("type") == "race":
                    self.on_race(data["race"], at)
                elif data.get("type") == "race_progress":
                    mover = data["player"]
                    if mover["username"] != self.name:
                        self.saw(mover["username"], mover["moves"], at)
            if not self.run.stop.is_set():
                self.error(f"room websocket closed by the server: {socket.close_code}")
        except websockets.ConnectionClosed as exc:
            self.error(f"room websocket closed: {exc.rcvd.code if exc.rcvd else 'no close'}")
        except (OSError, ValueError, KeyError) as exc:
            self.error(f"room websocket: {type(exc).__name__}")
        finally:
            pings.cancel()

    def on_race(self, race: dict, at: float) -> None:
        game = (race.get("you") or {}).get("game")
        if game and not self.told_game.done():
            self.told_game.set_result(game)
        for entry in race["players"]:
            if entry["username"] != self.name:
                self.saw(entry["username"], entry["moves"], at)

    def saw(self, mover: str, moves: int, at: float) -> None:
        seen = self.seen[mover]
        if seen and seen[-1][0] >= moves:
            return
        seen.append((moves, at))
        waiting = self.awaiting[mover]
        while waiting and waiting[0][0] <= moves:
            _, answered, recorded = waiting.popleft()
            if recorded:
                self.race_run.progress.append(at - answered)

    def expect(self, mover: str, number: int, answered: float, recorded: bool) -> None:
        """Another player's move ``number`` was answered: seen already, or awaited."""
        first = next((at for moves, at in self.seen[mover] if moves >= number), None)
        if first is None:
            self.awaiting[mover].append((number, answered, recorded))
        elif recorded:
            self.race_run.progress.append(first - answered)

    def overdue(self, now: float) -> None:
        super().overdue(now)  # its own game's updates
        for waiting in self.awaiting.values():
            while waiting and now - waiting[0][1] > UPDATE_TIMEOUT_S:
                waiting.popleft()
                self.error(f"progress not seen within {UPDATE_TIMEOUT_S:g} s")

    async def new_game(self) -> bool:
        """Its race's game, read (again, as a page reload after a refused move or a lost
        socket), with its websocket; False once the game is over (it stops moving)."""
        if self.done or self.game_id is None:
            return False
        over = self.game is not None and (
            self.game["status"] != "playing" or not self.game["legal_moves"]
        )
        await self.close_socket()
        if not over:
            self.game = await self.request("read game", "GET", f"/api/games/{self.game_id}/")
            if self.game is None:
                return False
            over = self.game["status"] != "playing" or not self.game["legal_moves"]
        if over:
            self.done = True
            return False
        self.answered.clear()
        self.early.clear()
        return await self.open_socket()

    async def move(self) -> bool:
        step = self.run.step
        if not await super().move():
            return False
        answered = time.monotonic()
        recorded = step.recording and self.run.step is step
        assert self.game is not None
        for other in self.room.racers:
            if other is not self:
                other.expect(self.name, self.game["move_number"], answered, recorded)
        return True

    async def close_all(self) -> None:
        await self.close_socket()
        listener, socket = self.room_listener, self.room_socket
        self.room_listener = self.room_socket = None
        if listener is not None:
            listener.cancel()
            with contextlib.suppress(BaseException):
                await listener
        if socket is not None:
            with contextlib.suppress(Exception):
                await socket.close()
        self.http.close()

    async def play(self) -> None:
        try:
            await super().play()
        finally:
            await self.close_all()


class Room:
    """A race's players: the first opens it and starts it, the others join."""

    def __init__(self, run: RaceRun, number: int, indexes: range) -> None:
        self.variant = VARIANT_SLUGS[number % len(VARIANT_SLUGS)]
        self.racers = [Racer(run, i, run.tokens[i], self) for i in indexes]

    async def open(self) -> bool:
        """Open, join, watch, start, and each player's game read with its websocket."""
        opener, *others = self.racers
        body = {"variant": self.variant, "listed": False, "time_limit_seconds": TIME_LIMIT_S}
        race = await opener.request("open race", "POST", "/api/races/", body)
        if race is None:
            return False
        code = race["code"]
        for racer in others:
            if await racer.request("join race", "POST", f"/api/races/{code}/join/") is None:
                return False
        if not all(await asyncio.gather(*(r.open_room(code) for r in self.racers))):
            return False
        if await opener.request("start race", "POST", f"/api/races/{code}/start/") is None:
            return False
        try:
            async with asyncio.timeout(COUNTDOWN_WAIT_S):
                for racer in self.racers:
                    racer.game_id = await racer.told_game
        except TimeoutError:
            opener.error("race: no game told on the room's websocket")
            return False
        return all(await asyncio.gather(*(r.new_game() for r in self.racers)))


class RaceRun(Run):
    """players_bench's Run, its players in rooms; the progress delays of its window."""

    def __init__(self, config: RaceConfig, server: Server, tokens: list[str]) -> None:
        super().__init__(config.run, server, tokens)
        self.room_size = config.room
        self.rooms: list[Room] = []
        self.progress: list[float] = []
        self.racers_done = 0  # at the window's end

    async def add_players(self, count: int) -> int:
        starts = range(0, count, self.room_size)
        self.rooms = [
            Room(self, n, range(i, min(i + self.room_size, count))) for n, i in enumerate(starts)
        ]
        gate = asyncio.Semaphore(ROOMS_AT_ONCE)

        async def start(room: Room) -> None:
            async with gate:
                ok = await room.open()
            for racer in room.racers:
                if ok:
                    self.players.append(racer)
                    self.tasks.append(asyncio.create_task(racer.play()))
                else:
                    await racer.close_all()

        await asyncio.gather(*(start(room) for room in self.rooms))
        return len(self.players)

    async def sweep(self) -> None:
        """Progress awaited too long is an error (every second)."""
        while not self.stop.is_set():
            await asyncio.sleep(1.0)
            now = time.monotonic()
            for racer in self.players:
                assert isinstance(racer, Racer)
                racer.overdue(now)

    async def race_step(self, players: int) -> Step:
        sweeper = asyncio.create_task(self.sweep())
        try:
            step = await self.run_step(players)
        finally:
            self.racers_done = sum(isinstance(r, Racer) and r.done for r in self.players)
            await self.finish()
            sweeper.cancel()
        return step

    async def finish(self) -> None:
        self.stop.set()
        if self.tasks:
            await asyncio.wait(self.tasks, timeout=REQUEST_TIMEOUT_S + 5)


async def casual_then_races(config: RaceConfig, server: Server, tokens: list[str]) -> Results:
    casual = Run(config.run, server, tokens)
    print(f"Casual: {config.players} players", flush=True)
    try:
        casual_step = await casual.run_step(config.players)
    finally:
        casual.stop.set()
        if casual.tasks:
            await asyncio.wait(casual.tasks, timeout=REQUEST_TIMEOUT_S + 5)
    print_line("casual", casual_step, None)
    if casual_step.profile is not None:
        print_profile(casual_step)
    races = RaceRun(config, server, tokens)
    print(f"Races: {config.players} players in rooms of {config.room}", flush=True)
    race_step = await races.race_step(config.players)
    print_line("races", race_step, races.progress)
    if race_step.profile is not None:
        print_profile(race_step)
    return Results(casual_step, race_step, races.progress, races.racers_done, len(races.rooms))


# -- report ----------------------------------------------------------------------------------


@dataclass
class Results:
    casual: Step
    races: Step
    progress: list[float]
    racers_done: int
    rooms: int

    def cpu_growth(self) -> float:
        return self.races.server_ms_per_move() / self.casual.server_ms_per_move() - 1


def print_line(what: str, step: Step, progress: list[float] | None) -> None:
    seen = ""
    if progress is not None:
        seen = (
            f", progress p50 {ms(percentile(progress, 50))} ms,"
            f" p99 {ms(percentile(progress, 99))} ms"
        )
    print(
        f"  {what}: {step.started} players, {step.rate:.1f} moves/s, move p99"
        f" {ms(step.p(step.latencies, 99))} ms{seen}, errors {step.error_count}, server"
        f" {step.server_ms_per_move():.2f} ms CPU/move",
        flush=True,
    )


def report(config: RaceConfig, results: Results, load: tuple[float, ...], server: Server) -> None:
    run = config.run
    print()
    print("Config")
    print(f"  server: python -m deploy.serve --workers {run.workers}, DEBUG=0, HTTPS=0")
    print(f"  DB: {run.database}; Redis: {run.redis_url}")
    print(
        f"  {config.players} players, a move every {run.think:g} s on average; {run.warmup:g} s"
        f" warm-up + {run.step_seconds:g} s measured per window; races in"
        f" {results.rooms} rooms of {config.room}"
    )
    print(f"  load average before: {', '.join(f'{v:.2f}' for v in load)}")
    print(f"  load average after:  {', '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print()
    header = (
        f"{'window':>7} | {'moves/s':>7} {'offered':>7} | {'p50 ms':>6} {'p99 ms':>7} |"
        f" {'prog p50':>8} {'prog p99':>8} {'seen':>6} | {'errors':>6} | {'server':>6}"
        f" {'client':>6} | {'server CPU ms/move':>18}"
    )
    print(header)
    print("-" * len(header))
    for name, step, progress in (
        ("casual", results.casual, None),
        ("races", results.races, results.progress),
    ):
        use = step.resources
        assert use is not None
        p50 = ms(percentile(progress, 50)) if progress is not None else "-"
        p99 = ms(percentile(progress, 99)) if progress is not None else "-"
        seen = str(len(progress)) if progress is not None else "-"
        print(
            f"{name:>7} | {step.rate:>7.1f} {step.players / run.think:>7.1f} |"
            f" {ms(step.p(step.latencies, 50)):>6} {ms(step.p(step.latencies, 99)):>7} |"
            f" {p50:>8} {p99:>8} {seen:>6} | {step.error_count:>6} | {use.server:>6.2f}"
            f" {use.client:>6.2f} | {step.server_ms_per_move():>18.2f}"
        )
    print(
        "  p50/p99: a move's latency, send to whole answer. prog: from a move's answer to the"
        " mover's progress\n  on each other player's room websocket (seen: how many such"
        " deliveries). server, client: cores\n  used in the window. races: players whose game"
        f" was over by the window's end (no longer moving):\n  {results.racers_done} of"
        f" {results.races.started}."
    )
    print()
    errors = [("casual", results.casual), ("races", results.races)]
    if not any(step.errors for _, step in errors):
        print("Errors: none")
    for name, step in errors:
        for what, count in step.errors.most_common():
            print(f"  {name:>7} {count:>7}  {what}")
    if any(step.errors for _, step in errors) and (log := tail(server.log, 15)):
        print(f"Server log ({server.log}), last lines:\n{log}")
    print()
    p99 = percentile(results.progress, 99)
    growth = results.cpu_growth()

    def verdict(ok: bool) -> str:
        return "MET" if ok else "NOT MET"

    print("Targets")
    print(
        f"  progress p99 < {TARGET_P99_S * 1000:.0f} ms:"
        f" {verdict(p99 < TARGET_P99_S)} ({ms(p99)} ms)"
    )
    print(
        f"  race CPU per move within {TARGET_CPU_GROWTH:.0%} of casual:"
        f" {verdict(abs(growth) <= TARGET_CPU_GROWTH)} ({growth:+.0%})"
    )


# -- main ------------------------------------------------------------------------------------


def bench(config: RaceConfig) -> Results:
    load = os.getloadavg()
    limits = raise_open_files_limit()
    if limits[1] < 8 * config.players + 200:
        sys.exit(f"RLIMIT_NOFILE's hard limit {limits[1]} is too low for {config.players}")
    env = without_background_solver(server_env(config.run.redis_url, config.run.database))
    # Every player is 127.0.0.1: the per-address caps would refuse them (the per-game and
    # per-room ones still count).
    env.setdefault("WEBSOCKET_CONNECTIONS_PER_ADDRESS", str(4 * config.players))
    env.setdefault("GAMES_CREATED_PER_ADDRESS_PER_MINUTE", "0")
    for limit in RACE_LIMITS:
        env.setdefault(limit, "0")
    print(f"Preparing {config.run.database}: migrate, flush, {config.players} players", flush=True)
    tokens = prepare_database(env, config.players)
    print(f"Starting the server with {config.run.workers} worker(s)", flush=True)
    with running_server(config.run.workers, env, log_prefix="race_bench_server_") as server:
        with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
            results = runner.run(casual_then_races(config, server, tokens))
        report(config, results, load, server)
    if not (results.casual.errors or results.races.errors):
        with contextlib.suppress(OSError):
            server.log.unlink()
    return results


def main(argv: list[str] | None = None) -> int:
    config = parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    bench(config)
    return 0


if __name__ == "__main__":
    sys.exit(main())
