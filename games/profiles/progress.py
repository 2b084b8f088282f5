"""Progress over time, as the profile pages draw it: per game, the win rate week by week, the
moves and time of wins (their spread and the best), the cards home in losses; and a calendar
of the player's daily results. ``series`` is a pure function of the finished games' rows."""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import NamedTuple

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from games.core import days
from games.core.clock import seconds
from games.core.ranking import on_the_boards
from games.daily.month import monthly_badges
from games.models import UNTOUCHED, Game
from games.profiles import responses
from games.rules import VARIANTS

#: The weeks a win-rate chart covers, this one and those before it.
WEEKS = 26
#: The wins whose moves and time are drawn, the newest (the best is of every win).
WIN_POINTS = 100
#: The days the calendar of daily results covers, today and those before it.
CALENDAR_DAYS = 26 * 7


class Row(NamedTuple):
    """One finished game, as the charts read it."""

    variant: str
    status: str
    cards_home: int
    moves: int
    active_ms: int | None
    day: dt.date  # the UTC day it finished


def week_start(day: dt.date) -> dt.date:
    """The Monday of a day's week (ISO weeks, UTC days)."""
    return day - dt.timedelta(days=day.weekday())


def spread(values: list[float]) -> responses.Spread | None:
    """Least, quartiles (linear between ranks, as a box plot draws them) and most."""
    if not values:
        return None
    ordered = sorted(values)

    def quantile(q: float) -> float:
        at = q * (len(ordered) - 1)
        low = int(at)
        high = min(low + 1, len(ordered) - 1)
        return round(ordered[low] + (ordered[high] - ordered[low]) * (at - low), 3)

    return {
        "min": ordered[0],
        "q1": quantile(0.25),
        "median": quantile(0.5),
        "q3": quantile(0.75),
        "max": ordered[-1],
    }


def series(rows: Iterable[Row], today: dt.date) -> list[responses.GameProgress]:
    """Per game of the catalogue: the charts' series from its finished games (oldest first)."""
    by_variant: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        by_variant[row.variant].append(row)
    first_week = week_start(today) - dt.timedelta(weeks=WEEKS - 1)
    progress: list[responses.GameProgress] = []
    for slug, variant in VARIANTS.items():
        games = sorted(by_variant.get(slug, []), key=lambda r: r.day)
        weeks: dict[dt.date, list[int]] = {}
        for row in games:
            start = week_start(row.day)
            if start >= first_week:
                tally = weeks.setdefault(start, [0, 0])
                tally[0] += 1
                tally[1] += row.status == Game.Status.WON
        wins = [row for row in games if row.status == Game.Status.WON]
        recent = wins[-WIN_POINTS:]
        timed = [seconds(r.active_ms) for r in recent if r.active_ms is not None]
        losses = Counter(row.cards_home for row in games if row.status != Game.Status.WON)
        progress.append(
            {
                "variant": slug,
                "name": variant.name,
                "cards": 52 * variant.decks,
                "played": len(games),
                "won": len(wins),
                "weeks": [
                    {
                        "week": start,
                        "played": played,
                        "won": won,
                        "win_rate": round(won / played, 4),
                    }
                    for start, (played, won) in sorted(weeks.items())
                ],
                "wins": [
                    {"day": r.day, "moves": r.moves, "time_seconds": seconds(r.active_ms)}
                    for r in recent
                ],
                "moves": spread([float(r.moves) for r in recent]),
                "time_seconds": spread([t for t in timed if t is not None]),
                "best_moves": min((r.moves for r in wins), default=None),
                "best_time_seconds": min(
                    (seconds(r.active_ms) for r in wins if r.active_ms is not None), default=None
                ),
                "losses_cards_home": [
                    {"cards_home": home, "games": count} for home, count in sorted(losses.items())
                ],
            }
        )
    return progress


def _rows(games: QuerySet[Game]) -> list[Row]:
    finished = games.exclude(status=Game.Status.PLAYING).exclude(UNTOUCHED)
    fields = ("deal__variant", "status", "cards_home", "board_moves", "active_ms")
    rows = []
    for *values, finished_at, created in finished.values_list(*fields, "finished_at", "created_at"):
        when = finished_at or created
        rows.append(Row(*values, day=when.astimezone(dt.UTC).date()))
    return rows


def own_progress(user: AbstractBaseUser) -> responses.Progress:
    """A player's own: every finished game, casual and ranked (the profile's statistics)."""
    return {
        "games": series(_rows(Game.objects.filter(owner=user)), days.today()),
        "daily_days": daily_calendar(user),
        "badges": monthly_badges(user),
    }


def public_progress(player: AbstractBaseUser) -> responses.Progress:
    """What anyone may see: the ranked daily attempts the leaderboards count, nothing casual."""
    attempts = on_the_boards(Game.objects.filter(owner=player, daily__isnull=False))
    return {
        "games": series(_rows(attempts), days.today()),
        "daily_days": daily_calendar(player),
        "badges": monthly_badges(player),
    }


def daily_calendar(player: AbstractBaseUser) -> list[responses.DailyDay]:
    """The days of the last ``CALENDAR_DAYS`` on which the player played a daily (a finished
    attempt on the boards), with how many were played and won (days not played are left out)."""
    since = days.today() - dt.timedelta(days=CALENDAR_DAYS - 1)
    attempts = on_the_boards(
        Game.objects.filter(owner=player, daily__isnull=False, daily__date__gte=since)
    ).exclude(status=Game.Status.PLAYING)
    tally: dict[dt.date, list[int]] = {}
    for date, status in attempts.values_list("daily__date", "status"):
        entry = tally.setdefault(date, [0, 0])
        entry[0] += 1
        entry[1] += status == Game.Status.WON
    return [
        {"date": date, "played": played, "won": won}
        for date, (played, won) in sorted(tally.items())
    ]
