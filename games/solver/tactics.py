"""What the search knows of each game: canonical positions, safe moves and move order.

Each rule here is judged per game (``tests/solver/test_tactics.py`` checks them):

- **Canonical position** (the transposition table's key): piles that nothing tells apart are
  sorted, so positions that differ only in which of them holds what are searched once. Tableau
  piles are interchangeable in every game but Grounds for Divorce, whose deal gives the stock's
  cards to the piles from left to right (once its stock is out, they are interchangeable
  too). Foundations are interchangeable where any empty one takes the same cards (Gold Mine,
  Selective Castle, Blondes and Brunettes), not on Grandfather's Clock, where each has an hour.
  The move number and the seed are not part of a position.
- **Safe moves**: a card going home when nothing left away from home could ever be put on it
  in the tableau. Its only other use would be to hold such a card, so any win from here is
  still a win after it goes home (the move ends the search's choice at that position). Never
  the move that sets Selective Castle's base rank, and in Blondes and Brunettes never a move
  that empties a tableau pile while the stock or waste can refill it (the refill changes
  which card comes next).
- **Order**: cards home first, then moves that turn up a face-down card (deepest pile first),
  empty a pile, bring a waste or reserve card into play, or build (same-suit builds first,
  longer groups first); moves onto an empty pile late; the stock action, which cannot be
  taken back, last.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.rules import DEAL, Move, State, Variant
from games.rules.cards import SUIT

from .evaluation import Weights


@dataclass(frozen=True)
class Settings:
    """How to search one game: depth first ("dfs") or best first ("best") on the evaluation
    less ``move_cost`` per move made; both are complete (see ``search``)."""

    weights: Weights
    method: str = "best"
    move_cost: float = 1.0


SETTINGS = {
    "grounds-for-divorce": Settings(
        Weights(home=100, link=1, runs=4, face_down=12, empty=8), method="dfs"
    ),
    "gold-mine": Settings(Weights(home=100, link=0, buried=3, empty=4, waste=2)),
    "selective-castle": Settings(Weights(home=100, link=4, buried=3, empty=6), move_cost=20),
    "grandfathers-clock": Settings(Weights(home=100, link=4, buried=3, empty=6), move_cost=50),
    "blondes-and-brunettes": Settings(
        Weights(home=100, link=4, buried=3, empty=2, waste=1, reserve=8), method="dfs"
    ),
}

#: Games whose tableau piles are interchangeable while the stock still has cards.
TABLEAU_ALWAYS_INTERCHANGEABLE = frozenset(
    {"gold-mine", "selective-castle", "grandfathers-clock", "blondes-and-brunettes"}
)
#: Games whose empty foundations all take the same cards.
FOUNDATIONS_INTERCHANGEABLE = frozenset({"gold-mine", "selective-castle", "blondes-and-brunettes"})
#: Games where emptying a tableau pile refills it from the stock or waste at once.
REFILLS_EMPTIED_PILES = frozenset({"blondes-and-brunettes"})


class Tactics:
    """The per-game knowledge of one variant, precomputed for the search's inner loop."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        slug = variant.slug
        kinds = variant.kinds
        self.tableau = tuple(i for i, kind in enumerate(kinds) if kind == "tableau")
        self.foundations = tuple(i for i, kind in enumerate(kinds) if kind == "foundation")
        grouped = set(self.tableau)
        self.sort_foundations = slug in FOUNDATIONS_INTERCHANGEABLE
        if self.sort_foundations:
            grouped |= set(self.foundations)
        self.fixed = tuple(i for i in range(len(kinds)) if i not in grouped)
        self.tableau_always_sorted = slug in TABLEAU_ALWAYS_INTERCHANGEABLE
        self.refills = slug in REFILLS_EMPTIED_PILES
        self.sets_base_rank = variant.foundation_start == "base_rank"
        self.home = frozenset(variant.home_idx)
        self.away = variant.away_idx
        self.stock = variant.stock_i
        self.waste = variant.waste_i
        self.index = variant.index
        self.kind_of = dict(zip(variant.pile_ids, kinds, strict=True))
        fits = variant.tableau.fits
        #: For each card, the cards that may be put on it in the tableau.
        self.guests = tuple(frozenset(c for c in range(52) if fits(c, host)) for host in range(52))

    # -- the transposition table's key ----------------------------------------------------

    def key(self, state: State) -> tuple[Any, ...]:
        piles = state.piles
        fixed = tuple(piles[i] for i in self.fixed)
        tableau = tuple(piles[i] for i in self.tableau)
        if self.tableau_always_sorted or not piles[self.stock].cards:  # type: ignore[index]
            tableau = tuple(sorted(tableau))
        if self.sort_foundations:
            foundations = tuple(sorted(piles[i] for i in self.foundations))
            return (state.base_rank, fixed, tableau, foundations)
        return (state.base_rank, fixed, tableau)

    # -- safe moves -----------------------------------------------------------------------

    def safe_move(self, state: State, moves: list[Move]) -> Move | None:
        """A move to make at once, dropping the position's other moves; None if none is safe."""
        for move in moves:
            if (
                move.type == "move"
                and self.kind_of[move.target] == "foundation"  # type: ignore[index]
                and self._is_safe_home(state, move)
            ):
                return move
        return None

    def _is_safe_home(self, state: State, move: Move) -> bool:
        if self.sets_base_rank and state.base_rank is None:
            return False  # choosing the base rank is a real choice
        piles = state.piles
        s = self.index[move.source]  # type: ignore[index]
        if (
            self.refills
            and self.kind_of[move.source] == "tableau"  # type: ignore[index]
            and len(piles[s].cards) == 1
            and (piles[self.stock].cards or piles[self.waste].cards)  # type: ignore[index]
        ):
            return False
        guests = self.guests[piles[s].cards[-1]]
        return not any(card in guests for i in self.away for card in piles[i].cards)

    # -- move order ----------------------------------------------------------------------

    def ordered(self, state: State, moves: list[Move]) -> list[Move]:
        """The moves, most promising first."""
        return sorted(moves, key=lambda move: self._priority(state, move), reverse=True)

    def _priority(self, state: State, move: Move) -> int:
        if move is DEAL or move.type == "deal":
            return 0
        piles = state.piles
        s, t = self.index[move.source], self.index[move.target]  # type: ignore[index]
        if t in self.home:
            return 1000
        source, target = piles[s], piles[t]
        face_up = len(source.cards) - source.face_down
        if source.face_down and move.count == face_up:
            return 900 + source.face_down
        if not target.cards:
            return 100 + move.count
        score = 500 + move.count
        if move.count == len(source.cards):
            score += 200  # empties a pile
        elif s not in self.tableau:
            score += 150  # brings a waste or reserve card into play
        if SUIT[source.cards[-move.count]] == SUIT[target.cards[-1]]:
            score += 50
        return score
