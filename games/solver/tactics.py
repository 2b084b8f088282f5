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
- **Passes** (``SETTINGS``): how each game is searched, in order, each pass on a share of the
  budget; the positions are ordered by ``evaluation.Evaluator`` with the game's weights.
- **Productive moves** (Grounds for Divorce's first pass only): its positions between two
  deals are far too many to search, so a first pass tries only moves that do something.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.rules import Move, State, Variant
from games.rules.cards import SUIT

from .evaluation import Weights


@dataclass(frozen=True)
class Pass:
    """One search of a deal: depth first ("dfs") or best first ("best") on the evaluation
    less ``move_cost`` per move made, over ``share`` of the budget (the last pass gets what
    the others left). Both orders are complete unless ``narrow`` limits the moves tried to
    ``Tactics.productive`` ones: a narrow pass can find a win, never prove a loss."""

    weights: Weights
    method: str = "best"
    move_cost: float = 0.0
    share: float = 1.0
    narrow: bool = False


#: Per game, the passes tried in turn. The weights were chosen on deals 0-15 of each game
#: (wins found within 1 s by each candidate setting); the last pass is always complete.
SETTINGS: dict[str, tuple[Pass, ...]] = {
    "grounds-for-divorce": (
        Pass(Weights(link=2, runs=10, face_down=20, empty=20, stock=20), share=0.7, narrow=True),
        Pass(Weights(link=2, runs=10, face_down=20, empty=20, stock=20), method="dfs"),
    ),
    "gold-mine": (Pass(Weights(link=2, runs=2, buried=3, empty=10, waste=2)),),
    "selective-castle": (Pass(Weights(link=4, buried=3, empty=6), move_cost=20),),
    "grandfathers-clock": (Pass(Weights(link=4, buried=3, empty=6), move_cost=50),),
    "blondes-and-brunettes": (Pass(Weights(link=20, buried=5, empty=2, waste=3, reserve=15)),),
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

    # -- the first pass of Grounds for Divorce ------------------------------------------

    def productive(self, state: State, moves: list[Move]) -> list[Move]:
        """The moves a first, incomplete pass tries (``Settings.narrow``): in Grounds for
        Divorce, tableau moves that turn up a card, empty a pile, build in suit, or give a
        card that rests on nothing it fits a place to rest; never a card moved off one it
        fits onto another of a different suit. Can cut off a win: never used to prove a loss."""
        kept = []
        piles = state.piles
        for move in moves:
            if move.type != "move":
                kept.append(move)
                continue
            source = piles[self.index[move.source]]  # type: ignore[index]
            target = piles[self.index[move.target]]  # type: ignore[index]
            count, cards = move.count, source.cards
            face_up = len(cards) - source.face_down
            bottom = cards[-count]
            if count == face_up or (count == len(cards) and target.cards):
                kept.append(move)
                continue
            under = cards[-count - 1]
            same_suit_link = SUIT[under] == SUIT[bottom] and bottom in self.guests[under]
            if target.cards:
                if SUIT[target.cards[-1]] == SUIT[bottom] or bottom not in self.guests[under]:
                    kept.append(move)
            elif not same_suit_link:
                kept.append(move)
        return kept
