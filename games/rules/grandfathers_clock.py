"""Grandfather's Clock: twelve foundations round a dial, each finished at its own hour."""

from __future__ import annotations

from .building import ANY_SUIT, SAME_SUIT, Build
from .cards import QUEEN, RANK, new_deck, parse_card
from .state import Pile
from .variant import Variant

#: The starting card of each foundation, from 12 o'clock (foundation:0) clockwise.
CLOCK_FACE = tuple(
    parse_card(code)
    for code in ("9C", "TH", "JS", "QD", "KC", "2H", "3S", "4D", "5C", "6H", "7S", "8D")
)
#: The rank that completes each foundation: its hour (Queen is 12, Ace 1, Jack 11).
HOUR_RANK = (QUEEN, *range(1, 12))
PILES = 8


class GrandfathersClock(Variant):
    slug = "grandfathers-clock"
    name = "Grandfather's Clock"
    description = (
        "Twelve foundations set out as a clock face, each built up in suit until its top card "
        "shows its hour; eight face-up piles build down regardless of suit."
    )
    pile_ids = (*(f"foundation:{i}" for i in range(12)), *(f"tableau:{i}" for i in range(PILES)))
    routes = frozenset({("tableau", "tableau"), ("tableau", "foundation")})
    tableau = Build(-1, ANY_SUIT, wrap=True)
    foundation = Build(+1, SAME_SUIT, wrap=True)

    def _deck(self) -> list[int]:
        return [card for card in new_deck() if card not in CLOCK_FACE]

    def _lay_out(self, deck: list[int]) -> tuple[dict[str, Pile], int | None]:
        # Five rounds of one card to each of the eight piles, all face up.
        piles = {f"tableau:{i}": Pile(tuple(deck[i::PILES])) for i in range(PILES)}
        foundations = {f"foundation:{i}": Pile((card,)) for i, card in enumerate(CLOCK_FACE)}
        return {**foundations, **piles}, None

    def _foundation_complete(self, pile: Pile, t: int) -> bool:
        return RANK[pile.cards[-1]] == HOUR_RANK[t]

    def pile_name(self, i: int) -> str:
        if self.kinds[i] == "foundation":
            return f"the {i or 12} o'clock foundation"
        return super().pile_name(i)
