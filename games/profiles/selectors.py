"""Public player profiles: a player's daily results as anyone may see them."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import (
    Count,
    Expression,
    Min,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
)
from django.db.models.functions import Coalesce

from games.core.clock import seconds
from games.core.ranking import RANKING_ORDER, on_the_boards, with_ranking_keys
from games.daily.leaderboards import RESULT_FIELDS, _result, daily_streaks
from games.models import Game
from games.profiles import responses
from games.races import selectors as race_selectors
from games.rules import VARIANTS

RECENT_RESULTS = 20


def public_player(username: str) -> AbstractBaseUser | None:
    """The active account with exactly this username, else None (unknown or closed, or a
    guest: guests have no public profile)."""
    if "\x00" in username:  # PostgreSQL refuses NUL in a query: no username has one
        return None
    accounts = get_user_model().objects.filter(guest_profile__isnull=True)
    return accounts.filter(username=username, is_active=True).first()


def player_profile(player: AbstractBaseUser) -> responses.PlayerProfile:
    """What anyone may see of a player: their public competition, the daily challenges as the
    leaderboards count them (finished, not excluded). Nothing of casual games, no seed, no
    game id, no board. Four queries (stats, streaks, recent results, races), whatever the
    history."""
    return {
        "username": player.get_username(),
        "joined": player.date_joined.astimezone(dt.UTC).date(),
        "daily": _public_daily_stats(player),
        "daily_streaks": daily_streaks(player),
        "recent": _public_recent(player),
        "races": race_selectors.player_races(player),
    }


def _public_attempts(player: AbstractBaseUser) -> QuerySet[Game]:
    """The player's ranked daily attempts that are over and still on the leaderboards (a move
    made: ``on_the_boards``)."""
    return on_the_boards(Game.objects.filter(owner=player, daily__isnull=False)).exclude(
        status=Game.Status.PLAYING
    )


def _public_daily_stats(player: AbstractBaseUser) -> list[responses.PlayerDailyStats]:
    won = Q(status=Game.Status.WON)
    rows = {
        row["daily__variant"]: row
        for row in with_ranking_keys(_public_attempts(player))
        .order_by()
        .values("daily__variant")
        .annotate(
            played=Count("pk"),
            wins=Count("pk", filter=won),
            best_moves=Min("board_moves", filter=won),
            # The game's time (games.core.clock), as the day's leaderboard shows it.
            best_time=Min("active_ms", filter=won),
        )
    }
    stats: list[responses.PlayerDailyStats] = []
    for slug, variant in VARIANTS.items():
        row = rows.get(slug, {"played": 0, "wins": 0, "best_moves": None, "best_time": None})
        stats.append(
            {
                "variant": slug,
                "name": variant.name,
                "played": row["played"],
                "won": row["wins"],
                "win_rate": round(row["wins"] / row["played"], 4) if row["played"] else None,
                "best_moves": row["best_moves"],
                "best_time_seconds": seconds(row["best_time"]),
            }
        )
    return stats


def _ahead_of_outer_attempt() -> Q:
    """An attempt sorted before the outer query's attempt by RANKING_ORDER: better at the
    first key, or equal there and ahead at the next one, and so on."""
    ahead = Q()
    for key in reversed(RANKING_ORDER):
        name = key.lstrip("-")
        better = Q(**{f"{name}__{'gt' if key.startswith('-') else 'lt'}": OuterRef(name)})
        ahead = better | (Q(**{name: OuterRef(name)}) & ahead) if ahead else better
    return ahead


def _rank_on_its_board() -> Expression:
    """An attempt's place on its day's leaderboard: one more than the attempts there that
    RANKING_ORDER sorts before it (a count per row, on the board's index)."""
    board = on_the_boards(Game.objects.filter(daily=OuterRef("daily")))
    ahead = (
        with_ranking_keys(board)
        .filter(_ahead_of_outer_attempt())
        .order_by()
        .values("daily")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(ahead), 0) + 1


def _public_recent(player: AbstractBaseUser) -> list[responses.PlayerResult]:
    """The last results, newest day first, each with its rank on the day's leaderboard."""
    rows = (
        with_ranking_keys(_public_attempts(player))
        .annotate(rank=_rank_on_its_board())
        .order_by("-daily__date", "-reached", "-pk")
        .values("daily__date", "daily__variant", "rank", *RESULT_FIELDS)[:RECENT_RESULTS]
    )
    return [
        {
            "date": row["daily__date"],
            "variant": row["daily__variant"],
            "name": VARIANTS[row["daily__variant"]].name,
            "rank": row["rank"],
            **_result(row),
        }
        for row in rows
    ]
