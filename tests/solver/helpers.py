"""Positions for the solver's tests: deals part-played, a lost one."""

from __future__ import annotations

from games.rules import State, Variant
from tests.rules.helpers import position


def normal(state: State) -> State:
    return state._replace(move_number=0)


def played(variant: Variant, seed: int, moves: int) -> tuple[State, set[State]]:
    """A deal after ``moves`` of today's hints, and the positions it went through."""
    state = variant.deal(seed)
    seen = {normal(state)}
    for _ in range(moves):
        move = variant.hint(state, seen)
        if move is None:
            break
        state = variant.apply(state, move)
        seen.add(normal(state))
    return state, seen


def lost_castle() -> tuple[Variant, State]:
    """Selective Castle with every card home but seventeen, stuck: the Ten of spades that
    foundation 4 wants lies under the Ace of spades, which has nowhere to go (no Two, no empty
    pile), and the one card that moves, the Jack of spades, only goes from Queen to Queen."""
    ranks = "23456789T"
    piles = {f"foundation:{i}": " ".join(r + s for r in ranks) for i, s in enumerate("CDH")}
    piles["foundation:3"] = " ".join(r + "S" for r in ranks[:-1])
    piles |= {f"tableau:{i}": f"J{s} A{s}" for i, s in enumerate("CDH")}
    piles |= {f"tableau:{i + 4}": f"K{s} Q{s}" for i, s in enumerate("CDHS")}
    piles["tableau:3"] = "TS AS JS"
    return position("selective-castle", piles, base_rank="2")
