"""Grandfather's Clock: twelve foundations round a dial, each finished at its own hour."""

from __future__ import annotations

from .building import ANY_SUIT, SAME_SUIT, Build
from .cards import QUEEN, RANK, new_deck, parse_card
from .solving import DEAL_NONE, SETTLE_TURN_UP, CorePlay, SearchPass, SolverProfile
from .state import Pile
from .table import Clock, Row, Table, numbered, slots
from .variant import Variant

#: The starting card of each foundation, from 12 o'clock (foundation:0) clockwise.
CLOCK_FACE = tuple(
    parse_card(code)
    for code in ("9C", "TH", "JS", "QD", "KC", "2H", "3S", "4D", "5C", "6H", "7S", "8D")
)
#: The rank that completes each foundation: its hour (Queen is 12, Ace 1, Jack 11).
HOUR_RANK = (QUEEN, *range(1, 12))
#: The hour each foundation stands at, as the dial writes it: "12", "1", …, "11".
HOURS = tuple(str(i or 12) for i in range(12))
PILES = 8


class GrandfathersClock(Variant):
    slug = "grandfathers-clock"
    name = "Grandfather's Clock"
    description = (
        "Twelve foundations set out as a clock face, each built up in suit until its top card "
        "shows its hour; eight face-up piles build down regardless of suit."
    )
    pile_ids = (*numbered("foundation", 12), *numbered("tableau", PILES))
    # The clock beside the tableau on a wide board, above it on a narrow one, where a
    # phone-width board draws it as a compact frame rather than an ellipse (site.css).
    table = Table(
        units=8.7,
        tall=11.6,
        rows=(
            Clock(numbered("foundation", 12), beside_units=15.6, beside_tall=7.3, frame_tall=8.8),
            Row(slots(numbered("tableau", PILES)), tableau=True),
        ),
        # A phone held upright: the clock flattened to a band across the whole width (seven
        # columns, 9 and 3 at its ends, two rows between them: 3.4 card widths of height),
        # the eight piles below it in two rows of four, down the screen's height. Cards
        # 44.5 px wide at 360 px, where one row of eight piles would make them 38.8.
        narrow=Table(
            units=7.6,
            tall=9.4,
            rows=(
                Clock(numbered("foundation", 12), beside_units=0, beside_tall=0, frame_tall=3.4),
                Row(slots(numbered("tableau", PILES)[:4]), tableau=True, justify="center"),
                Row(slots(numbered("tableau", PILES)[4:]), tableau=True, justify="center"),
            ),
        ),
    )
    routes = frozenset({("tableau", "tableau"), ("tableau", "foundation")})
    tableau = Build(-1, ANY_SUIT, wrap=True)
    foundation = Build(+1, SAME_SUIT, wrap=True)

    def _deck(self) -> list[int]:
        return [card for card in new_deck() if card not in CLOCK_FACE]

    # Each foundation has its hour: not interchangeable.
    solver = SolverProfile(
        passes=(SearchPass(dict(link=4, buried=3, empty=6), move_cost=50),),
        difficulty=(265, 310, 395),
        daily_order=0,
        core=CorePlay(deal=DEAL_NONE, settle=SETTLE_TURN_UP),
    )

    def _lay_out(self, deck: list[int]) -> tuple[dict[str, Pile], int | None]:
        # Five rounds of one card to each of the eight piles, all face up.
        piles = {f"tableau:{i}": Pile(tuple(deck[i::PILES])) for i in range(PILES)}
        foundations = {f"foundation:{i}": Pile((card,)) for i, card in enumerate(CLOCK_FACE)}
        return {**foundations, **piles}, None

    def _foundation_complete(self, pile: Pile, t: int) -> bool:
        return RANK[pile.cards[-1]] == HOUR_RANK[t]

    def pile_name(self, i: int) -> str:
        if self.kinds[i] == "foundation":
            return f"the {HOURS[i]} o'clock foundation"
        return super().pile_name(i)

    def pile_label(self, i: int) -> str | None:
        return HOURS[i] if self.kinds[i] == "foundation" else None

    def complete_rank(self, i: int) -> int | None:
        return HOUR_RANK[i] if self.kinds[i] == "foundation" else None
