"""A race's result order, pure: won first, then more cards home, then less time, then fewer
moves (issue 47). Players equal on all four share a place, and the next place skips as many
(1, 1, 3), as the daily boards do."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Standing:
    """What a player's place is decided on."""

    won: bool
    cards_home: int
    time_ms: int
    moves: int

    def key(self) -> tuple[int, int, int, int]:
        return (0 if self.won else 1, -self.cards_home, self.time_ms, self.moves)


def places(standings: Sequence[Standing]) -> list[int]:
    """Each standing's place (1 the best), in the order given."""
    keys = [standing.key() for standing in standings]
    ordered = sorted(keys)
    return [ordered.index(key) + 1 for key in keys]
