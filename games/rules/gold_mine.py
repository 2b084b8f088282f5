"""Gold Mine: one deck, everything starts in the stock, dealt three at a time in one pass."""

from __future__ import annotations

from .building import ALTERNATE_COLOURS, SAME_SUIT, Build
from .solving import (
    DEAL_TO_WASTE,
    RELAX_WASTE_SET,
    SAFE_ALTERNATE,
    SETTLE_TURN_UP,
    CorePlay,
    SearchPass,
    SolverProfile,
)
from .state import EMPTY, Pile
from .table import Row, Slot, Table, numbered, slots
from .variant import Variant


class GoldMine(Variant):
    slug = "gold-mine"
    name = "Gold Mine"
    description = (
        "One deck, all of it in the stock. Deal three at a time in a single pass, build seven "
        "empty piles down in alternating colours, and build the foundations up by suit from Ace."
    )
    pile_ids = ("stock", "waste", *numbered("foundation", 4), *numbered("tableau", 7))
    table = Table(
        units=7.93,
        tall=5.6,
        rows=(
            # The waste fans three cards: wide enough to show two 10s' corners side by side.
            Row(
                (Slot("stock"), Slot("waste", span=2.3, show=3), *slots(numbered("foundation", 4)))
            ),
            Row(slots(numbered("tableau", 7)), tableau=True, justify="space-between"),
        ),
        # A phone held upright: seven columns exactly (the waste two cards wide, still room for
        # two corners), the tableau in one row, where its long piles have the height.
        narrow=Table(
            units=7.6,
            tall=5.6,
            rows=(
                Row(
                    (
                        Slot("stock"),
                        Slot("waste", span=2, show=3),
                        *slots(numbered("foundation", 4)),
                    )
                ),
                Row(slots(numbered("tableau", 7)), tableau=True),
            ),
        ),
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

    solver = SolverProfile(
        # Five passes, each winning deals the others miss (issue 37; bench/README.md "Search
        # order"): one that keeps the waste short; the same charging 15 a move, which finds
        # the short lines the first loses among tableau shuffles (deals 0-99 within 1,000,000
        # positions: 86 won alone, 12 of the 15 the two older passes left within 2,000,000);
        # then three short ones, each winning quickly a few deals all the others miss (deals
        # 0-199: 11 and 125 the first, 21, 51 and 102 the second, 13 and 47 the older pass).
        passes=(
            SearchPass(dict(link=2, runs=2, buried=3, empty=10, waste=40), share=0.35),
            SearchPass(dict(link=2, runs=2, buried=3, empty=10, waste=40), move_cost=15, share=0.6),
            SearchPass(dict(link=2, runs=2, buried=3, empty=10, waste=100), share=0.4),
            SearchPass(dict(link=2, runs=2, buried=3, empty=30, waste=40), move_cost=5, share=0.5),
            SearchPass(dict(link=2, runs=2, buried=3, empty=10, waste=2)),
        ),
        # A hint's 250,000 positions split five ways leave the last passes too few: it
        # searches the first two and the older pass.
        hint_passes=(
            SearchPass(dict(link=2, runs=2, buried=3, empty=10, waste=40), share=0.35),
            SearchPass(dict(link=2, runs=2, buried=3, empty=10, waste=40), move_cost=15, share=0.6),
            SearchPass(dict(link=2, runs=2, buried=3, empty=10, waste=2)),
        ),
        difficulty=(42_700, 184_000, 482_000),
        daily_order=3,
        foundations_interchangeable=True,
        safe_home=SAFE_ALTERNATE,
        folds_deals=True,
        core=CorePlay(deal=DEAL_TO_WASTE, settle=SETTLE_TURN_UP),
        # A position left unknown is tried with the waste as a set (games/solver/relax.py).
        relaxations=((RELAX_WASTE_SET,),),
    )

    def _lay_out(self, deck: list[int]) -> tuple[dict[str, Pile], int | None]:
        empty = {pile_id: EMPTY for pile_id in self.pile_ids}
        return {**empty, "stock": Pile(tuple(deck), len(deck))}, None
