"""Immutable game states and moves, and the event records that ``apply`` reports."""

from __future__ import annotations

from typing import Any, NamedTuple

Event = dict[str, Any]


class Pile(NamedTuple):
    """Cards from bottom to top; the lowest ``face_down`` of them lie face down."""

    cards: tuple[int, ...] = ()
    face_down: int = 0


EMPTY = Pile()


class State(NamedTuple):
    """A position. ``piles`` follows the variant's ``pile_ids`` order.

    Tuples all the way down, so a state can be shared, hashed and never changes; ``apply``
    builds a new one that reuses every pile the move did not touch.
    """

    variant: str
    seed: int | None
    move_number: int
    base_rank: int | None
    piles: tuple[Pile, ...]


class Move(NamedTuple):
    """``Move("move", "tableau:3", "foundation:1", 1)`` or ``DEAL``."""

    type: str
    source: str | None = None
    target: str | None = None
    count: int = 1

    def to_json(self) -> dict[str, Any]:
        if self.type == "deal":
            return {"type": "deal"}
        return {"type": "move", "from": self.source, "to": self.target, "count": self.count}

    def __str__(self) -> str:
        if self.type == "deal":
            return "deal"
        suffix = f" x{self.count}" if self.count != 1 else ""
        return f"{self.source} -> {self.target}{suffix}"


DEAL = Move("deal")
