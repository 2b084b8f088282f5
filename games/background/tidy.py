"""The ``tidy-games`` job: games where no move was ever made are deleted once they have been
left so for ``UNTOUCHED_GAME_MINUTES`` (``games.play.services.delete_untouched_games``), so that
saved games do not pile up; they were never shown as in progress nor counted anywhere."""

from __future__ import annotations

import datetime as dt
import logging
import threading

from django.conf import settings
from django.db import close_old_connections

logger = logging.getLogger("patience.worker")

#: Seconds between two rounds.
EVERY_S = 60.0


def tidy_once() -> int:
    """One round: every untouched game old enough deleted, in batches; how many were."""
    from games.play.services import delete_untouched_games

    minutes = settings.UNTOUCHED_GAME_MINUTES
    if minutes <= 0:
        return 0
    deleted = 0
    while batch := delete_untouched_games(dt.timedelta(minutes=minutes)):
        deleted += batch
    return deleted


def run(stop: threading.Event) -> None:
    while not stop.is_set():
        close_old_connections()
        try:
            if deleted := tidy_once():
                logger.info("tidy-games: %s untouched games deleted", deleted)
        except Exception:
            logger.exception("tidy-games failed; trying again in %s s", EVERY_S)
        stop.wait(EVERY_S)
