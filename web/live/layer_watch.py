"""Live sockets end when the channel layer stops delivering, so pages do not say "Live" in vain.

Over Redis pub/sub (``channels_redis.pubsub``) an outage loses every group message published
meanwhile, and the layer re-subscribes silently once Redis is back (it never calls its
``on_disconnect`` / ``on_reconnect``): a page would go on saying "Live" and never show what it
missed. So each server process (each event loop) watches its layer while it has live
connections: every ``LIVE_LAYER_CHECK_SECONDS`` it sends one message through the layer to a
channel of its own and expects it back within as long. When a check fails (the send raises, or
no echo in time), or the layer's subscription connection was re-established since the last
check (a short outage between two checks), every websocket of the process that listens to a
group is closed with code 4503 (``LAYER_INTERRUPTED``). Pages show "Reconnecting…" and
reconnect with their backoff: while Redis is away a new connection cannot join its group and
fails; once it is back the reconnection catches up (a game's ``?since=``, a leaderboard's
fresh board).

Cost: one PUBLISH per check and process (0.2 Redis commands a second at the default 5 s),
whatever the number of connections, and nothing while the process has none. With the
in-memory layer (one process, ``bin/run``) nothing can be lost this way, and nothing runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import weakref
from typing import Any, Protocol

from channels.layers import InMemoryChannelLayer
from django.conf import settings

logger = logging.getLogger("patience.websockets")

#: The close code of the websockets a failed check ends (not final: pages reconnect).
LAYER_INTERRUPTED = 4503


class Watched(Protocol):
    async def close(self, code: int | None = None, reason: str | None = None) -> None: ...


class LayerWatch:
    """One event loop's check of its channel layer, for the connections that depend on it."""

    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self.consumers: weakref.WeakSet[Any] = weakref.WeakSet()
        self.task: asyncio.Task[None] | None = None
        self.echoes: asyncio.Queue[int] = asyncio.Queue()
        self.reconnected = False
        self.hooked: weakref.WeakSet[Any] = weakref.WeakSet()  # connections we listen to
        self.checks = 0  # checks made (for tests and curiosity)

    def watch(self, consumer: Watched) -> None:
        self.consumers.add(consumer)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run())

    def forget(self, consumer: Watched) -> None:
        self.consumers.discard(consumer)

    async def run(self) -> None:
        try:
            channel = await self.layer.new_channel("patience.layer-watch.")
        except Exception as exc:
            logger.warning("the channel layer's check could not start: %r", exc)
            await self.interrupt()
            return
        receiver = asyncio.get_running_loop().create_task(self.receive(channel))
        try:
            self.hook_reconnects()
            self.reconnected = False
            serial = itertools.count()
            while self.consumers:
                period = float(settings.LIVE_LAYER_CHECK_SECONDS)
                await asyncio.sleep(period)
                if not self.consumers:
                    break
                self.checks += 1
                if not await self.check(channel, next(serial), period):
                    await self.interrupt()
        finally:
            receiver.cancel()

    async def receive(self, channel: str) -> None:
        while True:
            try:
                message = await self.layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # the layer logs its own failures; wait for it to come back
                await asyncio.sleep(1)
                continue
            self.echoes.put_nowait(message.get("serial", -1))

    async def check(self, channel: str, serial: int, timeout: float) -> bool:
        """Whether the layer delivered a message to this process, with no reconnection since
        the last check."""
        try:
            async with asyncio.timeout(timeout):
                await self.layer.send(channel, {"type": "layer.echo", "serial": serial})
                while await self.echoes.get() != serial:
                    pass  # a late echo of an earlier check
        except TimeoutError:
            logger.warning("the channel layer did not deliver a check within %ss", timeout)
            return False
        except Exception as exc:
            logger.warning("the channel layer's check failed: %r", exc)
            return False
        self.hook_reconnects()  # a connection made since (after a failure) is listened to
        if self.reconnected:
            self.reconnected = False
            logger.warning("the channel layer reconnected to Redis: messages may have been lost")
            return False
        return True

    async def interrupt(self) -> None:
        consumers = list(self.consumers)
        self.consumers = weakref.WeakSet()
        logger.warning("closing %d live connection(s): live updates interrupted", len(consumers))
        for consumer in consumers:
            with contextlib.suppress(Exception):
                await consumer.close(code=LAYER_INTERRUPTED)

    def hook_reconnects(self) -> None:
        """Be told when a subscription connection of ``channels_redis.pubsub`` reconnects (it
        re-subscribes silently). Its internals: where they are not as expected, only the
        echo check is made."""
        try:
            shards = self.layer._get_layer()._shards
        except Exception:
            return
        for shard in shards:
            connection = getattr(getattr(shard, "_pubsub", None), "connection", None)
            register = getattr(connection, "register_connect_callback", None)
            if register is not None and connection not in self.hooked:
                register(self.on_reconnect)
                self.hooked.add(connection)

    def on_reconnect(self, connection: Any) -> None:
        self.reconnected = True


_watches: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LayerWatch]
_watches = weakref.WeakKeyDictionary()


def watch(consumer: Any) -> None:
    """Close ``consumer`` (a websocket consumer listening to groups of its channel layer) with
    ``LAYER_INTERRUPTED`` if that layer stops delivering."""
    layer = consumer.channel_layer
    if layer is None or isinstance(layer, InMemoryChannelLayer):
        return
    if float(settings.LIVE_LAYER_CHECK_SECONDS) <= 0:
        return
    loop = asyncio.get_running_loop()
    found = _watches.get(loop)
    if found is None or found.layer is not layer:
        found = _watches[loop] = LayerWatch(layer)
    found.watch(consumer)


def forget(consumer: Any) -> None:
    try:
        found = _watches.get(asyncio.get_running_loop())
    except RuntimeError:
        return
    if found is not None:
        found.forget(consumer)
