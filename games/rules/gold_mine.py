"""Gold Mine: one deck, everything starts in the stock, dealt three at a time in one pass."""

from __future__ import annotations

from .building import ALTERNATE_COLOURS, SAME_SUIT, Build
from .state import EMPTY, Pile
from .variant import Variant


class GoldMine(Variant):
    slug = "gold-mine"
    name = "Gold Mine"
    description = (
        "One deck, all of it in the stock. Deal three at a time in a single pass, build seven "
        "empty piles down in alternating colours, and build the foundations up by suit from Ace."
    )
    pile_ids = (
        "stock",
        "waste",
        *(f"foundation:{i}" for i in range(4)),
        *(f"tableau:{i}" for i in range(7)),
    )
    routes = frozenset(
        {
            ("waste", "tableau"),
            ("waste", "foundation"),
            ("tableau", "tableau"),
            ("tableau", "foundation"),
        }
    )
    tableau = Build(-1, ALTERNATE_COLOURS)
    group = Build(-1, ALTERNATE_COLOURS)
    foundation = Build(+1, SAME_SUIT)
    foundation_start = "ace"
    deal_count = 3

    def _lay_out(self, deck: list[int]) -> tuple[dict[str, Pile], int | None]:
        empty = {pile_id: EMPTY for pile_id in self.pile_ids}
        return {**empty, "stock": Pile(tuple(deck), len(deck))}, None
