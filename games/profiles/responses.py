"""A public player profile, as ``games.profiles.selectors`` builds it (TypedDicts: the OpenAPI
schema reads them, ``web.http.schema``)."""

from __future__ import annotations

from typing import Annotated, TypedDict

from games.daily.responses import AttemptResult, MonthBadge, Streaks
from games.races.responses import PlayerRace
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
    races: Annotated[list[PlayerRace], "The last 10 races that are over, newest first."]


class Spread(TypedDict):
    """Least, quartiles and most (a box plot's five figures)."""

    min: float
    q1: float
    median: float
    q3: float
    max: float


class WeekResult(TypedDict):
    week: Annotated[IsoDate, "The Monday of the week (UTC days)."]
    played: int
    won: int
    win_rate: float


class WinPoint(TypedDict):
    day: Annotated[IsoDate, "The UTC day it was won."]
    moves: int
    time_seconds: float | None


class LossHome(TypedDict):
    cards_home: int
    games: Annotated[int, "Games not won with that many cards home."]


class GameProgress(TypedDict):
    variant: str
    name: str
    cards: Annotated[int, "Cards in the game (all home: won)."]
    played: int
    won: int
    weeks: Annotated[list[WeekResult], "The last 26 weeks that had a finished game, oldest first."]
    wins: Annotated[list[WinPoint], "The last 100 wins, oldest first."]
    moves: Annotated[Spread | None, "Of those wins."]
    time_seconds: Annotated[Spread | None, "Of those wins."]
    best_moves: Annotated[int | None, "Of every win."]
    best_time_seconds: Annotated[float | None, "Of every win."]
    losses_cards_home: Annotated[list[LossHome], "Games not won, by cards home."]


class DailyDay(TypedDict):
    date: IsoDate
    played: int
    won: int


class Progress(TypedDict):
    games: Annotated[list[GameProgress], "Per game, in the catalogue's order."]
    daily_days: Annotated[
        list[DailyDay], "The last 182 days with a daily played (finished, on the boards)."
    ]
    badges: Annotated[list[MonthBadge], "Monthly badges earned, newest month first."]
