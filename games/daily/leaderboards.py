"""The daily and all-time leaderboards, and a player's daily streaks."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import (
    Count,
    ExpressionWrapper,
    F,
    FloatField,
    Max,
    Min,
    Q,
    QuerySet,
    Window,
)
from django.db.models.functions import Rank

from games.core import days
from games.core.clock import seconds
from games.core.pages import page_start
from games.core.ranking import on_the_boards, ranked_attempts
from games.daily import responses
from games.models import DailyChallenge, Game
from games.rules import VARIANTS


def staff_daily_board(challenge: DailyChallenge) -> list[tuple[str, Game]]:
    """A challenge's ranked attempts for staff, with their owners: (rank, game) best first,
    then ("excluded", game) for those taken off the leaderboard."""
    ranked = ranked_attempts(challenge.date, challenge.variant).select_related("owner")
    excluded = challenge.games.filter(ranked=True, excluded=True).select_related("owner")
    rows = [(str(rank), game) for rank, game in enumerate(ranked, start=1)]
    return rows + [("excluded", game) for game in excluded]


def _entry(rank: int, row: dict[str, Any]) -> responses.LeaderboardEntry:
    return {"rank": rank, "user": row["owner__username"], **_result(row)}


def _result(row: dict[str, Any]) -> responses.AttemptResult:
    """How an attempt did, as a leaderboard entry shows it."""
    return {
        "status": row["status"],
        "won": bool(row["won"]),
        "cards_home": row["cards_home"],
        "moves": row["board_moves"],
        "time_seconds": seconds(row["active_ms"]),
    }


RESULT_FIELDS = ("status", "won", "cards_home", "board_moves", "active_ms")  # what _result reads


LEADERBOARD_FIELDS = ("owner_id", "owner__username", *RESULT_FIELDS)


def daily_leaderboard(
    date: dt.date, variant: str, user: AbstractBaseUser | None, *, page: int = 1, size: int = 50
) -> responses.DailyLeaderboard:
    """One page of the day's ranking, with the signed-in player's own entry wherever it is."""
    attempts = ranked_attempts(date, variant)
    count = attempts.count()
    start, pages = page_start(count, page, size)
    rows = attempts.values(*LEADERBOARD_FIELDS)[start : start + size]
    me = None
    if user is not None and user.is_authenticated:
        order = list(attempts.values_list("owner_id", flat=True))
        if user.pk in order:
            position = order.index(user.pk)
            me = _entry(position + 1, attempts.values(*LEADERBOARD_FIELDS)[position])
    return {
        "date": date,
        "variant": variant,
        "count": count,
        "page": page,
        "pages": pages,
        "results": [_entry(start + i + 1, row) for i, row in enumerate(rows)],
        "me": me,
    }


def daily_leader(date: dt.date, variant: str) -> responses.LeaderboardEntry | None:
    """The first of the day's ranking so far, or None: what the Leaderboards page shows of
    today's live boards (the board's own first row, nothing more)."""
    row = ranked_attempts(date, variant).values(*LEADERBOARD_FIELDS).first()
    return _entry(1, row) if row else None


def daily_board_exists(date: dt.date, variant: str) -> bool:
    """Whether the day has a board to watch: a day before today only if it has this game's
    challenge (every day's is kept, so these are the days the service has run); today and
    the days prepared ahead (``DAILY_PREPARE_DAYS``) always, their challenge being prepared
    or to be opened, and their page saying when they open. No other date."""
    today = days.today()
    if date > today + dt.timedelta(days=int(settings.DAILY_PREPARE_DAYS)):
        return False
    return date >= today or DailyChallenge.objects.filter(date=date, variant=variant).exists()


def daily_ranking(date: dt.date, variant: str) -> list[tuple[int, responses.LeaderboardEntry]]:
    """The whole day's ranking as (player id, entry), best first: for the live boards."""
    rows = ranked_attempts(date, variant).values(*LEADERBOARD_FIELDS)
    return [(row["owner_id"], _entry(rank, row)) for rank, row in enumerate(rows, start=1)]


def alltime_leaderboard(
    variant: str, *, page: int = 1, size: int = 50
) -> responses.AlltimeLeaderboard:
    """Players by ranked wins, then win rate, then best winning time (daily attempts only)."""
    minimum = settings.LEADERBOARD_MIN_GAMES
    won = Q(status=Game.Status.WON)
    players = (
        on_the_boards(Game.objects.filter(deal__variant=variant))
        .exclude(status=Game.Status.PLAYING)
        .values("owner__username")
        .annotate(
            played=Count("pk"),
            wins=Count("pk", filter=won),
            best_time=Min("active_ms", filter=won),
        )
        .filter(played__gte=minimum)
        .annotate(
            win_rate=ExpressionWrapper(F("wins") * 1.0 / F("played"), output_field=FloatField())
        )
    )
    standing = [F("wins").desc(), F("win_rate").desc(), F("best_time").asc(nulls_last=True)]
    count, pages, rows = _ranked_page(players, standing, page, size)
    return {
        "variant": variant,
        "min_games": minimum,
        "count": count,
        "page": page,
        "pages": pages,
        "results": [{**_player(row), "win_rate": round(row["win_rate"], 4)} for row in rows],
    }


def _ranked_page(
    players: QuerySet[Game, dict[str, Any]], standing: list[Any], page: int, size: int
) -> tuple[int, int, list[dict[str, Any]]]:
    """A board's players ranked by ``standing`` (equal records share a rank: 1, 1, 3; the name
    only orders them on the page): how many, how many pages, and the rows of ``page``."""
    players = players.annotate(rank=Window(Rank(), order_by=standing)).order_by(
        *standing, "owner__username"
    )
    count = players.count()
    start, pages = page_start(count, page, size)
    return count, pages, list(players[start : start + size])


def _player(row: dict[str, Any]) -> dict[str, Any]:
    """What every board says of a player's row."""
    return {
        "rank": row["rank"],
        "user": row["owner__username"],
        "played": row["played"],
        "wins": row["wins"],
        "best_time_seconds": seconds(row["best_time"]),
    }


#: The days a week's board covers: today and the six before it.
WEEK_DAYS = 7


def week_leaderboard(variant: str, *, page: int = 1, size: int = 50) -> responses.WeekLeaderboard:
    """The last seven days' board of one game: every player with a finished ranked attempt on
    one of those days' challenges, from the first (no minimum of games, unlike the all-time
    board), by wins, then the most cards home in one attempt (how close a player came when
    nobody won), then the best winning time. Equal records share a rank."""
    to = days.today()
    since = to - dt.timedelta(days=WEEK_DAYS - 1)
    won = Q(status=Game.Status.WON)
    games = Game.objects.filter(daily__variant=variant, daily__date__gte=since, daily__date__lte=to)
    players = (
        on_the_boards(games)
        .exclude(status=Game.Status.PLAYING)  # a result, as the all-time board counts them
        .values("owner__username")
        .annotate(
            played=Count("pk"),
            wins=Count("pk", filter=won),
            most_home=Max("cards_home"),
            best_time=Min("active_ms", filter=won),
        )
    )
    standing = [F("wins").desc(), F("most_home").desc(), F("best_time").asc(nulls_last=True)]
    count, pages, rows = _ranked_page(players, standing, page, size)
    return {
        "variant": variant,
        "since": since,
        "to": to,
        "count": count,
        "page": page,
        "pages": pages,
        "results": [{**_player(row), "best_cards_home": row["most_home"]} for row in rows],
    }


def daily_boards_entered(user: AbstractBaseUser) -> list[tuple[dt.date, str]]:
    """The (date, game) of every daily leaderboard the player has an attempt on."""
    boards = (
        Game.objects.filter(owner=user, ranked=True, daily__isnull=False)
        .values_list("daily__date", "daily__variant")
        .distinct()
    )
    return list(boards)


def daily_streaks(user: AbstractBaseUser) -> responses.Streaks:
    """Runs of consecutive UTC days with a won daily challenge: per game and overall. A win
    staff excluded from the leaderboards counts for no streak either."""
    won_days: dict[str, set[dt.date]] = defaultdict(set)
    for variant, date in Game.objects.filter(
        owner=user, ranked=True, daily__isnull=False, status=Game.Status.WON, excluded=False
    ).values_list("daily__variant", "daily__date"):
        won_days[variant].add(date)
    overall = set().union(*won_days.values()) if won_days else set()
    return {
        "overall": _streaks(overall),
        "by_variant": {slug: _streaks(won_days.get(slug, set())) for slug in VARIANTS},
    }


def _streaks(won: set[dt.date]) -> responses.Streak:
    best = run = 0
    previous = None
    for day in sorted(won):
        run = run + 1 if previous and day - previous == dt.timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    # A streak is still alive when today's challenge is not won yet but yesterday's was.
    current = 0
    day = days.today()
    if day not in won:
        day -= dt.timedelta(days=1)
    while day in won:
        current += 1
        day -= dt.timedelta(days=1)
    return {"current": current, "best": best}
