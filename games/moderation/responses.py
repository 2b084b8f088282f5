"""The staff review API's answer, as ``games.moderation.review`` builds it (TypedDicts: the
OpenAPI schema reads them, ``web.http.schema``)."""

from __future__ import annotations

from typing import Annotated, TypedDict

from games.play.responses import GameSummary, HistoryEntry
from games.rules.shapes import FullState
from web.http.schema import Time


class StaffGame(GameSummary):
    owner: str
    excluded: bool
    flagged: Annotated[bool, "The game has an open flag."]
    cards_home: int
    board_moves: int


class TimedEntry(HistoryEntry):
    gap_ms: Annotated[float, "Since the entry before (the first: the start)."]


class StepError(TypedDict):
    step: int
    message: str


class Verification(TypedDict):
    ok: bool
    step: Annotated[int | None, "The first step that is wrong."]
    problem: str | None


class Flag(TypedDict):
    id: int
    reason: str
    detail: str
    automatic: bool
    created_by: str | None
    created_at: Time
    cleared_at: Time | None
    cleared_by: str | None
    cleared_reason: str


class ReviewStep(TypedDict):
    """History entry ``step`` with the whole board before and after it (``review_step``)."""

    step: int
    move_number: int
    entry: Annotated[TimedEntry | None, "History entry `step` (0: none)."]
    before: FullState | None
    after: Annotated[FullState | None, "Null where the history breaks."]
    error: StepError | None


class StaffReview(ReviewStep):
    game: StaffGame
    verification: Verification
    flags: list[Flag]
    timeline: list[TimedEntry]
