"""What the search knows of each game: canonical positions, safe moves and move order.

Each rule here is judged per game (``tests/solver/test_tactics.py`` checks them):

- **Canonical position** (the transposition table's key): piles that nothing tells apart are
  sorted, so positions that differ only in which of them holds what are searched once. Tableau
  piles are interchangeable in every game but Grounds for Divorce, whose deal gives the stock's
  cards to the piles from left to right (once its stock is out, they are interchangeable
  too). Foundations are interchangeable where any empty one takes the same cards (Gold Mine,
  Selective Castle, Blondes and Brunettes), not on Grandfather's Clock, where each has an hour.
  The move number and the seed are not part of a position. Where the rules tell cards apart
  by rank and colour only (Blondes and Brunettes), the key knows a card by those alone; a
  discard nothing leaves (Grounds for Divorce) is left out of it.
- **Safe moves**: a card going home when nothing left away from home could ever be put on it
  in the tableau. Its only other use would be to hold such a card, so any win from here is
  still a win after it goes home (the move ends the search's choice at that position). Never
  the move that sets Selective Castle's base rank, and in Blondes and Brunettes never a move
  that empties a tableau pile while the stock or waste can refill it (the refill changes
  which card comes next). Gold Mine and Selective Castle have a stronger rule beside it
  (their ``solver.safe_home``): the cards that could rest on the card can follow it home at once.
  ``tests/solver/test_pruning.py`` proves the rules together against an exhaustive search with
  none of them, on late positions of every game, won and lost.
- **Identical piles**: a move to or from a pile the key cannot tell from an earlier one of
  its sorted group makes a position the earlier pile's move made already; only that one is
  made (``Tactics.distinct``), so a search counts only positions it may keep.
- **Passes** (``passes_for``): how each game is searched, in order, each pass on a share of the
  budget; the positions are ordered by ``evaluation.Evaluator`` with the game's weights.

Which of these each game allows, its passes and weights, and its difficulty thresholds and
place in the daily preparation are the game's own facts: they sit with it, in its module's
``solver`` profile (``games.rules.solving.SolverProfile``), read here through the variant
(``variant.solver``): the solver keeps no table of games.
- **Productive moves** (Grounds for Divorce's first pass only): its positions between two
  deals are far too many to search, so a first pass tries only moves that do something.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from games.rules import VARIANTS, Move, State, Variant, solving
from games.rules.cards import IS_RED, RANK, SUIT
from games.rules.solving import SearchPass
from games.rules.state import Pile

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


def _pass(search: SearchPass) -> Pass:
    return Pass(
        Weights(**search.weights), search.method, search.move_cost, search.share, search.narrow
    )


#: The order a day's challenges are prepared in: the games the solver proves quickly first
#: (each game's ``solver.daily_order``), as games/daily/challenges.py prepares them.
PREPARATION_ORDER = tuple(
    sorted(VARIANTS, key=lambda slug: type(VARIANTS[slug]).solver.daily_order)
)


@cache
def passes_for(variant: Variant) -> tuple[Pass, ...]:
    """The passes a deal of ``variant`` is searched with, in turn (the last is always
    complete): its module's ``solver.passes``, whose comment says how they were chosen."""
    return tuple(_pass(search) for search in variant.solver.passes)


@cache
def hint_passes_for(variant: Variant) -> tuple[Pass, ...]:
    """The passes a look-ahead hint searches (``games.solver.lookahead``): the game's
    ``solver.hint_passes`` where it has them, else its passes."""
    return tuple(_pass(search) for search in variant.solver.hint_passes) or passes_for(variant)


#: The stronger safe-home rules (``Tactics.stronger_safe_home``), beside the rule every game
#: has (nothing away could ever be put on the card), as the core numbers them; each game's
#: ``solver.safe_home`` names its own.
SAFE_AWAY, SAFE_ALTERNATE, SAFE_ANY_SUIT = 0, 1, 2
SAFE_CODES = {
    solving.SAFE_AWAY: SAFE_AWAY,
    solving.SAFE_ALTERNATE: SAFE_ALTERNATE,
    solving.SAFE_ANY_SUIT: SAFE_ANY_SUIT,
}


class Tactics:
    """The per-game knowledge of one variant, precomputed for the search's inner loop."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        profile = variant.solver
        kinds = variant.kinds
        self.tableau = tuple(i for i, kind in enumerate(kinds) if kind == "tableau")
        self.foundations = tuple(i for i, kind in enumerate(kinds) if kind == "foundation")
        grouped = set(self.tableau)
        self.sort_foundations = profile.foundations_interchangeable
        if self.sort_foundations:
            grouped |= set(self.foundations)
        self.fixed = tuple(i for i in range(len(kinds)) if i not in grouped)
        self.tableau_always_sorted = profile.tableau_always_interchangeable
        self.refills = profile.refills_emptied_piles
        self.sets_base_rank = variant.foundation_start == "base_rank"
        self.key_colour = profile.keyed_by_colour
        #: Each card as the key knows it: its rank and colour only (a black card as its Club,
        #: a red one as its Diamond) where the rules tell no more apart.
        self.keycard = tuple(
            (13 if IS_RED[card] else 0) + card % 13 if self.key_colour else card
            for card in range(52)
        )
        if profile.discard_out_of_key:
            self.fixed = tuple(i for i in self.fixed if kinds[i] != "discard")
        self.safe_rule = SAFE_CODES[profile.safe_home]
        self.folds_deals = profile.folds_deals
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
        if self.key_colour:
            keycard = self.keycard
            piles = tuple(Pile(tuple(keycard[c] for c in cards), down) for cards, down in piles)
        fixed = tuple(piles[i] for i in self.fixed)
        tableau = tuple(piles[i] for i in self.tableau)
        if self.tableau_always_sorted or not piles[self.stock].cards:  # type: ignore[index]
            tableau = tuple(sorted(tableau))
        if self.sort_foundations:
            foundations = tuple(sorted(piles[i] for i in self.foundations))
            return (state.base_rank, fixed, tableau, foundations)
        return (state.base_rank, fixed, tableau)

    # -- deals folded ---------------------------------------------------------------------

    def after_a_deal(self, state: State, move: Move) -> bool:
        """Whether ``move`` is tried just after a deal (the game's ``solver.folds_deals``):
        another deal, a move from the waste, or one that empties a pile the stock refills."""
        if move.type == "deal" or move.source == "waste":
            return True
        s = self.index[move.source]  # type: ignore[index]
        return (
            self.refills
            and self.kind_of[move.source] == "tableau"  # type: ignore[index]
            and move.count == len(state.piles[s].cards)
        )

    # -- moves to or from identical piles ----------------------------------------------

    def distinct(self, state: State, moves: list[Move]) -> list[Move]:
        """``moves`` less those that only repeat an earlier one on another pile identical to
        its own: piles the key sorts (tableau piles, where they are interchangeable; empty
        or equal foundations where those are) and holding the same cards as the key knows
        them make the same position whichever of them a card leaves or joins. The earlier
        move (the first such pile by index: the engine lists moves in pile order) makes it,
        so the search meets the same positions in the same order, counting fewer."""
        first = self._first_identical(state)
        if first is None:
            return moves
        index = self.index
        return [
            move
            for move in moves
            if move.type != "move"
            or (
                first[index[move.source]] == index[move.source]  # type: ignore[index]
                and first[index[move.target]] == index[move.target]  # type: ignore[index]
            )
        ]

    def _first_identical(self, state: State) -> list[int] | None:
        """Per pile, the first pile of its sorted group identical to it (itself if none)."""
        piles = state.piles
        groups = []
        if self.tableau_always_sorted or not piles[self.stock].cards:  # type: ignore[index]
            groups.append(self.tableau)
        if self.sort_foundations:
            groups.append(self.foundations)
        if not groups:
            return None
        keycard = self.keycard
        first = list(range(len(piles)))
        for group in groups:
            seen: dict[tuple[Any, ...], int] = {}
            for i in group:
                cards, down = piles[i]
                first[i] = seen.setdefault((down, tuple(keycard[c] for c in cards)), i)
        return first

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
        card = piles[s].cards[-1]
        if self.stronger_safe_home(state, card):
            return True
        guests = self.guests[card]
        return not any(card in guests for i in self.away for card in piles[i].cards)

    def stronger_safe_home(self, state: State, card: int) -> bool:
        """The game's stronger rule (its ``solver.safe_home``; False in a game that has none).
        It reads the foundations alone, face up: the play page's automatic play uses it too
        (``games.play.autoplay``). Either way, take any win from here that
        leaves ``card`` where it is: whenever it puts a card X on ``card``, X can go home
        instead, and whatever it puts on X can go home too, and nothing can go on that, so
        the same line less those moves, and with those cards sent home, still wins.

        - ``SAFE_ALTERNATE`` (tableau down in alternating colours, foundations by suit from
          the Ace): ``card`` of rank r, the two suits of the other colour home to r - 2 (an X,
          of rank r - 1, can go home), the other suit of its colour to r - 3 (a card of rank
          r - 2 put on X can too; the other colour's r - 3 are home).
        - ``SAFE_ANY_SUIT`` (tableau down in any suit, foundations by suit from the base rank
          around the corner): ``card`` p places above the base, p >= 2, every suit home to
          p - 2 (an X, p - 1 places above, can go home; every card that could go on X is)."""
        if self.safe_rule == SAFE_AWAY:
            return False
        home = [0, 0, 0, 0]
        for i in self.foundations:
            cards = state.piles[i].cards
            if cards:
                home[SUIT[cards[0]]] = len(cards)
        if self.safe_rule == SAFE_ALTERNATE:
            rank, suit = RANK[card], SUIT[card]
            return all(
                home[other] >= (rank - 3 if IS_RED[other * 13] == IS_RED[card] else rank - 2)
                for other in range(4)
                if other != suit
            )
        if state.base_rank is None:
            return False
        place = (RANK[card] - state.base_rank) % 13
        return place >= 2 and min(home) >= place - 1

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
