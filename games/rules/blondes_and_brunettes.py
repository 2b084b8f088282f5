"""Blondes and Brunettes: two decks, a reserve of ten, foundations in alternating colours."""

from __future__ import annotations

from .building import ALTERNATE_COLOURS, Build
from .cards import CODE, RANK
from .solving import (
    DEAL_TO_WASTE,
    RELAX_WASTE_SET,
    SETTLE_REFILL,
    CorePlay,
    SearchPass,
    SolverProfile,
)
from .state import EMPTY, Event, Pile
from .table import Gap, Row, Slot, Table, numbered, slots
from .variant import Variant

RESERVE = 10
PILES = 9


class BlondesAndBrunettes(Variant):
    slug = "blondes-and-brunettes"
    name = "Blondes and Brunettes"
    description = (
        "Two decks. Eight foundations build up from a dealt base rank in alternating colours; "
        "nine tableau piles build down the same way and refill themselves from the stock."
    )
    decks = 2
    pile_ids = (
        "stock",
        "waste",
        "reserve",
        *numbered("foundation", 8),
        *numbered("tableau", PILES),
    )
    table = Table(
        units=9.8,
        tall=7.8,
        rows=(
            # The reserve fans ten cards: room for every corner even with several 10s among them.
            Row((Slot("stock"), Slot("waste"), Gap(0.5), Slot("reserve", span=6.5))),
            Row(slots(numbered("foundation", 8)), justify="center"),
            Row(slots(numbered("tableau", PILES)), tableau=True),
        ),
        # A phone held upright, six cards wide: the stock, the waste and the foundations in two
        # rows of four, the reserve across the table (room for its ten cards' corners), the
        # tableau in rows of five and four.
        narrow=Table(
            units=6.5,
            tall=8.5,
            rows=(
                Row((Slot("stock"), Slot("waste"), *slots(numbered("foundation", 8)[:4]))),
                Row((Gap(2), *slots(numbered("foundation", 8)[4:]))),
                Row((Slot("reserve", span=6),)),
                Row(slots(numbered("tableau", PILES)[:5]), tableau=True),
                Row(slots(numbered("tableau", PILES)[5:]), tableau=True),
            ),
        ),
    )
    routes = frozenset(
        {
            ("reserve", "foundation"),
            ("waste", "tableau"),
            ("waste", "foundation"),
            ("tableau", "tableau"),
            ("tableau", "foundation"),
        }
    )
    tableau = Build(-1, ALTERNATE_COLOURS, wrap=True)
    foundation = Build(+1, ALTERNATE_COLOURS, wrap=True)
    foundation_start = "base_rank"
    deal_count = 1

    solver = SolverProfile(
        passes=(SearchPass(dict(link=20, buried=5, empty=2, waste=3, reserve=15)),),
        difficulty=(543, 636, 927),
        daily_order=2,
        # One pass, so a win within 20,000 positions is the full search's own; 90 % of the
        # stored run's won deals win within 17,631 (29 % of all deals within 20,000, where a
        # deal not won costs the whole 5,000,000).
        daily_first_positions=20_000,
        foundations_interchangeable=True,
        refills_emptied_piles=True,
        keyed_by_colour=True,
        folds_deals=True,
        # An emptied tableau pile takes the stock's top card, else the waste's.
        core=CorePlay(deal=DEAL_TO_WASTE, settle=SETTLE_REFILL),
        # Its reserve goes home only, top first (games/solver/deadends.py); a position left
        # unknown is tried with the waste as a set (games/solver/relax.py).
        reserve_dead_end=True,
        relaxations=((RELAX_WASTE_SET,),),
    )

    def _lay_out(self, deck: list[int]) -> tuple[dict[str, Pile], int | None]:
        # Ten cards to the reserve, one to the first foundation, one to each tableau pile.
        reserve, base, row = deck[:RESERVE], deck[RESERVE], deck[RESERVE + 1 : RESERVE + 1 + PILES]
        stock = tuple(deck[RESERVE + 1 + PILES :])
        piles = {
            "stock": Pile(stock, len(stock)),
            "waste": EMPTY,
            "reserve": Pile(tuple(reserve)),
            **{f"foundation:{i}": EMPTY for i in range(8)},
            "foundation:0": Pile((base,)),
            **{f"tableau:{i}": Pile((card,)) for i, card in enumerate(row)},
        }
        return piles, RANK[base]

    def _settle(self, piles: list[Pile], events: list[Event], s: int, t: int) -> None:
        if self.kinds[s] == "tableau" and not piles[s].cards:
            self._fill(piles, events, s)

    def _fill(self, piles: list[Pile], events: list[Event], i: int) -> None:
        """An emptied tableau pile takes the stock's top card, else the waste's, at once."""
        for feeder in (self.stock_i, self.waste_i):
            cards = piles[feeder].cards  # type: ignore[index]
            if cards:
                rest = cards[:-1]
                piles[feeder] = Pile(rest, len(rest) if feeder == self.stock_i else 0)  # type: ignore[index]
                piles[i] = Pile(cards[-1:])
                events.append(
                    {
                        "type": "pile_filled",
                        "pile": self.pile_ids[i],
                        "from": self.pile_ids[feeder],
                        "card": CODE[cards[-1]],
                    }  # type: ignore[index]
                )
                return
