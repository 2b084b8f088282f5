"""A public player profile, as ``games.profiles.selectors`` builds it (TypedDicts: the OpenAPI
schema reads them, ``web.http.schema``)."""

from __future__ import annotations

from typing import Annotated, TypedDict

from games.daily.responses import AttemptResult, Streaks
from web.http.schema import IsoDate


class PlayerDailyStats(TypedDict):
    variant: str
    name: str
    played: Annotated[int, "Finished ranked attempts on the leaderboards."]
    won: int
    win_rate: float | None
    best_moves: Annotated[int | None, "Of a win."]
    best_time_seconds: Annotated[
        float | None, "Of a win: start to last move, as the leaderboards time it."
    ]


class PlayerResult(AttemptResult):
    date: Annotated[IsoDate, "The daily challenge's day."]
    variant: str
    name: str
    rank: Annotated[int, "On that day's leaderboard, as it stands now."]


class PlayerProfile(TypedDict):
    username: str
    joined: Annotated[IsoDate, "The day the account was created (UTC)."]
    daily: Annotated[list[PlayerDailyStats], "Per game, in the catalogue's order."]
    daily_streaks: Streaks
    recent: Annotated[list[PlayerResult], "The last 20 results, newest first."]
