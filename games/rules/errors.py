"""The engine's errors. Every refusal carries a stable ``code`` and a message for players."""

from __future__ import annotations


class RulesError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class IllegalMove(RulesError):
    """A move the rules do not allow in this state, or one that is not a move at all.

    Codes: malformed_move, unknown_pile, same_pile, pile_empty, not_available, wrong_target,
    single_cards_only, not_a_sequence, wrong_rank, wrong_suit, wrong_colour,
    foundation_complete, empty_shuffle, stock_empty, deal_blocked, no_stock, game_over.
    """


class NotationError(RulesError, ValueError):
    """A state that cannot be read from JSON (code ``malformed_state``)."""

    def __init__(self, message: str) -> None:
        super().__init__("malformed_state", message)


class ReplayError(RulesError):
    """A history that does not replay: ``step`` is the 1-based number of the first bad move."""

    def __init__(self, step: int, error: RulesError) -> None:
        super().__init__(error.code, f"move {step}: {error.message}")
        self.step = step
        self.error = error
