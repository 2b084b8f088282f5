"""The daily challenges API's answers, as ``games.daily.selectors`` and
``games.daily.leaderboards`` build them (TypedDicts: the OpenAPI schema reads them,
``web.http.schema``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, TypedDict

from games.rules.shapes import FullState
from web.http.schema import IsoDate, Time


class AttemptSummary(TypedDict):
    game_id: int
    status: str
    cards_home: int
    moves: int
    rank: int | None


class DailyChallenge(TypedDict):
    variant: str
    name: str
    seed: Annotated[int | None, "Null until the day has closed."]
    attempts: int
    can_attempt: bool
    your_attempt: AttemptSummary | None
    ready: Annotated[
        bool,
        "Prepared: false while the solver is still proving the day's deal winnable (starting "
        "it then answers 503 daily_not_ready).",
    ]
    proven_winnable: Annotated[
        bool,
        "The solver has proven the deal winnable (every prepared daily deal is, unless the "
        "solver ran out of budget on every candidate, or staff kept a seed of theirs that is "
        "not).",
    ]
    difficulty: Annotated[
        Literal["easy", "medium", "hard", "expert"] | None,
        "How much search the solver needed to find a win (games/solver/difficulty.py); null "
        "when not proven winnable.",
    ]
    leader: Annotated[
        LeaderboardEntry | None,
        "The first on the day's leaderboard so far (its first row, as anyone sees it); null "
        "while nobody is on it.",
    ]
    solution_available: Annotated[
        bool,
        "The day has closed and GET /api/daily/{date}/{game}/solution/ shows how the deal "
        "could be won.",
    ]


class Streak(TypedDict):
    current: int
    best: int


class Streaks(TypedDict):
    overall: Streak
    by_variant: dict[str, Streak]


class DailyOverview(TypedDict):
    date: IsoDate
    today: IsoDate
    open: bool
    closes_at: Time
    challenges: list[DailyChallenge]
    streaks: Streaks | None


class SolverFigures(TypedDict):
    positions: int | None
    seconds: float | None


class DailySolution(TypedDict):
    """How a closed day's deal could be won: the solver's winning line from the deal."""

    date: IsoDate
    variant: str
    seed: int
    moves: Annotated[list[dict[str, Any]], "The winning line, in the moves' JSON."]
    length: Annotated[int, "How many moves the line has."]
    said: Annotated[
        list[str],
        "Each move of the line in a player's words, its cards named: '7\u2665 from pile 6 to "
        "the 7 o'clock foundation'.",
    ]
    solver: Annotated[SolverFigures, "What the solver searched to find it."]
    step: NotRequired[Annotated[int, "With ?step=N only: N."]]
    state: NotRequired[
        Annotated[FullState, "With ?step=N only: the board after N moves, every card shown."]
    ]
    events: NotRequired[
        Annotated[list[dict[str, Any]], "With ?step=N only: the automatic effects of move N."]
    ]


class AttemptResult(TypedDict):
    """How a ranked attempt did, as the leaderboards show it (``leaderboards._result``)."""

    status: str
    won: bool
    cards_home: int
    moves: int
    time_seconds: float


class LeaderboardEntry(AttemptResult):
    rank: int
    user: str


class DailyLeaderboard(TypedDict):
    date: IsoDate
    variant: str
    count: int
    page: int
    pages: int
    results: list[LeaderboardEntry]
    me: LeaderboardEntry | None


class AlltimeEntry(TypedDict):
    rank: int
    user: str
    played: int
    wins: int
    win_rate: float
    best_time_seconds: float | None


class AlltimeLeaderboard(TypedDict):
    variant: str
    min_games: int
    count: int
    page: int
    pages: int
    results: list[AlltimeEntry]


class WeekEntry(TypedDict):
    rank: int
    user: str
    played: int
    wins: int
    best_cards_home: Annotated[int, "The most cards home in one of these attempts."]
    best_time_seconds: float | None


class WeekLeaderboard(TypedDict):
    variant: str
    since: Annotated[IsoDate, "The first day counted (six days before today, UTC)."]
    to: Annotated[IsoDate, "The last day counted: today (UTC)."]
    count: int
    page: int
    pages: int
    results: list[WeekEntry]


class HabitStreak(TypedDict):
    """Days in a row with a daily played (a finished ranked attempt), forgiving: a freeze is
    earned for each 7 days in a row (at most 2 kept) and spent by itself on a missed day."""

    current: Annotated[int, "Days played in the streak alive now (a saved day counts none)."]
    best: int
    freezes: Annotated[int, "Freezes kept now, 0 to 2."]
    saved: Annotated[list[IsoDate], "The days of the current streak a freeze saved, oldest first."]


class MonthGame(TypedDict):
    variant: str
    name: str
    status: Annotated[str | None, "Your ranked attempt's status ('playing' while in play)."]
    played: Annotated[bool, "Finished and on the day's leaderboard."]
    won: bool


class MonthDay(TypedDict):
    date: IsoDate
    state: Literal["closed", "open", "upcoming"]
    challenges: Annotated[int, "How many games had a challenge that day (0: none was dealt)."]
    games: Annotated[list[MonthGame], "Per game, yours; empty when not signed in to an account."]
    all_played: Annotated[bool, "Every game's daily played that day."]


class DailyMonth(TypedDict):
    month: Annotated[str, "YYYY-MM"]
    today: IsoDate
    days: list[MonthDay]
    previous: Annotated[str | None, "The month before, when it had challenges."]
    next: Annotated[str | None, "The month after, when it has begun."]
    full_days: Annotated[int, "Your days of this month with all five played."]
    badge: Annotated[
        Literal["bronze", "silver", "gold"] | None,
        "Bronze for 10 days with all five played, silver for 20, gold for every day.",
    ]
    streak: HabitStreak | None


class MonthBadge(TypedDict):
    month: Annotated[str, "YYYY-MM"]
    badge: Literal["bronze", "silver", "gold"]
    full_days: int


class DailiesToday(TypedDict):
    date: IsoDate
    played: Annotated[int, "Today's dailies you have finished."]
    of: int
