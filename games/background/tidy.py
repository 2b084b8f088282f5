"""The ``tidy-games`` job: games where no move was ever made are deleted once they have been
left so for ``UNTOUCHED_GAME_MINUTES`` (``games.play.services.delete_untouched_games``), so that
saved games do not pile up; they were never shown as in progress nor counted anywhere. And
casual games left at a dead end for ``DEAD_END_MINUTES`` are ended, lost
(``games.play.services.end_stale_dead_ends``): their player walked away from a lost game."""

from __future__ import annotations

import datetime as dt
import logging
import threading
from collections.abc import Callable

from django.conf import settings
from django.db import close_old_connections

logger = logging.getLogger("patience.worker")

#: Seconds between two rounds.
EVERY_S = 60.0


def in_batches(job: Callable[[dt.timedelta], int], minutes: int) -> int:
    """``job`` run on what is older than ``minutes`` until a batch finds nothing; how many it
    handled in all (nothing when ``minutes`` is 0 or less: the job is turned off)."""
    if minutes <= 0:
        return 0
    done = 0
    while batch := job(dt.timedelta(minutes=minutes)):
        done += batch
    return done


def tidy_once() -> int:
    """One round: every untouched game old enough deleted, in batches; how many were."""
    from games.play.services import delete_untouched_games

    return in_batches(delete_untouched_games, settings.UNTOUCHED_GAME_MINUTES)


def end_dead_ends_once() -> int:
    """One round: every casual game left at a dead end long enough ended, lost; how many."""
    from games.play.services import end_stale_dead_ends

    return in_batches(end_stale_dead_ends, settings.DEAD_END_MINUTES)


def run(stop: threading.Event) -> None:
    while not stop.is_set():
        close_old_connections()
        try:
            if deleted := tidy_once():
                logger.info("tidy-games: %s untouched games deleted", deleted)
            if ended := end_dead_ends_once():
                logger.info("tidy-games: %s games left at a dead end ended, lost", ended)
        except Exception:
            logger.exception("tidy-games failed; trying again in %s s", EVERY_S)
        stop.wait(EVERY_S)
