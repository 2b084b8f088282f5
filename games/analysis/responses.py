"""The analyses' answers (``GET``/``POST /api/games/<id>/analysis/``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, TypedDict

from games.rules.shapes import FullState


class Place(TypedDict):
    position: Annotated[int, "Moves that stood before it (undone ones not counted); 0: the deal."]
    step: Annotated[int, "The replay's step (history entries) at which the board showed it."]


class AnalysisResult(TypedDict):
    kind: Literal["won", "winnable_at_end", "lost_from_start", "lost_at", "range"]
    summary: Annotated[str, "What the analysis found, in a sentence."]
    moves: Annotated[int, "The moves of the player's line that stood (undone ones not counted)."]
    winnable: Annotated[Place | None, "The last position proven winnable (null: none was)."]
    lost: Annotated[Place | None, "The first position proven lost (null: none was)."]
    losing_step: Annotated[
        int | None, "kind lost_at only: the replay step of the move that lost the deal."
    ]
    line_from: Annotated[
        Place | None, "Where the solver's winning line starts (the last winnable position)."
    ]
    line: Annotated[list[dict[str, Any]], "The solver's winning line from there ([]: none)."]
    said: Annotated[list[str], "Each move of the line in a player's words, its cards named."]
    length: Annotated[int, "How many moves the line has (one found, not a proven shortest)."]
    searches: Annotated[int, "How many positions the solver searched."]


class AnalysisView(TypedDict):
    game_id: int
    state: Literal["not_asked", "queued", "running", "done", "failed"]
    searched: Annotated[int, "Searches made so far."]
    expected: Annotated[int, "About how many searches the analysis needs."]
    progress: Annotated[str, "The progress in words, for the page's progress line."]
    result: Annotated[AnalysisResult | None, "Once done."]
    step: NotRequired[Annotated[int, "With ?step=N only: N."]]
    board: NotRequired[
        Annotated[FullState, "With ?step=N only: the board after N moves of the line."]
    ]
