"""Rebuild a game from its deal and move history, validating every move on the way."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from .errors import ReplayError, RulesError
from .notation import move_from_json
from .state import Move, State

if TYPE_CHECKING:
    from .variant import Variant


def replay_states(
    variant: Variant, seed: int, moves: Iterable[Move | dict[str, Any]]
) -> Iterator[State]:
    """The opening state, then the state after each move (moves as ``Move`` or JSON).

    Raises ``ReplayError`` naming the 1-based step of the first move that does not apply.
    """
    state = variant.deal(seed)
    yield state
    for step, move in enumerate(moves, start=1):
        try:
            state = variant.apply(state, move if isinstance(move, Move) else move_from_json(move))
        except RulesError as error:
            raise ReplayError(step, error) from error
        yield state


def replay(
    variant: Variant, seed: int, moves: Iterable[Move | dict[str, Any]], step: int | None = None
) -> State:
    """The state after ``step`` moves of the history (all of them when ``step`` is None)."""
    moves = list(moves)
    if step is not None:
        if not 0 <= step <= len(moves):
            raise ValueError(f"step must be between 0 and {len(moves)}")
        moves = moves[:step]
    state = None
    for state in replay_states(variant, seed, moves):  # noqa: B007 - the last one is the answer
        pass
    return state  # type: ignore[return-value]
