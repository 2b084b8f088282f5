"""Closing each day's unfinished ranked attempts when the day ends, and preparing the coming
days' challenges: the ``days`` job of the worker role (``manage.py worker``,
``games.background.worker``), done by one worker instance at a time; never in a web process.

A ranked daily attempt can only be played on its own UTC day; one still in play at midnight
stands as it was left (``daily_services.close_unfinished_attempts``). The job does this as it
starts (catching up on days that ended while no worker ran), just after each midnight UTC, and
every ``RECHECK_S`` between (so that a pass that failed is tried again soon). Two instances
racing on the same attempt (one cut off from the database while another took over) are
harmless: each attempt is closed in a transaction of its own, under its row lock, once.

After closing, the job prepares today's challenges and the next days'
(``challenges.prepare_ahead``), the solver running in a process of its own. A day's challenge
is stored once (unique per day and game): a preparation cut short and done again by another
instance stores each challenge once. Players of a day not prepared yet are told to come back
(503 ``daily_not_ready``), never kept waiting.

The live updates of the attempts it closes go through the channel layer (Redis) to the web
processes that hold the players' websockets.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from collections.abc import Callable

from django.db import close_old_connections, connections
from django.utils import timezone

from games.daily import services as daily_services
from web.live import games as live

logger = logging.getLogger("patience.day_closer")

#: After midnight, so that every process agrees the day has changed before it looks.
MARGIN_S = 1.0
#: The most time between two passes: a pass that failed, or a day whose preparation was cut
#: short, is done again within this, not the next midnight.
RECHECK_S = 300.0


def seconds_until_next_day(now: dt.datetime) -> float:
    """From ``now`` to the next midnight UTC, plus the margin."""
    now = now.astimezone(dt.UTC)
    midnight = dt.datetime.combine(now.date() + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)
    return (midnight - now).total_seconds() + MARGIN_S


def seconds_until_next_pass(now: dt.datetime) -> float:
    """Just after the next midnight UTC, or ``RECHECK_S`` from ``now`` if that comes first."""
    return min(seconds_until_next_day(now), RECHECK_S)


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


def prepare_days_once(stop: threading.Event | None = None) -> int:
    """Today's challenges and the next days' (``challenges.prepare_ahead``), as many as were
    made, stopping between two challenges once ``stop`` is set; errors are logged (the next
    pass tries again), never raised into the thread."""
    from games.daily import challenges

    try:
        close_old_connections()
        made = sum(created for _, created in challenges.prepare_ahead(stop=stop))
    except Exception:
        if stop is not None and stop.is_set():  # the worker stopping ended the solver
            logger.info("preparing the daily challenges stopped")
        else:
            logger.exception("preparing the daily challenges failed")
        return 0
    finally:
        connections.close_all()
    if made:
        logger.info("prepared %d daily challenges", made)
    return made


def run(stop: threading.Event, *, now: Callable[[], dt.datetime] = timezone.now) -> None:
    """The ``days`` job: close past days' attempts and prepare the coming days' challenges
    now, then after every midnight UTC (and every ``RECHECK_S``), until ``stop`` is set."""
    live.send_updates_through(None)
    while not stop.is_set():
        close_days_once()
        if not stop.is_set():
            prepare_days_once(stop)
        stop.wait(seconds_until_next_pass(now()))
