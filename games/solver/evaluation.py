"""How promising a position looks: the score that orders the search (higher is better).

Cards home count most; then cards resting on a card they may sit on, long groups that move as
one, empty piles; face-down cards, cards in the waste or reserve, and cards buried on top of a
card a foundation wants now count against. The weights are per game (each game's
``solver.passes``), found by trying them on deals (each game's module says which).
The score orders moves only: it never decides that a position is lost.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.rules import State, Variant
from games.rules.cards import RANK


@dataclass(frozen=True)
class Weights:
    home: float = 100.0  # per card on a foundation or the discard
    link: float = 2.0  # per face-up card resting on one it may legally sit on
    runs: float = 0.0  # per square of the length of each run that moves as a group
    face_down: float = 0.0  # per face-down tableau card (a penalty)
    buried: float = 0.0  # per card lying on top of a card a foundation wants now (a penalty)
    empty: float = 0.0  # per empty tableau pile
    waste: float = 0.0  # per card in the waste (a penalty)
    reserve: float = 0.0  # per card in the reserve (a penalty)
    stock: float = 0.0  # per card still in the stock (dealing can never be taken back)


class Evaluator:
    """Scores positions of one game."""

    def __init__(self, variant: Variant, weights: Weights) -> None:
        self.variant = variant
        self.weights = weights
        kinds = variant.kinds
        self.tableau = [i for i, kind in enumerate(kinds) if kind == "tableau"]
        self.foundations = [i for i, kind in enumerate(kinds) if kind == "foundation"]
        self.home = list(variant.home_idx)
        self.waste = variant.index.get("waste")
        self.reserve = variant.index.get("reserve")
        self.stock = variant.stock_i
        self.fits = variant.tableau.fits
        self.group_fits = variant.group.fits if variant.group is not None else None
        build = variant.foundation
        #: The cards that may go on each card on a foundation.
        self.follows = [
            frozenset(card for card in range(52) if build.fits(card, top)) if build else frozenset()
            for top in range(52)
        ]

    def wanted(self, state: State) -> set[int]:
        """Cards some foundation would take now (by the foundation's building rule)."""
        wanted: set[int] = set()
        start = self.variant.foundation_start
        start_rank = 1 if start == "ace" else state.base_rank if start == "base_rank" else None
        for i in self.foundations:
            cards = state.piles[i].cards
            if cards:
                if not self.variant._foundation_complete(state.piles[i], i):
                    wanted.update(self.follows[cards[-1]])
            elif start_rank is not None:
                wanted.update(card for card in range(52) if RANK[card] == start_rank)
        return wanted

    def score(self, state: State) -> float:
        w, piles = self.weights, state.piles
        total = w.home * sum(len(piles[i].cards) for i in self.home)
        if w.waste and self.waste is not None:
            total -= w.waste * len(piles[self.waste].cards)
        if w.reserve and self.reserve is not None:
            total -= w.reserve * len(piles[self.reserve].cards)
        if w.stock and self.stock is not None:
            total += w.stock * len(piles[self.stock].cards)
        wanted = self.wanted(state) if w.buried else ()
        for i in self.tableau:
            cards, down = piles[i]
            if not cards:
                total += w.empty
                continue
            total -= w.face_down * down
            run = 1
            for j in range(down + 1, len(cards)):
                if self.fits(cards[j], cards[j - 1]):
                    total += w.link
                    if self.group_fits is not None and self.group_fits(cards[j], cards[j - 1]):
                        run += 1
                        continue
                total += w.runs * run * run
                run = 1
            total += w.runs * run * run
            if wanted:
                for j, card in enumerate(cards):
                    if card in wanted:
                        total -= w.buried * (len(cards) - 1 - j)
        return total
