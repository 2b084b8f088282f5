"""Checking a game's stored history: numbering, and every move replayed through the engine."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from games.core.history import (
    CLOSE,
    END,
    RESIGN,
    has_a_move_to_undo,
    opening,
    replay_history,
)
from games.models import Game
from games.rules import ReplayError, get_variant


def verify_game(game: Game) -> str | None:
    """None when the history replays through the engine to the stored snapshot and status;
    else what is wrong, naming the first step that breaks."""
    return verification(game).problem


@dataclass(frozen=True)
class Verdict:
    """The outcome of replaying a game's history: ``problem`` is None when it all checks out,
    else what is wrong, and ``step`` the first history entry it points at."""

    problem: str | None = None
    step: int | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None


HistoryRow = tuple[int, Any, Any, dt.datetime]


#: The status each of the service's entries that end a game leaves.
ENDING_STATUS = {RESIGN: Game.Status.RESIGNED, END: Game.Status.LOST, CLOSE: Game.Status.CLOSED}


def history_rows(game: Game) -> list[HistoryRow]:
    return list(
        game.moves.order_by("number").values_list("number", "payload", "events", "received_at")
    )


def _numbering_problem(game: Game, rows: list[HistoryRow]) -> Verdict | None:
    """What is wrong when the history's entries are not numbered 1 to the game's move number."""
    for step, (number, *_) in enumerate(rows, start=1):
        if number != step:
            return Verdict(
                f"the history's move numbers are not 1 to {game.move_number}: "
                f"step {step} is numbered {number}",
                step,
            )
    if len(rows) != game.move_number:
        return Verdict(
            f"the history's move numbers are not 1 to {game.move_number}: "
            f"it has {len(rows)} entries",
            min(len(rows), game.move_number) + 1,
        )
    return None


def verification(game: Game, rows: list[HistoryRow] | None = None) -> Verdict:
    """Replay the history through the engine and compare it with what is stored: numbering,
    every move, the snapshot, the status and the counts the leaderboards rank by."""
    variant = get_variant(game.deal.variant)
    rows = history_rows(game) if rows is None else rows
    if misnumbered := _numbering_problem(game, rows):
        return misnumbered
    entries = [payload for _, payload, _, _ in rows]
    try:
        state = opening(variant, game.deal)
    except ValueError:
        return Verdict(
            f"the deal was made by deal algorithm version {game.deal.deal_version}, "
            "which this release cannot deal",
            0,
        )
    # Where the recorded events first part from the engine's: the likely edit, when only the
    # snapshot gives the tampering away.
    first_odd_events = None
    try:
        for step, (after, events) in enumerate(replay_history(variant, game.deal, entries), 1):
            state = after
            if first_odd_events is None and events != rows[step - 1][2]:
                first_odd_events = step
    except ReplayError as error:
        return Verdict(f"step {error.step} does not replay: {error.error.message}", error.step)
    last = game.move_number or None
    replayed = variant.state_to_json(state)
    if replayed != game.state:
        stored = game.state.get("piles") if isinstance(game.state, dict) else None
        piles = [
            pile
            for pile, value in replayed["piles"].items()
            if not isinstance(stored, dict) or stored.get(pile) != value
        ]
        problem = "the stored snapshot differs from the replay of the history"
        if piles:
            problem += f" (piles {', '.join(piles)})"
        if first_odd_events is not None:
            problem += f"; the recorded events first differ at step {first_odd_events}"
        return Verdict(problem, first_odd_events or last)
    ending = entries[-1].get("type") if entries and isinstance(entries[-1], dict) else None
    expected = ENDING_STATUS.get(ending) or variant.status(state)
    # A casual game at a dead end stays in play until it is ended (RULINGS.md, "Dead ends");
    # one lost before that ruling (December 2026) was lost at once, with no end entry.
    dead_end = (
        expected == Game.Status.LOST
        and ending not in ENDING_STATUS
        and not game.ranked
        and game.status != Game.Status.LOST
    )
    if dead_end:
        expected = Game.Status.PLAYING
    if game.status != expected:
        return Verdict(f"the stored status is {game.status}, the replay says {expected}", last)
    if game.dead_end != dead_end:
        return Verdict(f"the stored dead_end is {game.dead_end}, the replay says {dead_end}", last)
    can_undo = (
        not game.ranked and game.status == Game.Status.PLAYING and has_a_move_to_undo(entries)
    )
    if game.can_undo != can_undo:
        return Verdict(f"the stored can_undo is {game.can_undo}, the history says {can_undo}")
    if not game.ranked:
        # Casual games are ranked by nothing, and older ones predate these columns (migration
        # 0002 did not backfill them): only a ranked attempt's counts must match.
        return Verdict()
    counts = {"cards_home": variant.cards_home(state), "board_moves": state.move_number}
    for name, value in counts.items():
        if getattr(game, name) != value:
            return Verdict(
                f"the stored {name} is {getattr(game, name)}, the replay says {value}", last
            )
    return Verdict()
