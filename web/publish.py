"""Group messages to websocket consumers, from request threads, commands and tests.

Inside a served request the sender does not wait for Redis: the message goes to the event
loop serving the request, which sends a process's messages in the order the requests handed
them over, those waiting together in one round trip. Elsewhere (a test, a command) it is sent
at once.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
from collections import deque
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer

from web.handlers import request_loop

logger = logging.getLogger(__name__)


def publish_through(loop: asyncio.AbstractEventLoop | None) -> None:
    """From now on, this thread (a server's background thread) publishes through ``loop``, the
    server's event loop, as its requests do; ``None``: it sends and waits."""
    request_loop.set(loop)


def publish(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    loop = request_loop.get()
    if loop is None or loop.is_closed():
        # Not in a served request (a test, a command): send now and wait.
        async_to_sync(layer.group_send)(group, message)
    else:
        _publisher(loop, layer).put(group, message)


_publishers: dict[asyncio.AbstractEventLoop, _Publisher] = {}
_publishers_lock = threading.Lock()


def _publisher(loop: asyncio.AbstractEventLoop, layer: Any) -> _Publisher:
    found = _publishers.get(loop)
    if found is None or found.layer is not layer:
        with _publishers_lock:  # one publisher per loop, or two could reorder messages
            found = _publishers.get(loop)
            if found is None or found.layer is not layer:
                for old in [known for known in _publishers if known.is_closed()]:
                    del _publishers[old]
                found = _publishers[loop] = _Publisher(loop, layer)
    return found


#: Messages a process keeps waiting while Redis is slow or away; beyond, the oldest go.
MAX_WAITING = 10_000


#: Messages sent to Redis in one round trip, at most.
MAX_BATCH = 500


class _Publisher:
    """One event loop's outgoing group messages, sent in the order received.

    A send waits for Redis's answer, and on a loop busy serving requests each wait lasts
    turns of the loop: sent one at a time, updates fell behind the moves under load, by
    seconds and growing (``bench/README.md``). So whatever is waiting goes in one round trip
    (a pipeline of ``PUBLISH``, through channels_redis's pub/sub layer); another layer (the
    in-memory one) gets the messages one after another.

    While Redis hangs, moves go on being recorded and their updates wait here, up to
    ``MAX_WAITING``; then the oldest are dropped (each update carries the whole game, and a
    watcher that missed one catches up with the next or on reconnecting)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, layer: Any) -> None:
        self.loop = loop
        self.layer = layer
        self.waiting: deque[tuple[str, dict[str, Any]]] = deque()
        self.sender: asyncio.Task[None] | None = None
        self.dropped = 0

    def put(self, group: str, message: dict[str, Any]) -> None:
        """From any thread. Callbacks run in the order they were scheduled, so messages
        from one thread keep their order."""
        # A context of its own: the sender outlives the request that started it, so it
        # must not carry that request's context (its request thread, say).
        self.loop.call_soon_threadsafe(self._enqueue, group, message, context=contextvars.Context())

    def _enqueue(self, group: str, message: dict[str, Any]) -> None:
        if len(self.waiting) >= MAX_WAITING:
            self.waiting.popleft()
            if self.dropped == 0:
                logger.warning("Live updates are waiting for Redis: dropping the oldest")
            self.dropped += 1
        self.waiting.append((group, message))
        if self.sender is None:
            self.sender = self.loop.create_task(self._send_waiting())

    async def _send_waiting(self) -> None:
        try:
            while self.waiting:
                count = min(len(self.waiting), MAX_BATCH)
                batch = [self.waiting.popleft() for _ in range(count)]
                if isinstance(self.layer, RedisPubSubChannelLayer):
                    await self._send_together(batch)
                else:
                    for group, message in batch:
                        await self._send_one(group, message)
        finally:
            self.sender = None

    async def _send_one(self, group: str, message: dict[str, Any]) -> None:
        try:
            await self.layer.group_send(group, message)
        except Exception:
            logger.exception("Live update to %s not sent", group)
        else:
            self._sent()

    async def _send_together(self, batch: list[tuple[str, dict[str, Any]]]) -> None:
        try:
            await publish_together(self.layer, batch)
        except Exception:
            logger.exception("%d live updates not sent", len(batch))
        else:
            self._sent()

    def _sent(self) -> None:
        if self.dropped:
            logger.warning("Live updates flow again; %d were dropped", self.dropped)
            self.dropped = 0


async def publish_together(
    layer: RedisPubSubChannelLayer, messages: list[tuple[str, dict[str, Any]]]
) -> None:
    """``group_send`` of each (group, message), in order, in one round trip per Redis shard.

    channels_redis sends a group message as one ``PUBLISH`` on its shard's connection, under
    the shard's lock; this sends the same commands (same channels, same serialization) as one
    pipeline under that lock. channels_redis has no public call for it, so this reads its
    pub/sub layer's internals (4.x); ``tests/games/test_live_updates.py`` checks that
    listeners joined through the layer's own ``group_add`` receive them."""
    loop_layer = layer._get_layer()
    by_shard: dict[Any, list[tuple[str, bytes]]] = {}
    for group, message in messages:
        channel = loop_layer._get_group_channel_name(group)
        shard = loop_layer._get_shard(channel)
        by_shard.setdefault(shard, []).append((channel, layer.serialize(message)))
    for shard, commands in by_shard.items():
        async with shard._lock:
            shard._ensure_redis()
            async with shard._redis.pipeline(transaction=False) as pipeline:
                for channel, payload in commands:
                    pipeline.publish(channel, payload)
                await pipeline.execute()
