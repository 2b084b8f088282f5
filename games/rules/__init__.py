"""The Patience rules engine: five patience games, pure Python, no Django.

The one door for the service and every tool (games/rules/RULINGS.md §Engine contract)::

    variant = get_variant("gold-mine")
    state = variant.deal(seed)
    moves = variant.legal_moves(state)
    state, events = variant.play(state, moves[0])   # or variant.apply(state, move)
    variant.status(state)                            # "playing", "won" or "lost"
    variant.player_view(state)                       # JSON with every hidden card as None
"""

from __future__ import annotations

from .blondes_and_brunettes import BlondesAndBrunettes
from .errors import IllegalMove, NotationError, ReplayError, RulesError
from .gold_mine import GoldMine
from .grandfathers_clock import GrandfathersClock
from .grounds_for_divorce import GroundsForDivorce
from .notation import move_from_json, move_to_json, player_view, state_from_json, state_to_json
from .replay import replay, replay_states
from .selective_castle import SelectiveCastle
from .shuffle import DEAL_VERSION, MAX_SEED
from .state import DEAL, Event, Move, Pile, State
from .variant import LOST, PLAYING, WON, Variant

VARIANTS: dict[str, Variant] = {
    variant.slug: variant
    for variant in (
        GroundsForDivorce(),
        GoldMine(),
        SelectiveCastle(),
        GrandfathersClock(),
        BlondesAndBrunettes(),
    )
}


def get_variant(slug: str) -> Variant:
    """The variant named by ``slug``; raises KeyError for an unknown one."""
    try:
        return VARIANTS[slug]
    except KeyError:
        raise KeyError(f"unknown game {slug!r}; the games are {', '.join(VARIANTS)}") from None


__all__ = [
    "DEAL",
    "DEAL_VERSION",
    "LOST",
    "MAX_SEED",
    "PLAYING",
    "VARIANTS",
    "WON",
    "Event",
    "IllegalMove",
    "Move",
    "NotationError",
    "Pile",
    "ReplayError",
    "RulesError",
    "State",
    "Variant",
    "get_variant",
    "move_from_json",
    "move_to_json",
    "player_view",
    "replay",
    "replay_states",
    "state_from_json",
    "state_to_json",
]
