"""Closing each day's unfinished ranked attempts when the day ends, and preparing the coming
days' challenges, inside the server process.

A ranked daily attempt can only be played on its own UTC day; one still in play at midnight
stands as it was left (``daily_services.close_unfinished_attempts``). Every server process runs one
daemon thread that does this as the server starts (catching up on days that ended while the
service was down) and then just after each midnight UTC. Processes racing on the same attempt
are harmless: each attempt is closed in a transaction of its own, under its row lock, once.

After closing, the same thread prepares today's challenges and the next days'
(``challenges.prepare_ahead``): the solver runs in a process of its own, so this thread only
waits on it and the server's requests keep the GIL. A fresh server whose days are not
prepared yet answers "being prepared" (503 ``daily_not_ready``) meanwhile, never blocks.

The thread is started from the server's event loop (``StartWithServer``), and the live updates
of the attempts it closes are sent on that loop (``web.publish``), as a request's are:
the in-memory channel layer of a single process must only be used from its own loop.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import threading
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connections
from django.utils import timezone

from games import live
from games.daily import services as daily_services

logger = logging.getLogger("patience.day_closer")

#: After midnight, so that every process agrees the day has changed before it looks.
MARGIN_S = 1.0
_started: threading.Thread | None = None
_lock = threading.Lock()


def seconds_until_next_day(now: dt.datetime) -> float:
    """From ``now`` to the next midnight UTC, plus the margin."""
    now = now.astimezone(dt.UTC)
    midnight = dt.datetime.combine(now.date() + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)
    return (midnight - now).total_seconds() + MARGIN_S


def close_days_once() -> list[int]:
    """One pass, with this thread's database connections closed afterwards; errors are logged
    (the next pass tries again), never raised into the thread."""

    try:
        close_old_connections()
        closed = daily_services.close_unfinished_attempts()
    except Exception:
        logger.exception("closing the unfinished attempts of past days failed")
        return []
    finally:
        connections.close_all()
    if closed:
        logger.info("closed %d unfinished ranked attempts of past days", len(closed))
    return closed


def prepare_days_once() -> int:
    """Today's challenges and the next days' (``challenges.prepare_ahead``), as many as were
    made; errors are logged (the next pass tries again), never raised into the thread."""
    from games.daily import challenges

    try:
        close_old_connections()
        made = sum(created for _, created in challenges.prepare_ahead())
    except Exception:
        logger.exception("preparing the daily challenges failed")
        return 0
    finally:
        connections.close_all()
    if made:
        logger.info("prepared %d daily challenges", made)
    return made


def run(stop: threading.Event, loop: asyncio.AbstractEventLoop | None = None) -> None:
    """Close past days' attempts and prepare the coming days' challenges now, then after
    every midnight UTC, until ``stop`` is set; live updates through the server's ``loop``
    when there is one."""
    live.send_updates_through(loop)
    while not stop.is_set():
        close_days_once()
        if not stop.is_set():
            prepare_days_once()
        stop.wait(seconds_until_next_day(timezone.now()))


def start(loop: asyncio.AbstractEventLoop | None = None) -> threading.Thread | None:
    """Start this process's closer (once), unless ``CLOSE_DAYS_IN_SERVER`` is off."""
    global _started
    if _started is not None or not settings.CLOSE_DAYS_IN_SERVER:
        return _started
    with _lock:
        if _started is None:
            _started = threading.Thread(
                target=run, args=(threading.Event(), loop), name="day-closer", daemon=True
            )
            _started.start()
        return _started


class StartWithServer:
    """ASGI middleware: starts the closer on the first event the server hands the application
    (uvicorn's lifespan startup, or daphne's first connection), from the server's loop."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        start(asyncio.get_running_loop())
        return await self.application(scope, receive, send)
