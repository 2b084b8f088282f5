"""The games API's answers, as ``games.play.selectors`` and ``games.play.hint_service`` build
them (TypedDicts: the OpenAPI schema reads them, ``web.http.schema``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, TypedDict

from drf_spectacular.types import OpenApiTypes

from games.models import VARIANT_CHOICES
from games.models import Game as GameRow
from games.rules.shapes import PlayerView
from web.http.schema import IsoDate, OneOf, Time

Link = Annotated[str, OpenApiTypes.URI]


class Counts(TypedDict):
    moves: int
    undos: int
    hints: int


class GameSummary(TypedDict):
    id: int
    variant: Annotated[str, OneOf(VARIANT_CHOICES)]
    seed: Annotated[int | None, "Null until the game is over, unless the player chose it."]
    status: Annotated[str, OneOf(GameRow.Status.choices)]
    move_number: Annotated[int, "History entries so far: the version."]
    ranked: bool
    daily: Annotated[IsoDate | None, "The daily challenge's day, if any."]
    winnable: Annotated[
        bool, "Dealt from the deals the solver has proven winnable: this deal can be won."
    ]
    counts: Counts
    created_at: Time
    last_move_at: Time | None
    finished_at: Time | None
    time_seconds: Annotated[
        float,
        "The game's time (docs/api.md, A game's time): the time between its history's entries, "
        "each at most CLOCK_CAP_SECONDS, less time away; as of its last entry.",
    ]


class GameClock(TypedDict):
    """What a game's clock shows and runs on from (one definition: ``games.core.clock``)."""

    seconds: Annotated[float, "The game's time as of its last entry (time_seconds)."]
    running_since: Annotated[
        Time | None,
        "In play: the last entry's time (the game's start before any), from which the clock "
        "runs on, by at most cap_seconds; null once the game is over.",
    ]
    cap_seconds: Annotated[float, "The most the time between two entries counts."]
    counts_time_away: Annotated[
        bool,
        "True for a ranked attempt: time with the game out of sight counts (up to the cap), "
        "away_ms is ignored; false: a page sends away_ms and its clock pauses meanwhile.",
    ]


class Abandoned(TypedDict):
    id: int
    abandoned: Annotated[
        Literal["deleted", "resigned", "ended"],
        "deleted: the game had no move (a casual game) and is gone, counted nowhere; "
        "resigned: it counts as a resignation; ended: it was at a dead end (a casual game) "
        "and counts as lost.",
    ]
    game: Annotated[Game | None, "The game as resign/ answers it; null if deleted."]


class GameRace(TypedDict):
    """The race a game is a player's game of (``games.races``): nothing of the other players."""

    code: Annotated[str, "The race's code: its room is /races/<code>/ (GET /api/races/<code>/)."]
    link: str
    undo: Annotated[bool, "The room's rule: undo is taken (else can_undo is false throughout)."]
    hints: Annotated[bool, "Always false: a race's game takes no hint (409 hints_not_allowed)."]


class Game(GameSummary):
    state: PlayerView
    clock: Annotated[GameClock, "What the play page's clock shows and runs on from."]
    legal_moves: list[dict[str, Any]]
    safe_home_moves: Annotated[
        list[dict[str, Any]],
        "The legal moves that send a card to a foundation when no card away from home could "
        "ever be put on it (the solver's safe rule), judged from the cards the player sees: "
        "what the page's automatic play sends, as ordinary moves, when set to safe cards only.",
    ]
    finishes_home: Annotated[
        bool,
        "True when nothing is hidden and sending cards to the foundations one at a time (the "
        "first such legal move each time) wins the game.",
    ]
    can_undo: Annotated[
        bool,
        "Whether POST undo/ would be accepted now: a casual game in play with a move on the "
        "board (one that showed hidden cards too, and at a dead end).",
    ]
    dead_end: Annotated[
        bool,
        "True for a casual game in play with no legal move left: undo out of it, or POST "
        "end/ to record it lost (so are starting another game and leaving it a while).",
    ]
    race: Annotated[
        GameRace | None, "The race this game is a player's game of; null for any other game."
    ]
    events: NotRequired[Annotated[list[dict[str, Any]], "After an action only."]]
    result: NotRequired[
        Annotated[Result, "Once the game is over only: how it went (games/play/results.py)."]
    ]


class DailyRank(TypedDict):
    rank: Annotated[int, "The attempt's place on its day's leaderboard now (1 is first)."]
    count: Annotated[int, "Ranked attempts on that leaderboard now."]


class Result(TypedDict):
    moves: Annotated[int, "Board moves (counts.moves)."]
    time_seconds: Annotated[
        float | None, "The game's time (docs/api.md, A game's time), as time_seconds."
    ]
    hints: int
    undos: int
    best_moves: Annotated[
        int | None, "The player's fewest moves in a win of this game before this one."
    ]
    best_time_seconds: Annotated[
        float | None, "The player's shortest time of a win of this game before this one."
    ]
    first_win: Annotated[bool, "Won, and the player's first win of this game."]
    beat_moves: Annotated[bool, "Won in fewer moves than best_moves."]
    beat_time: Annotated[bool, "Won in less time than best_time_seconds."]
    streak: Annotated[
        int,
        "Wins of this game in a row ending with this one, in the order the player's games "
        "finished (a game lost, resigned or closed ends a run); 0 unless won.",
    ]
    daily_rank: Annotated[
        DailyRank | None, "A ranked daily attempt's rank on the day's leaderboard; else null."
    ]


class GamePage(TypedDict):
    """A page of games, as DRF's ``PageNumberPagination`` writes it."""

    count: Annotated[int, "Games in all pages."]
    next: Link | None
    previous: Link | None
    results: list[GameSummary]


class HistoryEntry(TypedDict):
    number: int
    move: dict[str, Any]
    events: list[dict[str, Any]]
    received_at: Time
    cards: NotRequired[
        Annotated[
            list[str],
            "The cards the entry moved, bottom first (face up when moved); [] for a deal, an "
            "undo or an ending. In GET moves/ only.",
        ]
    ]
    said: NotRequired[
        Annotated[
            str,
            "The entry in a player's words, its cards named where they were face up: "
            "'7\u2665 from pile 6 to pile 5; 4\u2663 turned up on pile 6', 'Dealt from the "
            "stock', 'Took back 7\u2665 from pile 6 to pile 5'. In GET moves/ only.",
        ]
    ]


class Replay(TypedDict):
    game_id: int
    step: int
    move_number: int
    state: PlayerView


class Stats(TypedDict):
    variant: str
    played: int
    won: int
    win_rate: float | None
    best_moves: int | None
    best_time_seconds: float | None
    current_streak: int
    best_streak: int


class Hint(TypedDict):
    move: Annotated[
        dict[str, Any] | None,
        "A legal move to try; null when none leads anywhere new, or when the position is lost "
        "(no move can help then).",
    ]
    message: Annotated[
        str, 'The hint in words; for a lost position "This position can no longer be won."'
    ]
    source: Annotated[
        Literal["solver", "heuristic"],
        "solver: the move starts a win the solver found (where cards are hidden: in most of a "
        "few deals that fit what the player sees), or the position is proven lost; heuristic: "
        "the engine's rule-of-thumb choice (the solver found nothing in time).",
    ]
    lost: Annotated[
        bool,
        "True when the solver proved that no sequence of moves wins from here (only on a "
        "board with no card face down); then move is null.",
    ]
    move_number: Annotated[int, "The game's version it was asked of."]
    hints: Annotated[int, "Hints given in this game so far."]
