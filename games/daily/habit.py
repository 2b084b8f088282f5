"""Coming back each day: the streak that forgives a missed day, and the monthly badges.

Pure functions of the UTC days a player played (a finished ranked attempt on the boards), so
that they are computed again from the results on every read, the same answer whatever the
order the results arrive in: no stored state to drift from the games.
"""

from __future__ import annotations

import calendar
import datetime as dt
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Literal

#: A freeze is earned for each this many days played in a row.
FREEZE_EVERY = 7
#: At most this many freezes are kept: more would make a streak that never ends.
MAX_FREEZES = 2

Badge = Literal["bronze", "silver", "gold"]
#: Days of a month with all five dailies played that each badge needs (gold: every day).
BRONZE_DAYS, SILVER_DAYS = 10, 20

ONE_DAY = dt.timedelta(days=1)


@dataclass(frozen=True)
class ForgivingStreak:
    current: int  # days played in the streak alive today (a day a freeze saved counts none)
    best: int  # the longest such streak ever
    freezes: int  # kept now, 0 to MAX_FREEZES
    saved: tuple[dt.date, ...] = field(default=())  # days of the current streak a freeze saved


def forgiving_streak(played: Collection[dt.date], today: dt.date) -> ForgivingStreak:
    """The streak of days played, as of ``today`` (a UTC day). Each ``FREEZE_EVERY`` days
    played in the streak earn a freeze (at most ``MAX_FREEZES`` kept); a missed day spends
    one, automatically, and the streak goes on; a missed day with none ends it. Today, not
    played yet, is missed by nobody: the day is still open. Days after ``today`` are ignored."""
    days = sorted(day for day in set(played) if day <= today)
    if not days:
        return ForgivingStreak(0, 0, 0)
    run = best = freezes = 0
    saved: list[dt.date] = []
    day = days[0]
    played_set = set(days)
    while day <= today:
        if day in played_set:
            run += 1
            best = max(best, run)
            if run % FREEZE_EVERY == 0:
                freezes = min(MAX_FREEZES, freezes + 1)
        elif day < today:
            if freezes:
                freezes -= 1
                saved.append(day)
            else:
                run, saved = 0, []
        day += ONE_DAY
    return ForgivingStreak(run, best, freezes, tuple(saved))


def month_days(year: int, month: int) -> list[dt.date]:
    """Every day of a month of the calendar."""
    return [dt.date(year, month, d) for d in range(1, calendar.monthrange(year, month)[1] + 1)]


def month_badge(full_days: Collection[dt.date], year: int, month: int) -> Badge | None:
    """The month's badge for its days with all five dailies played: bronze for
    ``BRONZE_DAYS``, silver for ``SILVER_DAYS``, gold for every day of the month (days of
    other months are not counted)."""
    every = month_days(year, month)
    count = len(set(full_days).intersection(every))
    if count == len(every):
        return "gold"
    if count >= SILVER_DAYS:
        return "silver"
    if count >= BRONZE_DAYS:
        return "bronze"
    return None
