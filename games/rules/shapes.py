"""A board in JSON (``notation``): the whole of it, as stored and as staff see it, and as its
player sees it. The API's answers hold them (``web.http.schema`` reads these TypedDicts): plain
typing, nothing of Django."""

from __future__ import annotations

from typing import Annotated, TypedDict


class PlayerPile(TypedDict):
    """A pile as its player sees it (``PlayerView``): its face-down cards hidden."""

    cards: Annotated[list[str | None], "Bottom to top; a face-down card is null."]
    face_down: int


class PlayerView(TypedDict):
    variant: str
    seed: int | None
    move_number: Annotated[int, "Moves on the board (undone ones not)."]
    base_rank: str | None
    piles: dict[str, PlayerPile]


class FullPile(TypedDict):
    cards: Annotated[list[str], "Bottom to top, every card (face-down too)."]
    face_down: int


class FullState(TypedDict):
    variant: str
    seed: int
    move_number: int
    base_rank: str | None
    piles: dict[str, FullPile]
