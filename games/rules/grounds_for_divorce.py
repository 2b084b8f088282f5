"""Grounds for Divorce: two decks, ten piles, same-suit runs King to Ace leave for the discard."""

from __future__ import annotations

from .building import ANY_SUIT, SAME_SUIT, Build
from .cards import ACE, RANK, SUIT, SUIT_CHARS
from .solving import (
    DEAL_TO_PILES,
    RELAX_ANY_RUN,
    RELAX_DEAL_ANYWAY,
    SETTLE_RUNS,
    CorePlay,
    SearchPass,
    SolverProfile,
)
from .state import EMPTY, Event, Pile, State
from .table import Gap, Row, Slot, Table, numbered, slots
from .variant import Variant

PILES = 10
RUN = 13


class GroundsForDivorce(Variant):
    slug = "grounds-for-divorce"
    name = "Grounds for Divorce"
    description = (
        "Two decks, ten piles. Build down regardless of suit, move same-suit runs as a unit, "
        "and clear every card by completing runs from King to Ace in one suit."
    )
    decks = 2
    pile_ids = ("stock", "discard", *numbered("tableau", PILES))
    table = Table(
        units=10.9,
        tall=5.8,
        rows=(
            Row((Slot("discard", span=8), Gap(1), Slot("stock"))),
            Row(slots(numbered("tableau", PILES)), tableau=True),
        ),
        # A phone held upright: the ten piles in two rows of five, cards twice as wide.
        narrow=Table(
            units=5.4,
            tall=6.4,
            rows=(
                Row((Slot("discard", span=4), Slot("stock"))),
                Row(slots(numbered("tableau", 5)), tableau=True),
                Row(slots(numbered("tableau", PILES)[5:]), tableau=True),
            ),
        ),
    )
    routes = frozenset({("tableau", "tableau")})
    tableau = Build(-1, ANY_SUIT)
    group = Build(-1, SAME_SUIT)

    # The deal gives the stock's cards to the piles from left to right: their places count
    # while the stock has cards. Its positions between two deals are far too many to search,
    # so a first, narrow pass tries only moves that do something.
    solver = SolverProfile(
        passes=(
            SearchPass(
                dict(link=2, runs=10, face_down=20, empty=20, stock=20), share=0.7, narrow=True
            ),
            SearchPass(dict(link=2, runs=10, face_down=20, empty=20, stock=20), method="dfs"),
        ),
        difficulty=(9_220, 18_800, 58_800),
        daily_order=4,
        # The stored run's budget, split between the passes as it was there, so a win found
        # on it counts exactly what the difficulty thresholds were measured on; every one of
        # that run's won deals (22 %) won within it, all in the narrow pass's 140,000.
        daily_first_positions=200_000,
        tableau_always_interchangeable=False,
        discard_out_of_key=True,
        # A deal gives one card to each pile; a finished same-suit run leaves for the discard.
        core=CorePlay(deal=DEAL_TO_PILES, settle=SETTLE_RUNS),
        # A position left unknown is tried with deals past empty piles, then with any run
        # down moving as a unit too (games/solver/relax.py).
        relaxations=((RELAX_DEAL_ANYWAY,), (RELAX_ANY_RUN, RELAX_DEAL_ANYWAY)),
    )

    def _lay_out(self, deck: list[int]) -> tuple[dict[str, Pile], int | None]:
        # Round by round, one card to each pile left to right; the fifth round lies face up.
        columns = [deck[i : 5 * PILES : PILES] for i in range(PILES)]
        stock = tuple(deck[5 * PILES :])
        piles = {f"tableau:{i}": Pile(tuple(column), 4) for i, column in enumerate(columns)}
        return {"stock": Pile(stock, len(stock)), "discard": EMPTY, **piles}, None

    def _deal_refusal(self, state: State) -> str | None:
        if not state.piles[self.stock_i].cards:  # type: ignore[index]
            return "stock_empty"
        tableau = [state.piles[i].cards for i in self.tableau_idx]
        # Empty piles block a deal, unless the tableau is too thin to fill them all.
        if not all(tableau) and sum(map(len, tableau)) >= PILES:
            return "deal_blocked"
        return None

    def _deal_from_stock(self, piles: list[Pile], events: list[Event]) -> None:
        stock = list(piles[self.stock_i].cards)  # type: ignore[index]
        receivers = [i for i in self.tableau_idx if piles[i].cards] or list(self.tableau_idx)
        for i in receivers:
            if not stock:
                break
            pile = piles[i]
            piles[i] = Pile((*pile.cards, stock.pop()), pile.face_down)
        piles[self.stock_i] = Pile(tuple(stock), len(stock))  # type: ignore[index]
        self._remove_runs(piles, events, self.tableau_idx)

    def _settle(self, piles: list[Pile], events: list[Event], s: int, t: int) -> None:
        self._turn_up(piles, events, s)
        self._remove_runs(piles, events, (t,))

    def _remove_runs(
        self, piles: list[Pile], events: list[Event], candidates: tuple[int, ...] | list[int]
    ) -> None:
        """Move every finished run on top of a candidate pile to the discard, leftmost first."""
        discard = self.index["discard"]
        for i in candidates:
            pile = piles[i]
            cards = pile.cards
            if (
                len(cards) - pile.face_down >= RUN
                and RANK[cards[-1]] == ACE
                and self.group.run_length(cards, RUN) == RUN  # type: ignore[union-attr]
            ):
                piles[i] = Pile(cards[:-RUN], pile.face_down)
                piles[discard] = Pile(piles[discard].cards + cards[-RUN:], 0)
                events.append(
                    {
                        "type": "run_removed",
                        "pile": self.pile_ids[i],
                        "suit": SUIT_CHARS[SUIT[cards[-1]]],
                    }
                )
                self._turn_up(piles, events, i)
