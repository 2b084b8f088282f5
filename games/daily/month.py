"""A month of dailies: each day's five games as the player did them, the month's badge, and the
streak that forgives (``games.daily.habit``), all read from the results."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from accounts.guests import is_guest
from games.core import days
from games.core.ranking import on_the_boards
from games.daily import habit, responses
from games.models import DailyChallenge, Game
from games.rules import VARIANTS


def _played_attempts(user: AbstractBaseUser) -> QuerySet[Game]:
    """The player's finished ranked attempts as the boards count them: a day is played with
    these (an attempt still in play, or one staff took off the boards, plays no day)."""
    return on_the_boards(Game.objects.filter(owner=user, daily__isnull=False)).exclude(
        status=Game.Status.PLAYING
    )


def played_days(user: AbstractBaseUser) -> dict[dt.date, set[str]]:
    """Each UTC day the player played, with the games played that day."""
    played: dict[dt.date, set[str]] = defaultdict(set)
    for date, variant in _played_attempts(user).values_list("daily__date", "daily__variant"):
        played[date].add(variant)
    return played


def full_days(played: dict[dt.date, set[str]]) -> set[dt.date]:
    """The days with every game's daily played (all five)."""
    every = set(VARIANTS)
    return {date for date, games in played.items() if every <= games}


def forgiving_streak(user: AbstractBaseUser) -> responses.HabitStreak:
    """The player's streak of days played, forgiving (``habit.forgiving_streak``)."""
    return _streak(played_days(user))


def _streak(played: dict[dt.date, set[str]]) -> responses.HabitStreak:
    streak = habit.forgiving_streak(played.keys(), days.today())
    return {
        "current": streak.current,
        "best": streak.best,
        "freezes": streak.freezes,
        "saved": list(streak.saved),
    }


def dailies_today(user: AbstractBaseUser) -> responses.DailiesToday:
    """How many of today's dailies the player has played (finished), of how many games."""
    played = _played_attempts(user).filter(daily__date=days.today()).count()
    return {"date": days.today(), "played": played, "of": len(VARIANTS)}


def monthly_badges(user: AbstractBaseUser) -> list[responses.MonthBadge]:
    """Every month the player earned a badge in, newest first."""
    full = full_days(played_days(user))
    months = sorted({(d.year, d.month) for d in full}, reverse=True)
    badges: list[responses.MonthBadge] = []
    for year, month in months:
        badge = habit.month_badge(full, year, month)
        if badge:
            count = sum(1 for d in full if (d.year, d.month) == (year, month))
            badges.append({"month": f"{year:04d}-{month:02d}", "badge": badge, "full_days": count})
    return badges


def daily_month(user: AbstractBaseUser | None, year: int, month: int) -> responses.DailyMonth:
    """The month's calendar: for each day, whether it had challenges, whether it is closed,
    open or to come, and (for a signed-in account) each game's daily as the player did it. No
    seed, no deal: a day's deals are the day's page's, once closed."""
    every = habit.month_days(year, month)
    today = days.today()
    dealt: dict[dt.date, int] = defaultdict(int)
    for date in DailyChallenge.objects.filter(date__gte=every[0], date__lte=every[-1]).values_list(
        "date", flat=True
    ):
        dealt[date] += 1
    account = user is not None and user.is_authenticated and not is_guest(user)
    mine: dict[tuple[dt.date, str], Game] = {}
    played: dict[dt.date, set[str]] = {}
    if account:
        attempts = Game.objects.filter(
            owner=user, ranked=True, daily__date__gte=every[0], daily__date__lte=every[-1]
        ).select_related("daily")
        mine = {(g.daily.date, g.daily.variant): g for g in attempts}
        played = played_days(user)
    full = full_days(played)
    counted = on_the_boards(Game.objects.filter(pk__in=[g.pk for g in mine.values()]))
    on_boards = set(counted.values_list("pk", flat=True))
    calendar_days: list[responses.MonthDay] = []
    for date in every:
        state = "closed" if date < today else "open" if date == today else "upcoming"
        games: list[responses.MonthGame] = []
        for slug, variant in VARIANTS.items():
            game = mine.get((date, slug))
            games.append(
                {
                    "variant": slug,
                    "name": variant.name,
                    # Only one's own attempts: "playing" for one not over yet.
                    "status": game.status if game else None,
                    "played": bool(
                        game and game.status != Game.Status.PLAYING and game.pk in on_boards
                    ),
                    "won": bool(game and game.status == Game.Status.WON and game.pk in on_boards),
                }
            )
        calendar_days.append(
            {
                "date": date,
                "state": state,
                "challenges": dealt.get(date, 0),
                "games": games if account else [],
                "all_played": date in full,
            }
        )
    first = DailyChallenge.objects.order_by("date").values_list("date", flat=True).first()
    # Neighbours by (year, month), not by date arithmetic: 0001-01 and 9999-12 have none.
    before = (year, month - 1) if month > 1 else (year - 1, 12)
    after = (year, month + 1) if month < 12 else (year + 1, 1)
    return {
        "month": f"{year:04d}-{month:02d}",
        "today": today,
        "days": calendar_days,
        "previous": f"{before[0]:04d}-{before[1]:02d}" if first and first < every[0] else None,
        "next": f"{after[0]:04d}-{after[1]:02d}" if every[-1] < today else None,
        "full_days": sum(1 for d in full if (d.year, d.month) == (year, month)),
        "badge": habit.month_badge(full, year, month) if account else None,
        "streak": _streak(played) if account else None,
    }
