"""The worker's ``races`` job: every second, the races whose countdown or time limit is over
are settled (``services.settle_due``), so that a room ends on time and its watchers are told,
though nobody moves or reads it."""

from __future__ import annotations

import logging
import threading

from django.db import close_old_connections

logger = logging.getLogger("patience.worker")

#: Seconds between two rounds: a race's end is told within about this long.
EVERY_S = 1.0


def run(stop: threading.Event) -> None:
    from games.races.services import settle_due

    while not stop.is_set():
        close_old_connections()
        try:
            settle_due()
        except Exception:
            logger.exception("races failed; trying again in %s s", EVERY_S)
        stop.wait(EVERY_S)
