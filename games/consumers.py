"""Websockets: a game's changes for its player (and staff), a daily leaderboard for anyone.

Consumers hold no game logic: they authorise, join a group, and pass on what the services
published after their commits (``web.live.games``) or what the selectors read.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import OrderedDict
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from rest_framework.renderers import JSONRenderer

from accounts.live import SignIn, SignOut, account_group
from accounts.selectors import still_signed_in
from games.daily import friends, leaderboards
from games.play import selectors as play_selectors
from games.play import socket_actions
from games.rules import VARIANTS
from web.http.errors import REDIS_UNREACHABLE
from web.live import connection_cap, layer_watch
from web.live.games import game_group, leaderboard_group

# Close codes (4000-4999 are the application's own).
NOT_SIGNED_IN, FORBIDDEN, NOT_FOUND, TOO_MANY_MESSAGES = 4401, 4403, 4404, 4429
TOO_MANY_CONNECTIONS = 4430
MESSAGE_TOO_BIG = 4413  # over WEBSOCKET_MAX_MESSAGE_BYTES
LAYER_INTERRUPTED = layer_watch.LAYER_INTERRUPTED  # 4503: live updates lost; pages reconnect

logger = logging.getLogger("patience.websockets")


def as_json(data: Any) -> Any:
    """Dates and times as the REST API writes them."""
    return json.loads(JSONRenderer().render(data))


class FloodGuard:
    """At most ``limit`` messages from the client in any ``period`` seconds."""

    def __init__(self, limit: int, period: float) -> None:
        self.limit, self.period = limit, period
        self.times: list[float] = []

    def allows(self) -> bool:
        now = time.monotonic()
        self.times = [t for t in self.times if now - t < self.period]
        self.times.append(now)
        return len(self.times) <= self.limit


SIGNED_OUT_MESSAGE = "You have been signed out here: sign in again to go on."


def message_size(message: dict[str, Any], limit: int) -> int | None:
    """A websocket message's size in bytes, or None when it is over ``limit``; a text over the
    limit in characters is not encoded to find out."""
    text = message.get("text")
    if text is not None:
        if len(text) > limit:
            return None
        size = len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))
    else:
        size = len(message.get("bytes") or b"")
    return size if size <= limit else None


class PatienceConsumer(AsyncJsonWebsocketConsumer):
    """Shared: the client may only ``ping``; a client that floods is disconnected; a signed-in
    connection ends when the sign-in it was opened with does (``accounts.live``)."""

    joined: tuple[str, ...] = ()
    sign_in: SignIn | None = None
    slots: connection_cap.Slots | None = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        # The connection's whole life: however it ends (closed, failed, cancelled), its slots
        # in the connection counters are given back.
        try:
            await super().__call__(scope, receive, send)
        except REDIS_UNREACHABLE as exc:
            # The channel layer or the connection counters are out of reach (Channels' own
            # new_channel fails first): refused or closed with the outage's code, one line in
            # the log, not a traceback per attempt; the page retries with its backoff.
            logger.warning("websocket %s closed: Redis is unreachable (%s)", scope.get("path"), exc)
            with contextlib.suppress(Exception):
                await send({"type": "websocket.close", "code": LAYER_INTERRUPTED})
        finally:
            if self.slots is not None:
                await connection_cap.release(self.slots)

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        self.flood = FloodGuard(settings.WEBSOCKET_MESSAGE_LIMIT, settings.WEBSOCKET_MESSAGE_PERIOD)
        taken = await connection_cap.take(self.scope)
        if isinstance(taken, connection_cap.Counter):
            await self.too_many_connections(taken)
            return
        self.slots = taken
        await super().websocket_connect(message)

    async def too_many_connections(self, full: connection_cap.Counter) -> None:
        logger.warning(
            "websocket %s refused: %s already has %d open (%s)",
            self.scope.get("path"),
            full.key,
            full.limit,
            full.setting,
        )
        await self.accept()
        await self.send_json(
            {
                "type": "error",
                "code": "too_many_connections",
                "message": "Too many live pages are open for this account or from this "
                "address: close some and try again.",
            }
        )
        await self.close(code=TOO_MANY_CONNECTIONS)

    async def websocket_receive(self, message: dict[str, Any]) -> None:
        # Sized before anything reads it: a client's message over the cap (megabytes of JSON
        # decoded on the event loop held up every connection of the process) closes the socket.
        if message_size(message, settings.WEBSOCKET_MAX_MESSAGE_BYTES) is None:
            await self.close(code=MESSAGE_TOO_BIG)
            return
        await super().websocket_receive(message)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not self.flood.allows():
            await self.send_json(
                {
                    "type": "error",
                    "code": "too_many_messages",
                    "message": "Too many messages: this connection is closed.",
                }
            )
            await self.close(code=TOO_MANY_MESSAGES)
            return
        if isinstance(content, dict) and content.get("type") == "ping":
            await self.send_json({"type": "pong"})

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        try:
            await super().receive(text_data, bytes_data, **kwargs)
        # Not JSON (or nested too deep to read): counts as a message, answered with nothing.
        except (ValueError, TypeError, RecursionError):
            if not self.flood.allows():
                await self.close(code=TOO_MANY_MESSAGES)

    async def join(self, group: str) -> None:
        self.joined = (*self.joined, group)
        await self.channel_layer.group_add(group, self.channel_name)
        # Listening to a group: closed if the layer stops delivering (web.live.layer_watch).
        layer_watch.watch(self)

    async def leave(self, group: str) -> None:
        if group in self.joined:
            self.joined = tuple(name for name in self.joined if name != group)
            await self.channel_layer.group_discard(group, self.channel_name)

    async def join_account(self) -> bool:
        """A signed-in connection listens for the end of its sign-in. False if that sign-in
        has already ended: a sign-out published between the connection's sign-in and its
        joining the account's group was not heard, so the sign-in is read again once joined."""
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return True
        self.sign_in = await database_sync_to_async(SignIn.of)(self.scope)
        await self.join(account_group(user.pk))
        session = self.scope.get("session")
        return await database_sync_to_async(still_signed_in)(
            user.pk,
            token_key=self.scope.get("auth_token") or None,
            session_key=session.session_key if session is not None else None,
        )

    async def account_follows_changed(self, event: dict[str, Any]) -> None:
        """The account's follows changed: only a leaderboard's friends' view cares."""

    async def account_race_invitation(self, event: dict[str, Any]) -> None:
        """A friend invited the account to a race: only the account's own socket tells it
        (``games.races.consumers.AccountConsumer``, the lobby's)."""

    async def account_race_invitation_gone(self, event: dict[str, Any]) -> None:
        """An invitation to the account is no longer theirs to take: the lobby's socket only."""

    async def account_race_invitation_declined(self, event: dict[str, Any]) -> None:
        """A player the account invited declined: the race's room only (its Invite list)."""

    async def account_signed_out(self, event: dict[str, Any]) -> None:
        if self.sign_in is not None and SignOut.from_message(event).ends(self.sign_in):
            await self.signed_out()

    async def signed_out(self) -> None:
        await self.send_json({"type": "error", "code": "signed_out", "message": SIGNED_OUT_MESSAGE})
        await self.close(code=NOT_SIGNED_IN)

    async def disconnect(self, code: int) -> None:
        layer_watch.forget(self)
        joined, self.joined = self.joined, ()
        for group in joined:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception:  # Redis away: the subscription goes with its connection
                logger.warning("leaving websocket group %s failed", group, exc_info=True)

    async def refuse(self, code: int) -> None:
        """Accept, then close with ``code``: a browser sees close codes, not handshake statuses."""
        await self.accept()
        await self.close(code=code)

    def query(self, name: str) -> str | None:
        values = parse_qs(self.scope.get("query_string", b"").decode()).get(name)
        return values[0] if values else None


class GameConsumer(PatienceConsumer):
    """``ws/games/<id>/[?since=N]``: every new version of the game, from any tab or device;
    its player's moves, undo, resign and end (``games.play.socket_actions``), each answered on
    the socket, whose answer is that version's update there (not sent twice)."""

    async def connect(self) -> None:
        # Actions are counted apart from other messages: a Finish sends every card home as a
        # move of its own, more than the flood limit allows (and no ping needs as many).
        self.actions = FloodGuard(
            settings.WEBSOCKET_ACTION_LIMIT, settings.WEBSOCKET_MESSAGE_PERIOD
        )
        user = self.scope["user"]
        if not user.is_authenticated:
            await self.refuse(NOT_SIGNED_IN)
            return
        game_id = self.scope["url_route"]["kwargs"]["game_id"]
        game = await database_sync_to_async(play_selectors.watchable_game)(user, game_id)
        if game is None:
            await self.refuse(NOT_FOUND)
            return
        # Join before reading, so no version committed in between is missed.
        await self.join(game_group(game_id))
        signed_in = await self.join_account()
        await self.accept()
        if not signed_in:
            await self.signed_out()
            return
        since = self.query("since")
        since_number = int(since) if since and since.isdigit() else None
        catch_up = await database_sync_to_async(play_selectors.game_catch_up)(
            game, since_number, settings.WEBSOCKET_CATCH_UP_LIMIT
        )
        await self.send_json(as_json(catch_up))

    #: The game as this socket's last action's answer carried it, until its update comes.
    answered: dict[str, Any] | None = None

    async def game_update(self, event: dict[str, Any]) -> None:
        # This socket's own action: its answer, just sent, was this very game (the same view,
        # version and events); sent again it would only cost the encoding, the compression
        # and the page's drawing twice. Anything else (another tab's move, a hint counted at
        # the same version) differs from it, and is sent.
        if self.answered is not None and event["game"] == self.answered:
            self.answered = None
            return
        await self.send_json({"type": "update", "game": event["game"]})

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not socket_actions.is_action(content):
            await super().receive_json(content, **kwargs)
            return
        if not self.actions.allows():
            await self.send_json(socket_actions.too_many_actions(content))
            return
        user, game_id = self.scope["user"], self.scope["url_route"]["kwargs"]["game_id"]
        # Not thread_sensitive: moves on the sockets of a process run side by side in the
        # loop's thread pool (each thread with its own connection), not one after another in
        # the single thread Channels' reads share. One socket's actions are still taken in
        # the order sent: the consumer waits for each answer before reading the next message.
        answered = await database_sync_to_async(
            socket_actions.answer_action, thread_sensitive=False
        )(user, game_id, content)
        await self.send_json(answered)
        # The answer's game, as its update will bring it (nothing is kept of a refusal).
        self.answered = answered["body"] if answered["status"] < 300 else None


class Board:
    """A leaderboard's latest read in this process: when it started, and what it found."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.read_at = float("-inf")
        self.ranking: list[tuple[int, dict[str, Any]]] = []


class BoardCache:
    """One read of a leaderboard per process serves every watcher of it in that process.

    A watcher may reuse a read that started after its process first heard of the change it
    wants to see (every watcher in the process hears of a change by the same id). Only the
    ``size`` boards used last are kept: anyone may open any day's board, and keeping every
    one read (20,000 dates cost a worker 155-168 MB) would let a visitor fill the memory.
    """

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self.boards: OrderedDict[tuple[str, str], Board] = OrderedDict()
        self.first_heard: dict[str, float] = {}

    def heard(self, change: str | None) -> float:
        """When this process first heard of ``change``."""
        now = time.monotonic()
        if change is None:
            return now
        if len(self.first_heard) > 1000:  # recent changes are all that matter
            self.first_heard = dict(list(self.first_heard.items())[-100:])
        return self.first_heard.setdefault(change, now)

    def board(self, key: tuple[str, str]) -> Board:
        """The board of ``key``, now the last used; the least recently used one beyond
        ``size`` is dropped (a read under way on it still finishes, for its own watcher)."""
        board = self.boards.get(key)
        if board is None:
            board = self.boards[key] = Board()
            while len(self.boards) > self.size:
                self.boards.popitem(last=False)
        self.boards.move_to_end(key)
        return board

    async def ranking(self, date: Any, variant: str, changed_at: float) -> list[tuple[int, dict]]:
        board = self.board((date.isoformat(), variant))
        async with board.lock:
            if board.read_at >= changed_at:
                return board.ranking
            started = time.monotonic()
            board.ranking = as_json(
                await database_sync_to_async(leaderboards.daily_ranking)(date, variant)
            )
            board.read_at = started
            return board.ranking


boards = BoardCache(size=64)


class LeaderboardConsumer(PatienceConsumer):
    """``ws/leaderboards/daily/<date>/<game>/``: the day's ranking as attempts move, for
    anyone, at most a few updates a second."""

    TOP = 20

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        self.date, self.variant = kwargs["date"], kwargs["variant"]
        if self.variant not in VARIANTS or not await database_sync_to_async(
            leaderboards.daily_board_exists
        )(self.date, self.variant):
            # Only days that have opened with this game's challenge: any other date would
            # be a board of nothing, and one more entry in every process's cache.
            await self.refuse(NOT_FOUND)
            return
        self.user_id = getattr(self.scope.get("user"), "pk", None)
        self.last_sent, self.changed_at = 0.0, time.monotonic()
        self.refresh: asyncio.Task | None = None
        await self.join(leaderboard_group(self.date, self.variant))
        if not await self.join_account():
            await self.forget_sign_in()
        # An account's friends' view (games.daily.friends), filtered here from the ranking
        # every watcher shares: no read of its own per push, only when its follows change.
        self.friends = None
        if self.user_id is not None:
            user = self.scope["user"]
            self.friends = await database_sync_to_async(friends.friend_ids)(user)
        await self.accept()
        await self.send_board()

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels closes stale database connections before every handler; for the fan-out of
        # a change to every watcher that is pure overhead (the read has its own thread).
        if message["type"] == "leaderboard.changed":
            await self.leaderboard_changed(message)
        else:
            await super().dispatch(message)

    async def leaderboard_changed(self, event: dict[str, Any]) -> None:
        self.changed_at = max(self.changed_at, boards.heard(event.get("change")))
        if self.refresh is None or self.refresh.done():
            wait = max(settings.LEADERBOARD_PUSH_INTERVAL - (time.monotonic() - self.last_sent), 0)
            self.refresh = asyncio.create_task(self.send_board_after(wait))

    async def send_board_after(self, wait: float) -> None:
        await asyncio.sleep(wait)
        # A change heard while a board was being read may be newer than that read: go again.
        while await self.send_board() < self.changed_at:
            await asyncio.sleep(settings.LEADERBOARD_PUSH_INTERVAL)

    async def send_board(self) -> float:
        """Send the board as of the latest change heard; returns that change's time."""
        self.last_sent = time.monotonic()
        wanted = self.changed_at
        ranking = await boards.ranking(self.date, self.variant, wanted)
        mine = next((entry for owner, entry in ranking if owner == self.user_id), None)
        board = {
            "type": "leaderboard",
            "date": self.date.isoformat(),
            "variant": self.variant,
            "count": len(ranking),
            "results": [entry for _, entry in ranking[: self.TOP]],
            "me": mine,
        }
        if self.friends is not None:
            board["friends"] = friends.among(ranking, self.friends)
        await self.send_json(board)
        return wanted

    async def account_follows_changed(self, event: dict[str, Any]) -> None:
        if self.friends is not None:
            self.friends = await database_sync_to_async(friends.friend_ids)(self.scope["user"])
            await self.send_board()

    async def signed_out(self) -> None:
        # Anyone may watch a board: the connection goes on, without the player's own entry.
        await self.forget_sign_in()
        await self.send_board()

    async def forget_sign_in(self) -> None:
        self.user_id, self.sign_in, self.friends = None, None, None
        if self.scope.get("user") is not None:
            await self.leave(account_group(self.scope["user"].pk))

    async def disconnect(self, code: int) -> None:
        if getattr(self, "refresh", None) and not self.refresh.done():
            self.refresh.cancel()
        await super().disconnect(code)


class NoSuchStream(PatienceConsumer):
    """Any websocket path no route takes."""

    async def connect(self) -> None:
        await self.refuse(NOT_FOUND)
