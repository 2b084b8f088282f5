"""States and moves to and from their JSON notation, and the player's view
(games/rules/RULINGS.md §Notation)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import CODE, parse_card, parse_rank, rank_char
from .errors import IllegalMove, NotationError
from .shapes import FullState, PlayerView
from .shuffle import check_seed
from .state import DEAL, Move, Pile, State

if TYPE_CHECKING:
    from .variant import Variant

JSON = dict[str, Any]


def state_to_json(variant: Variant, state: State) -> FullState:
    """The full state, hidden cards included: for storage and staff, never for players."""
    return _state_json(variant, state, state.seed, hide=False)


def player_view(variant: Variant, state: State, *, reveal_seed: bool = False) -> PlayerView:
    """The state as a player may see it: every face-down card (the whole stock) is ``None``.

    ``reveal_seed`` is for seeds the player may know (their own chosen deal, a finished game).
    """
    return _state_json(variant, state, state.seed if reveal_seed else None, hide=True)


def _state_json(variant: Variant, state: State, seed: int | None, *, hide: bool) -> Any:
    """A ``FullState``, or (``hide``) a ``PlayerView``."""
    piles = {}
    for pile_id, pile in zip(variant.pile_ids, state.piles, strict=True):
        hidden = pile.face_down if hide else 0
        piles[pile_id] = {
            "cards": [None] * hidden + [CODE[card] for card in pile.cards[hidden:]],
            "face_down": pile.face_down,
        }
    return {
        "variant": state.variant,
        "seed": seed,
        "move_number": state.move_number,
        "base_rank": None if state.base_rank is None else rank_char(state.base_rank),
        "piles": piles,
    }


def state_from_json(variant: Variant, data: Any) -> State:
    """Read a full state (every card known); raises NotationError for anything malformed."""
    if not isinstance(data, dict):
        raise NotationError("a state is a JSON object")
    if data.get("variant") != variant.slug:
        raise NotationError(f"the state's variant is not {variant.slug!r}")
    seed = data.get("seed")
    move_number = data.get("move_number", 0)
    try:
        seed = None if seed is None else check_seed(seed)
        base_rank = None if data.get("base_rank") is None else parse_rank(data["base_rank"])
    except ValueError as error:
        raise NotationError(str(error)) from None
    if isinstance(move_number, bool) or not isinstance(move_number, int) or move_number < 0:
        raise NotationError("move_number is a whole number, at least 0")
    raw_piles = data.get("piles")
    if not isinstance(raw_piles, dict) or set(raw_piles) != set(variant.pile_ids):
        raise NotationError(f"piles must be exactly {', '.join(variant.pile_ids)}")
    piles = tuple(_pile_from_json(pile_id, raw_piles[pile_id]) for pile_id in variant.pile_ids)
    return State(variant.slug, seed, move_number, base_rank, piles)


def _pile_from_json(pile_id: str, data: Any) -> Pile:
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise NotationError(f"{pile_id} must be an object with a list of cards")
    try:
        cards = tuple(parse_card(code) for code in data["cards"])
    except ValueError as error:
        raise NotationError(f"{pile_id}: {error}") from None
    face_down = data.get("face_down", 0)
    if pile_id == "stock":
        face_down = len(cards)  # the stock lies face down, always
    if (
        isinstance(face_down, bool)
        or not isinstance(face_down, int)
        or not 0 <= face_down <= len(cards)
    ):
        raise NotationError(f"{pile_id}: face_down must be between 0 and the number of cards")
    if cards and face_down == len(cards) and pile_id != "stock":
        raise NotationError(f"{pile_id}: its top card must be face up")
    return Pile(cards, face_down)


def move_from_json(data: Any) -> Move:
    """``{"type": "move", "from": ..., "to": ..., "count": n}`` or ``{"type": "deal"}``."""
    if not isinstance(data, dict):
        raise IllegalMove("malformed_move", "A move is a JSON object.")
    kind = data.get("type")
    if kind == "deal" and set(data) == {"type"}:
        return DEAL
    if kind == "move" and set(data) - {"type", "from", "to", "count"} == set():
        source, target, count = data.get("from"), data.get("to"), data.get("count", 1)
        if (
            isinstance(source, str)
            and isinstance(target, str)
            and isinstance(count, int)
            and not isinstance(count, bool)
            and 1 <= count <= 104
        ):
            return Move("move", source, target, count)
    raise IllegalMove(
        "malformed_move",
        'A move is {"type": "move", "from": pile, "to": pile, "count": n} or {"type": "deal"}.',
    )


def move_to_json(move: Move) -> JSON:
    return move.to_json()
