"""Group messages to websocket consumers, through the channel layer's own ``group_send``.

Called after a transaction commits (``web.live.games``), from a request's thread, a background
thread or a command: the message is sent and waited for, as Channels documents it. A request's
thread sends on the event loop serving it (``async_to_sync`` finds it), and so does a server's
background thread that was told the loop (``publish_through``): the in-memory channel layer of
``bin/run`` works on its own loop only. The wait is bounded by ``LIVE_UPDATE_TIMEOUT_SECONDS``,
so a Redis that hangs delays an answer by at most that long and never holds it: the change is
committed already, the update is logged as not sent, and pages catch up when they reconnect
(``web.live.layer_watch`` closes their sockets when Redis stops delivering).

A hand-made publisher (updates handed to the event loop without waiting, several sent in one
pipeline through channels_redis's internals) measured no better with
``bench/players_bench.py`` and was removed (``bench/README.md``, "Each hand-made part against
the framework's own way").
"""

from __future__ import annotations

import asyncio
import logging
from contextvars import ContextVar
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

logger = logging.getLogger(__name__)

#: The server's event loop, for a background thread of the server that sends live updates.
_server_loop: ContextVar[asyncio.AbstractEventLoop | None] = ContextVar("server_loop", default=None)


def publish_through(loop: asyncio.AbstractEventLoop | None) -> None:
    """From now on, this thread (a server's background thread) sends on ``loop``, the
    server's event loop; ``None``: on a loop of its own for each message."""
    _server_loop.set(loop)


def publish(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to ``group``'s consumers and wait; a failure is logged, never raised."""
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _server_loop.get()
    try:
        if loop is not None and loop.is_running():
            asyncio.run_coroutine_threadsafe(_send(layer, group, message), loop).result()
        else:
            async_to_sync(_send)(layer, group, message)
    except Exception:
        logger.exception("Live update to %s not sent", group)


async def _send(layer: Any, group: str, message: dict[str, Any]) -> None:
    async with asyncio.timeout(settings.LIVE_UPDATE_TIMEOUT_SECONDS):
        await layer.group_send(group, message)
