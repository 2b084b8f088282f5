"""Selective Castle: one deck face up on eight piles; the first card home sets the base rank."""

from __future__ import annotations

from .building import ANY_SUIT, SAME_SUIT, Build
from .solving import DEAL_NONE, SAFE_ANY_SUIT, SETTLE_TURN_UP, CorePlay, SearchPass, SolverProfile
from .state import EMPTY, Pile
from .table import Row, Table, numbered, slots
from .variant import Variant

PILES = 8


class SelectiveCastle(Variant):
    slug = "selective-castle"
    name = "Selective Castle"
    description = (
        "One deck, all face up on eight piles. The first card you play to a foundation sets the "
        "base rank; foundations build up in suit around the corner, the tableau down in any suit."
    )
    pile_ids = (*numbered("foundation", 4), *numbered("tableau", PILES))
    table = Table(
        units=8.7,
        tall=6.2,
        rows=(
            Row(slots(numbered("foundation", 4)), justify="center"),
            Row(slots(numbered("tableau", PILES)), tableau=True),
        ),
        # A phone held upright: the foundations above the eight piles in two rows of four.
        narrow=Table(
            units=4.3,
            tall=8.9,
            rows=(
                Row(slots(numbered("foundation", 4))),
                Row(slots(numbered("tableau", PILES)[:4]), tableau=True),
                Row(slots(numbered("tableau", PILES)[4:]), tableau=True),
            ),
        ),
    )
    routes = frozenset({("tableau", "tableau"), ("tableau", "foundation")})
    tableau = Build(-1, ANY_SUIT, wrap=True)
    foundation = Build(+1, SAME_SUIT, wrap=True)
    foundation_start = "base_rank"

    solver = SolverProfile(
        passes=(SearchPass(dict(link=4, buried=3, empty=6), move_cost=20),),
        difficulty=(15_300, 42_100, 133_000),
        daily_order=1,
        foundations_interchangeable=True,
        safe_home=SAFE_ANY_SUIT,
        core=CorePlay(deal=DEAL_NONE, settle=SETTLE_TURN_UP),
    )

    def _lay_out(self, deck: list[int]) -> tuple[dict[str, Pile], int | None]:
        # One card at a time to piles 0-7 in turn; the seventh round reaches piles 0-3 only.
        columns = [tuple(deck[i::PILES]) for i in range(PILES)]
        piles = {f"tableau:{i}": Pile(column) for i, column in enumerate(columns)}
        return {**{f"foundation:{i}": EMPTY for i in range(4)}, **piles}, None
