"""Players that play through the balancer as the play page does, and count what a fault does.

Each player has its own account and API token, one keep-alive HTTP connection and its game's
websocket (``/ws/games/<id>/?since=N``), and makes a move every ``think`` seconds on average
(exponential pauses), a random legal one, sent with ``expected_move_number`` and an
``Idempotency-Key``. As the page does, a move that got no answer (transport error, 502/504
from the balancer) or a 503 is sent again with the same key and body (after ``Retry-After``
for a 503) until it is answered; a websocket that closes is opened again with ``?since=`` the
newest version seen, and its catch-up counts as seen.

Per phase (``Load.phase``) the players count: answers by status (and code), moves
acknowledged, 503s without ``Retry-After``, websocket reconnects, and when each answer came,
so the seconds until moves succeed again can be read off. ``Load.verify`` then reads every
game touched from the service's history: an acknowledged move missing (or a different one at
its number) is lost; a history entry the player never had acknowledged is a move applied
twice (a player sends each move until acknowledged, once logically: anything more is a
duplicate). Moves whose updates never reached the player's websocket (nor its catch-up)
within ``UPDATE_GRACE_S`` are counted too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import connect

VARIANTS = (
    "grounds-for-divorce",
    "gold-mine",
    "selective-castle",
    "grandfathers-clock",
    "blondes-and-brunettes",
)
REQUEST_TIMEOUT_S = 15.0
#: A move not acknowledged after this long is given up (counted: ``abandoned``).
GIVE_UP_S = 90.0
UPDATE_GRACE_S = 10.0
RECONNECT_PAUSE_S = 0.5
#: A move answered later than this counts as not yet recovered.
SLOW_S = 1.0
PING_EVERY_S = 25.0


@dataclass
class Phase:
    name: str
    started: float = field(default_factory=time.monotonic)
    answers: Counter[str] = field(default_factory=Counter)
    #: Every answer to a move: (sent, answered, 201 or not).
    events: list[tuple[float, float, bool]] = field(default_factory=list)
    acknowledged: int = 0
    resent: int = 0
    abandoned: int = 0
    no_retry_after: int = 0
    reconnects: int = 0
    catch_ups: int = 0
    games: set[int] = field(default_factory=set)
    # Filled by Load.verify:
    lost: int = 0
    twice: int = 0
    updates_missing: int = 0
    notes: list[str] = field(default_factory=list)

    def server_errors(self) -> dict[str, int]:
        """5xx answers other than 503 with Retry-After (the balancer's 502/504 included)."""
        return {
            status: n
            for status, n in self.answers.items()
            if status.startswith("5") and not status.startswith("503")
        }

    def http_500s(self) -> int:
        return sum(n for status, n in self.answers.items() if status.startswith("500"))

    def recovery_after(self, reference: float) -> float:
        """Seconds from ``reference`` until the last move answer that failed or came after
        more than ``SLOW_S`` (0 if none after it): from then on moves succeed promptly."""
        bad = [
            answered
            for sent, answered, ok in self.events
            if answered >= reference and (not ok or answered - sent > SLOW_S)
        ]
        return max(bad) - reference if bad else 0.0

    def resumed_after(self, reference: float) -> float:
        """Seconds from ``reference`` to the sending of the last move that then failed or came
        after more than ``SLOW_S`` (0 if none): every move sent later succeeded promptly. A
        fault's own victims (moves in flight when it struck) count in ``recovery_after``, not
        here."""
        bad = [
            sent
            for sent, answered, ok in self.events
            if sent >= reference and (not ok or answered - sent > SLOW_S)
        ]
        return max(bad) - reference if bad else 0.0

    def longest_wait(self) -> float:
        """The longest a move waited for an answer, failed or not."""
        return max((answered - sent for sent, answered, _ in self.events), default=0.0)

    def line(self, reference: float | None = None, label: str = "") -> str:
        answers = ", ".join(f"{status}: {n}" for status, n in sorted(self.answers.items()))
        recovery = ""
        if reference is not None:
            recovery = f"; moves succeed again {self.recovery_after(reference):.1f} s {label}"
        return (
            f"{self.name}: {self.acknowledged} moves acknowledged, {self.lost} lost,"
            f" {self.twice} applied twice, {self.abandoned} given up, {self.resent} resent;"
            f" answers {{{answers}}}; 503 without Retry-After {self.no_retry_after};"
            f" websocket reconnects {self.reconnects} (catch-ups {self.catch_ups}),"
            f" updates missing {self.updates_missing}; longest wait for an answer"
            f" {self.longest_wait():.1f} s{recovery}"
        )


class Player:
    def __init__(self, load: Load, index: int, token: str) -> None:
        self.load = load
        self.index = index
        self.token = token
        self.rng = random.Random(1000 + index)
        self.http = httpx.AsyncClient(
            base_url=load.base_url,
            headers={"Authorization": f"Token {token}", "Accept": "application/json"},
            timeout=REQUEST_TIMEOUT_S,
            trust_env=False,
            limits=httpx.Limits(max_connections=1, max_keepalive_connections=1),
        )
        self.game: dict[str, Any] | None = None
        self.games_started = 0
        #: game id -> {move number: move} acknowledged by the service.
        self.acked: dict[int, dict[int, Any]] = {}
        #: game id -> newest version seen on its websocket (update, sync or catch-up).
        self.seen: dict[int, int] = {}
        #: (game id, number) -> when acknowledged, until seen on the websocket.
        self.pending: dict[tuple[int, int], float] = {}
        self.socket_task: asyncio.Task[None] | None = None

    # -- HTTP ------------------------------------------------------------------------------

    async def send(
        self, method: str, path: str, body: Any = None, key: str | None = None
    ) -> tuple[int, dict[str, Any] | None, str]:
        """One request until it is answered other than by an outage; (status, body, code).
        The answers it got are in ``self.answers``."""
        phase = self.load.current
        self.answers: list[str] = []
        headers = {"Idempotency-Key": key} if key else {}
        deadline = time.monotonic() + GIVE_UP_S
        first = True
        while True:
            if not first:
                phase.resent += 1
            first = False
            phase = self.load.current
            sent = time.monotonic()
            try:
                response = await self.http.request(method, path, json=body, headers=headers)
            except httpx.HTTPError as error:
                status, data, code, wait = 0, None, type(error).__name__, 0.3
            else:
                status = response.status_code
                try:
                    data = response.json()
                except ValueError:
                    data = None
                code = ""
                if isinstance(data, dict) and isinstance(data.get("error"), dict):
                    code = data["error"].get("code", "")
                wait = 0.3
                if status == 503:
                    retry_after = response.headers.get("Retry-After")
                    if retry_after is None:
                        phase.no_retry_after += 1
                    else:
                        wait = min(float(retry_after), 2.0)
            label = f"{status} {code}".strip() if status else f"no answer ({code})"
            phase.answers[label] += 1
            self.answers.append(label)
            retry = status == 0 or status in (502, 503, 504)
            if method == "POST" and path.endswith("/moves/"):
                phase.events.append((sent, time.monotonic(), status == 201))
            if not retry:
                return status, data, code
            if time.monotonic() > deadline or self.load.stopping.is_set():
                return status, data, code
            await asyncio.sleep(wait)

    async def new_game(self) -> bool:
        variant = VARIANTS[(self.index + self.games_started) % len(VARIANTS)]
        self.games_started += 1
        status, data, _ = await self.send(
            "POST", "/api/games/", {"variant": variant}, key=str(uuid.uuid4())
        )
        if status != 201 or data is None:
            return False
        await self.watch(data)
        return True

    async def watch(self, game: dict[str, Any]) -> None:
        await self.close_socket()
        # The page leaves the last game's updates behind with it.
        self.pending = {key: at for key, at in self.pending.items() if key[0] == game["id"]}
        self.game = game
        self.acked.setdefault(game["id"], {})
        self.seen.setdefault(game["id"], game["move_number"])
        if self.load.websockets:
            self.socket_task = asyncio.create_task(self.follow(game["id"]))

    async def move(self) -> None:
        game = self.game
        assert game is not None
        phase = self.load.current
        phase.games.add(game["id"])
        payload = {
            "move": self.rng.choice(game["legal_moves"]),
            "expected_move_number": game["move_number"],
        }
        status, data, _ = await self.send(
            "POST", f"/api/games/{game['id']}/moves/", payload, key=str(uuid.uuid4())
        )
        phase = self.load.current
        if status == 201 and data is not None:
            phase.acknowledged += 1
            number = data["move_number"]
            self.acked[game["id"]][number] = payload["move"]
            if self.seen.get(game["id"], -1) < number:
                self.pending[(game["id"], number)] = time.monotonic()
            self.game = data
            return
        if status in (0, 502, 503, 504):
            phase.abandoned += 1
        if status != 409 or len(self.answers) > 1:
            phase.notes.append(
                f"game {game['id']} move {payload['expected_move_number'] + 1}: {self.answers}"
            )
        # Refused (or given up): reload the game as the page would.
        status, data, _ = await self.send("GET", f"/api/games/{game['id']}/")
        if status == 200 and data is not None:
            self.game = data
        else:
            self.game = None

    # -- websocket -------------------------------------------------------------------------

    async def follow(self, game_id: int) -> None:
        """The game's websocket, opened again whenever it closes, from the newest version."""
        url = self.load.base_url.replace("http://", "ws://")
        opened = 0
        while not self.load.stopping.is_set():
            since = self.seen.get(game_id, 0)
            try:
                async with connect(
                    f"{url}/ws/games/{game_id}/?since={since}",
                    origin=self.load.base_url,  # type: ignore[arg-type]
                    additional_headers={"Authorization": f"Token {self.token}"},
                    proxy=None,
                    ping_interval=None,
                    open_timeout=REQUEST_TIMEOUT_S,
                    close_timeout=2,
                ) as socket:
                    if opened:
                        self.load.current.reconnects += 1
                    opened += 1
                    pings = asyncio.create_task(self.keep_alive(socket))
                    try:
                        async for raw in socket:
                            self.heard(game_id, json.loads(raw))
                    finally:
                        pings.cancel()
            except (OSError, TimeoutError, websockets.WebSocketException, ValueError):
                pass
            await asyncio.sleep(RECONNECT_PAUSE_S)

    @staticmethod
    async def keep_alive(socket: Any) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            while True:
                await asyncio.sleep(PING_EVERY_S)
                await socket.send('{"type": "ping"}')

    def heard(self, game_id: int, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind not in ("update", "sync", "catch_up"):
            return
        if kind == "catch_up":
            self.load.current.catch_ups += 1
        number = message["game"]["move_number"]
        if number > self.seen.get(game_id, -1):
            self.seen[game_id] = number
        for key in [k for k in self.pending if k[0] == game_id and k[1] <= number]:
            del self.pending[key]

    async def reopen_socket(self) -> None:
        """The game's websocket closed and opened again (through whichever host the balancer
        picks now), as a reload of the page would."""
        game = self.game
        if game is None or not self.load.websockets:
            return
        await self.close_socket()
        self.socket_task = asyncio.create_task(self.follow(game["id"]))

    async def close_socket(self) -> None:
        task, self.socket_task = self.socket_task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task

    # -- the loop --------------------------------------------------------------------------

    async def play(self) -> None:
        while not self.load.stopping.is_set():
            pause = self.rng.expovariate(1 / self.load.think)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.load.stopping.wait(), pause)
            if self.load.stopping.is_set():
                break
            game = self.game
            if game is None or game["status"] != "playing" or not game["legal_moves"]:
                await self.new_game()
                continue
            await self.move()
        await self.close_socket()
        await self.http.aclose()


class Load:
    """``players`` players on ``base_url``, started with ``start()`` and stopped with ``stop()``."""

    def __init__(
        self, base_url: str, tokens: list[str], *, think: float = 2.0, websockets: bool = True
    ) -> None:
        self.base_url = base_url
        self.think = think
        self.websockets = websockets
        self.stopping = asyncio.Event()
        self.current = Phase("start")
        self.phases: list[Phase] = [self.current]
        self.players = [Player(self, index, token) for index, token in enumerate(tokens)]
        self.tasks: list[asyncio.Task[None]] = []

    async def start(self, at_once: int = 20) -> None:
        gate = asyncio.Semaphore(at_once)

        async def begin(player: Player) -> None:
            async with gate:
                await player.new_game()
            self.tasks.append(asyncio.create_task(player.play()))

        await asyncio.gather(*(begin(player) for player in self.players))

    async def reopen_sockets(self) -> None:
        """Every player's websocket opened again: after a host came back, the balancer (least
        connections) puts most of them on it."""
        await asyncio.gather(*(player.reopen_socket() for player in self.players))

    def phase(self, name: str) -> Phase:
        self.current = Phase(name)
        self.phases.append(self.current)
        return self.current

    async def stop(self) -> None:
        self.stopping.set()
        if self.tasks:
            await asyncio.wait(self.tasks, timeout=GIVE_UP_S + 10)

    async def verify(self, phase: Phase) -> None:
        """Lost and twice-applied moves of the games ``phase`` touched, from the history;
        acknowledged moves whose update the player's websocket never saw."""
        now = time.monotonic()
        phase.updates_missing = sum(
            1
            for player in self.players
            for at in player.pending.values()
            if now - at > UPDATE_GRACE_S
        )
        async with httpx.AsyncClient(
            base_url=self.base_url, timeout=REQUEST_TIMEOUT_S, trust_env=False
        ) as client:
            for player in self.players:
                headers = {"Authorization": f"Token {player.token}"}
                for game_id, acked in list(player.acked.items()):
                    if game_id not in phase.games:
                        continue
                    # Copied before the history is read: the player plays on meanwhile, and a
                    # move acknowledged during the read would be in the copy, not the history.
                    acked = dict(acked)
                    response = await client.get(f"/api/games/{game_id}/moves/", headers=headers)
                    if response.status_code != 200:
                        phase.notes.append(f"history of game {game_id}: {response.status_code}")
                        continue
                    history = {entry["number"]: entry["move"] for entry in response.json()}
                    history = {n: move for n, move in history.items() if n <= max(acked, default=0)}
                    missing = [n for n, move in acked.items() if history.get(n) != move]
                    phase.lost += len(missing)
                    if missing:
                        phase.notes.append(f"game {game_id}: acknowledged moves lost {missing}")
                    extra = [number for number in history if number not in acked]
                    phase.twice += len(extra)
                    if extra:
                        phase.notes.append(f"game {game_id}: unacknowledged moves {extra}")


async def watch_leaderboard(
    url: str, origin: str, seen: list[tuple[float, dict[str, Any]]], ready: asyncio.Event,
    stop: asyncio.Event,
) -> None:  # fmt: skip
    """One watcher of a daily leaderboard: every board it gets, with when."""
    try:
        async with connect(
            url,
            origin=origin,
            proxy=None,
            open_timeout=60,
            close_timeout=2,  # type: ignore[arg-type]
        ) as socket:
            first = True
            while not stop.is_set():
                try:
                    raw = await asyncio.wait_for(socket.recv(), 0.5)
                except TimeoutError:
                    continue
                message = json.loads(raw)
                if message.get("type") == "leaderboard":
                    seen.append((time.monotonic(), message))
                    if first:
                        first = False
                        ready.set()
    except (OSError, TimeoutError, websockets.WebSocketException) as error:
        seen.append((time.monotonic(), {"type": "failed", "error": type(error).__name__}))
        ready.set()
