"""A game's time: its active time, the one figure the player, the leaderboards and staff see.

Each entry of a game's history counts the time since the entry before it (the first entry:
since the game was dealt), less the time the player's page says the game was out of sight
(``away_ms``: a hidden tab, or the page not open at all), and at most ``CLOCK_CAP_SECONDS``
(300 s): a player who leaves a game for an hour and comes back has spent at most five minutes
on it. The cap bounds a tab left open, not a player's thought: a routine move takes seconds, and
at 60 s the page's clock stood still at 1:00 in front of players still thinking (issue 46; the
choice and its grounds: docs/api.md "A game's time").
An entry that ends the game without a move (a resignation, a day's close) counts nothing: giving
up is not playing, so an untouched game resigned after four minutes took 0 s.

Time away is the page's word, which the server cannot check. A casual game takes it (its time
is the player's own record only). A ranked attempt ignores it (``accepted_away_ms``): its time
ranks players, and a claim could only lower it; the cap already bounds what a hidden tab costs
there, a minute a move at most, and the page's clock of a ranked attempt does not pause.

The figure is stored on the game's row (``Game.active_ms``) as each entry is recorded
(``games.play.services.record``), and ``active_ms`` below computes it again from the history
(``received_at`` and ``away_ms`` of each entry): the backfill of games recorded before it
(migration 0011) and the checks use it. Pure Python, no Django but the setting's default.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from games.core.history import ENDINGS

#: The largest time away a page may report for one entry (a day), in milliseconds.
MAX_AWAY_MS = 86_400_000


def cap_ms() -> int:
    """``CLOCK_CAP_SECONDS`` in milliseconds: the most one entry of a history counts."""
    from django.conf import settings

    return round(settings.CLOCK_CAP_SECONDS * 1000)


def accepted_away_ms(ranked: bool, claimed: int | None) -> int:
    """What the service counts of the time away a page reports with an entry: all of it for a
    casual game, none for a ranked attempt (its time ranks players)."""
    if ranked or not claimed:
        return 0
    return max(0, min(int(claimed), MAX_AWAY_MS))


def gap_ms(previous: dt.datetime, received: dt.datetime) -> int:
    """Whole milliseconds from ``previous`` to ``received`` (0 if the clock went back)."""
    return max(0, (received - previous) // dt.timedelta(milliseconds=1))


def entry_ms(payload: Any, gap: int, away: int, cap: int) -> int:
    """What one history entry adds to its game's time: the ``gap`` (ms) since the entry before,
    less the time ``away`` from the game, at most ``cap``; nothing for an entry that ends the
    game without a move."""
    kind = payload.get("type") if isinstance(payload, dict) else None
    if kind in ENDINGS:
        return 0
    return max(0, min(gap - min(away, gap), cap))


def active_ms(
    started: dt.datetime,
    entries: Iterable[tuple[Any, dt.datetime, int]],
    cap: int | None = None,
) -> int:
    """A game's time, in milliseconds, from when it was dealt and its history's entries as
    ``(payload, received_at, away_ms)`` in order."""
    cap = cap_ms() if cap is None else cap
    total = 0
    previous = started
    for payload, received, away in entries:
        total += entry_ms(payload, gap_ms(previous, received), away or 0, cap)
        previous = received
    return total


def seconds(ms: int | None) -> float | None:
    """A time as the API gives it: seconds, to the millisecond."""
    return None if ms is None else round(ms / 1000, 3)
