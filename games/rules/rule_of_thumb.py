"""The rule-of-thumb hint: a legal move worth trying, chosen only from what the player can see.

A hint must never tell the player anything the board does not: it looks at the legal moves
(which depend on face-up cards only), the pile kinds and how many cards lie face down, never
at a face-down card or the stock's order, and it never plays a move to look at the result
(a move's automatic effects may turn up hidden cards). Two positions that look the same to
the player get the same hint; ``tests/rules/test_rule_of_thumb.py`` checks that.

The choice is a fixed order of preferences, the way a patient player thinks, not a search:
a card home first, then a move that turns up a hidden card, then one that brings a new card
into play or empties a pile, and dealing only when no card move does any of that.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from .cards import RANK, RANK_NAMES, card_name
from .state import DEAL, Move, Pile, State

if TYPE_CHECKING:
    from .variant import Variant

# Preferences, best first; the score of a move is its best matching tier.
HOME = 700  # onto a foundation (or the discard)
TURNS_UP = 600  # takes every face-up card off a pile with face-down cards under them
INTO_PLAY = 500  # a card from the waste or reserve onto the tableau
EMPTIES = 400  # clears a tableau pile (moving onto a card, not onto another empty pile)
FREES_HOME = 300  # leaves on top a face-up card that can then go home
JOINS_RUN = 200  # joins a run that can then move as one group
DEALING = 100
SHUFFLE = 50  # any other legal move
REPEATS = 0  # goes back to a position of the game seen before


def suggest(variant: Variant, state: State, seen: Collection[State] = ()) -> Move | None:
    """The move to suggest in ``state``. ``seen`` holds the game's earlier positions (with
    ``move_number`` 0): a move back to one of them is never suggested, so following the hints
    never goes round in circles. None when no legal move leads anywhere new."""
    best, best_score = None, REPEATS
    for move in variant.legal_moves(state):
        score = _score(variant, state, move, seen)
        if score > best_score:  # the first of equals wins: the legal moves' order breaks ties
            best, best_score = move, score
    return best


def describe(variant: Variant, state: State, move: Move | None) -> str:
    """A hint in words. Names only the face-up card that moves, in words, as in "Move the
    Queen of hearts from tableau pile 2 to foundation 1." (``move`` must be legal)."""
    if move is None:
        return (
            "No move leads anywhere new: every legal move goes back to a position this game "
            "has already had. When you see no way forward, resign."
        )
    if move.type == DEAL.type:
        return "Deal from the stock."
    s, t = variant.index[move.source], variant.index[move.target]  # type: ignore[index]
    card = f"the {card_name(state.piles[s].cards[-move.count])}"
    what = card if move.count == 1 else f"{card} and the {_cards(move.count - 1)} on it"
    said = f"Move {what} from {variant.pile_name(s)} to {variant.pile_name(t)}."
    if t in variant.home_idx and _sets_the_base_rank(variant, state):
        rank = RANK_NAMES[RANK[state.piles[s].cards[-1]]]
        said += f" That makes {rank} the base rank: its four cards lie nearest the top."
    return said


def _cards(n: int) -> str:
    return "card" if n == 1 else f"{n} cards"


def _score(variant: Variant, state: State, move: Move, seen: Collection[State]) -> int:
    if move.type == DEAL.type:
        return DEALING
    if seen and _returns(variant, state, move, seen):
        return REPEATS
    s, t = variant.index[move.source], variant.index[move.target]  # type: ignore[index]
    source_kind, target_kind = variant.kinds[s], variant.kinds[t]
    source = state.piles[s]
    face_up = len(source.cards) - source.face_down
    if t in variant.home_idx:
        if _sets_the_base_rank(variant, state):
            return HOME - _base_rank_depth(state, source.cards[-1])
        # Of two cards that can go home, prefer the one hiding face-down cards.
        return HOME + (source.face_down if move.count == face_up else 0)
    if source_kind == "tableau" and source.face_down and move.count == face_up:
        return TURNS_UP + source.face_down  # dig where most cards are hidden
    if source_kind in ("waste", "reserve") and target_kind == "tableau":
        return INTO_PLAY
    target = state.piles[t]
    if source_kind == "tableau" and move.count == len(source.cards) and target.cards:
        return EMPTIES
    if _frees_a_card_for_home(variant, state, s, move.count):
        return FREES_HOME
    group = variant.group
    if group is not None and target.cards:
        # The moved cards and the target's top run would move together afterwards.
        joined = target.cards + source.cards[-move.count :]
        if group.run_length(joined, move.count + 1) > move.count:
            return JOINS_RUN
    return SHUFFLE


def _sets_the_base_rank(variant: Variant, state: State) -> bool:
    """Whether a card going home now chooses the rank every foundation starts from."""
    return variant.foundation_start == "base_rank" and state.base_rank is None


def _base_rank_depth(state: State, card: int) -> int:
    """How deep the cards of ``card``'s rank lie: the cards above each, summed. The first card
    home sets the rank every foundation starts from, so the hint starts with the rank whose
    cards are nearest the top. Only face-up cards are looked at (in Selective Castle, the one
    game where the player chooses, every card is)."""
    rank = RANK[card]
    depth = 0
    for pile in state.piles:
        face_up = pile.cards[pile.face_down :]
        for i, other in enumerate(face_up):
            if RANK[other] == rank:
                depth += len(face_up) - 1 - i
    return depth


def _returns(variant: Variant, state: State, move: Move, seen: Collection[State]) -> bool:
    """Whether ``move`` leads back to a position in ``seen``. Asked only of a move that
    turns up nothing: one that does leaves fewer cards face down than any earlier position
    (nothing is ever turned back down), so it cannot repeat one, and its result, which holds
    the turned-up card, is never looked at."""
    after = variant.apply(state, move)
    if _face_down(after) != _face_down(state):
        return False
    return after._replace(move_number=0) in seen


def _face_down(state: State) -> int:
    return sum(pile.face_down for pile in state.piles)


def _frees_a_card_for_home(variant: Variant, state: State, s: int, count: int) -> bool:
    """Whether the face-up card left on top of pile ``s`` once ``count`` cards leave it
    could go home. Only a face-up card is looked at: a move that would uncover a face-down
    one is not asked about (it scores as turning up a card, or is left alone)."""
    source = state.piles[s]
    if len(source.cards) - source.face_down <= count:
        return False
    uncovered = Pile(source.cards[:-count], source.face_down)
    piles = list(state.piles)
    piles[s] = uncovered
    after = state._replace(piles=tuple(piles))
    return any(
        variant.accepts(after, s, t)
        for t in variant.home_idx
        if (variant.kinds[s], variant.kinds[t]) in variant.routes
    )
