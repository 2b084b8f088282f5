"""What the play page's automatic play may send home, judged from what the player sees.

``safe_home_moves``: the legal moves that put a card on a foundation under the solver's safe
rule (``games.solver.tactics.Tactics._is_safe_home``): nothing left away from home could ever
be put on that card in the tableau, or the game's stronger rule (``stronger_safe_home``, which
reads the foundations alone), so sending it home loses nothing. The solver asks whether
any card *away* from home fits on it; the away piles hold face-down cards, so here the same
question is asked the other way round, from the home piles alone: every card away from home is
a copy of the deck (``decks`` of each card) not at home, so no card that fits on it is away
exactly when every copy of each is at home. The answer is the solver's, and it reads only the
home piles (face up), the moving card (the face-up top of its pile), the stock's and waste's
sizes and the base rank, never a face-down card.

``finishes_home``: every card left can only go home. Asked only once nothing is hidden (no card
face down, the stock empty), when the whole position is the player's to see: sending home the
first foundation move of ``legal_moves`` again and again, as the page's Finish does, wins.

The page sends these as ordinary moves, one at a time, so the engine still judges each.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

from games.rules import Move, State, Variant
from games.solver.tactics import Tactics


@cache
def _tactics(variant: Variant) -> Tactics:
    return Tactics(variant)


def _goes_home(tactics: Tactics, move: Move) -> bool:
    return (
        move.type == "move"
        and tactics.kind_of[move.target] == "foundation"
        and tactics.kind_of[move.source] not in ("foundation", "discard")
    )


def safe_home_moves(variant: Variant, state: State, moves: list[Move]) -> list[dict[str, Any]]:
    """The moves of ``moves`` (the position's legal moves) that send a card home safely."""
    tactics = _tactics(variant)
    if tactics.sets_base_rank and state.base_rank is None:
        return []  # choosing the base rank is the player's choice
    home_moves = [move for move in moves if _goes_home(tactics, move)]
    if not home_moves:
        return []
    piles = state.piles
    home = Counter(card for i in variant.home_idx for card in piles[i].cards)
    refill = tactics.refills and any(
        i is not None and piles[i].cards for i in (tactics.stock, tactics.waste)
    )
    safe = []
    for move in home_moves:
        source = piles[variant.index[move.source]]
        if refill and tactics.kind_of[move.source] == "tableau" and len(source.cards) == 1:
            continue  # the refill would change which card comes next
        card = source.cards[-1]
        nothing_fits_away = all(home[guest] == variant.decks for guest in tactics.guests[card])
        if nothing_fits_away or tactics.stronger_safe_home(state, card):
            safe.append(move.to_json())
    return safe


def _nothing_hidden(variant: Variant, state: State) -> bool:
    stock = variant.stock_i
    if stock is not None and state.piles[stock].cards:
        return False
    return not any(pile.face_down for pile in state.piles)


def finishes_home(variant: Variant, state: State) -> bool:
    """Whether, with nothing hidden, sending cards home one by one (the first foundation move
    each time) wins the game."""
    if not _nothing_hidden(variant, state):
        return False
    tactics = _tactics(variant)
    for _ in range(52 * variant.decks + 1):  # at most one move a card
        if variant.is_won(state):
            return True
        if tactics.sets_base_rank and state.base_rank is None:
            return False
        move = next((m for m in variant.legal_moves(state) if _goes_home(tactics, m)), None)
        if move is None:
            return False
        state = variant.successor(state, move)
    return False
