"""Hand-built positions for rules tests, in a compact text form.

A pile is written bottom to top, cards separated by spaces; a ``|`` separates the face-down
cards (left) from the face-up ones (right): ``"4S 9D | KH QS"``. Without ``|`` every card is
face up (the stock is always face down). Piles left out are empty.
"""

from __future__ import annotations

import random

from games.rules import Move, State, Variant, get_variant
from games.rules.cards import CODE


def position(
    slug: str, piles: dict[str, str] | None = None, *, base_rank: str | None = None
) -> tuple[Variant, State]:
    variant = get_variant(slug)
    data = {
        "variant": slug,
        "seed": None,
        "move_number": 0,
        "base_rank": base_rank,
        "piles": {pile_id: {"cards": [], "face_down": 0} for pile_id in variant.pile_ids},
    }
    for pile_id, text in (piles or {}).items():
        down, bar, up = text.rpartition("|")
        if not bar:
            down, up = "", text
        data["piles"][pile_id] = {
            "cards": down.split() + up.split(),
            "face_down": len(down.split()),
        }
    return variant, variant.state_from_json(data)


def show(variant: Variant, state: State, pile_id: str) -> str:
    """The inverse of ``position`` for one pile: ``"4S 9D | KH QS"``."""
    pile = state.piles[variant.index[pile_id]]
    codes = [CODE[card] for card in pile.cards]
    down, up = codes[: pile.face_down], codes[pile.face_down :]
    return (
        " ".join(down) + (" | " if down else "") + " ".join(up)
        if pile_id != "stock"
        else " ".join(codes)
    )


def move(source: str, target: str, count: int = 1) -> Move:
    return Move("move", source, target, count)


def disguised(state: State, rng: random.Random) -> State:
    """The same board to the player's eyes, with every face-down card (the stock too) dealt
    out again at random among the face-down places."""
    hidden = [card for pile in state.piles for card in pile.cards[: pile.face_down]]
    rng.shuffle(hidden)
    piles = []
    for pile in state.piles:
        down, hidden = hidden[: pile.face_down], hidden[pile.face_down :]
        piles.append(pile._replace(cards=(*down, *pile.cards[pile.face_down :])))
    return state._replace(piles=tuple(piles))
