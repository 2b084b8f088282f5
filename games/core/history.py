"""A game's history as the service keeps it: engine moves plus the service's own entries.

Pure Python over the rules engine. An ``undo`` entry takes back the last move not yet taken
back (whatever it showed: the undone entry and its events stay in the history, the record of
what the player saw); a ``resign`` entry (the player gave up), an ``end`` entry (a casual game
at a dead end ended, as lost) and a ``close`` entry (a ranked daily attempt left unfinished when
its day closed) end the game without changing the cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Protocol

from games.rules import Event, IllegalMove, ReplayError, State, Variant
from games.rules.describe import describe, describe_move, moved_cards

UNDO = "undo"
RESIGN = "resign"
END = "end"
CLOSE = "close"
#: Entries that end a game and leave the cards as they are.
ENDINGS = frozenset({RESIGN, END, CLOSE})


#: The event the service records with each of its own entries.
SERVICE_EVENTS = {UNDO: "undone", RESIGN: "resigned", END: "ended", CLOSE: "day_closed"}


class StoredDeal(Protocol):
    """What a history is played from: a deal as the service stores it (``models.Deal``)."""

    seed: int
    deal_version: int


def opening(variant: Variant, deal: StoredDeal) -> State:
    """The deal's opening position, dealt by the algorithm version it was made under."""
    return variant.deal(deal.seed, deal.deal_version)


def line_of_play(
    variant: Variant, deal: StoredDeal, entries: Iterable[dict[str, Any]]
) -> list[State]:
    """The states on the board after the history: the deal, then one per move not undone.

    Raises ``ReplayError`` at the 1-based step of the first entry that does not apply.
    """
    line = [opening(variant, deal)]
    for _ in _play_through(variant, line, entries):
        pass
    return line


def positions_seen(
    variant: Variant, deal: StoredDeal, entries: Iterable[dict[str, Any]]
) -> set[State]:
    """Every position the board has shown in this history, undone ones included, each with
    ``move_number`` 0 (the form ``Variant.hint`` compares)."""
    line = [opening(variant, deal)]
    seen = {line[0]._replace(move_number=0)}
    for state, _ in _play_through(variant, line, entries):
        seen.add(state._replace(move_number=0))
    return seen


def replay_history(
    variant: Variant, deal: StoredDeal, entries: Iterable[dict[str, Any]]
) -> Iterator[tuple[State, list[Event]]]:
    """The board after each history entry, with the events the engine (or the service)
    reports for it; raises ``ReplayError`` at the first entry that does not apply."""
    yield from _play_through(variant, [opening(variant, deal)], entries)


def _play_through(
    variant: Variant, line: list[State], entries: Iterable[dict[str, Any]]
) -> Iterator[tuple[State, list[Event]]]:
    """Apply each entry to ``line`` (the states on the board, the deal first) in place,
    yielding the board after each one and the events it caused."""
    for step, entry in enumerate(entries, start=1):
        kind = entry.get("type") if isinstance(entry, dict) else None
        if kind == UNDO:
            if len(line) == 1:
                raise ReplayError(step, IllegalMove("nothing_to_undo", "There is no move to undo."))
            line.pop()
            events = [{"type": SERVICE_EVENTS[UNDO]}]
        elif kind in ENDINGS:
            events = [{"type": SERVICE_EVENTS[kind]}]
        else:
            try:
                after, events = variant.play(line[-1], variant.move_from_json(entry))
            except IllegalMove as error:
                raise ReplayError(step, error) from error
            line.append(after)
        yield line[-1], events


#: The service's own entries in a player's words (an undo names what it took back).
ENTRY_WORDS = {
    RESIGN: "Resigned",
    END: "Ended at a dead end: lost",
    CLOSE: "The day closed: the attempt stands as it was left",
}


def told(
    variant: Variant, deal: StoredDeal, entries: Sequence[dict[str, Any]]
) -> list[tuple[list[str], str]]:
    """Each history entry's moved cards (codes, bottom first; [] but for a move) and its words
    for the move list (``games.rules.describe``): a move's cards are named from the board it
    was made on, where they lay face up. An entry past one that no longer replays is said
    from its move alone, its cards unnamed."""
    board: list[State] | None = [opening(variant, deal)]  # None once the history breaks
    said: list[str] = []  # the words of the moves on the board, for an undo to name
    out: list[tuple[list[str], str]] = []
    for entry in entries:
        kind = entry.get("type") if isinstance(entry, dict) else None
        if kind == UNDO:
            out.append(([], f"Took back {said.pop()}" if said else "Took back a move"))
            if board is not None and len(board) > 1:
                board.pop()
            continue
        if kind in ENDINGS:
            out.append(([], ENTRY_WORDS[kind]))
            continue
        try:
            move = variant.move_from_json(entry)
        except IllegalMove:
            board = None
            out.append(([], "A move this game no longer knows"))
            continue
        before = board[-1] if board is not None else None
        events: list[Event] = []
        if board is not None:
            try:
                after, events = variant.play(board[-1], move)
                board.append(after)
            except IllegalMove:
                board, before = None, None
        said.append(describe_move(variant, before, move))
        out.append((moved_cards(variant, before, move), describe(variant, before, move, events)))
    return out


def standing_entries(entries: Iterable[dict[str, Any]]) -> list[int]:
    """Indexes of the history's moves that are still on the board (not undone)."""
    standing: list[int] = []
    for index, entry in enumerate(entries):
        kind = entry.get("type") if isinstance(entry, dict) else None
        if kind == UNDO:
            if standing:
                standing.pop()
        elif kind not in ENDINGS:
            standing.append(index)
    return standing


def sends_a_card_home(entry: Any) -> bool:
    """Whether a history entry is a move of a card to a foundation from another pile: what
    the play page's Finish sends, and every solitaire's auto-complete. Read from the entry as
    the service recorded it (the engine validated it), never from anything the client says."""
    if not isinstance(entry, dict) or entry.get("type") != "move":
        return False
    source, target = str(entry.get("from", "")), str(entry.get("to", ""))
    return target.startswith("foundation:") and not source.startswith("foundation:")


def final_run_home(entries: Sequence[Any]) -> int:
    """Where the history's final run of moves sending cards home starts: the index of its
    first entry (``len(entries)`` when the last entry sends no card home). A game that ends
    with Finish ends with such a run, however it was pressed; any other entry ends the run
    (a deal, a move between piles, an undo)."""
    start = len(entries)
    while start and sends_a_card_home(entries[start - 1]):
        start -= 1
    return start


def revealed_hidden_cards(payload: dict[str, Any], events: list[dict[str, Any]]) -> bool:
    """Whether a move showed the player cards that were hidden. Undo refused such moves until
    December 2026 (migration 0004 filled ``can_undo`` by that rule); it takes them back now
    (games/rules/RULINGS.md §Solutions and hints, "Undo")."""
    return payload.get("type") == "deal" or any(
        event["type"] == "turned_up"
        or (event["type"] == "pile_filled" and event.get("from") == "stock")
        for event in events
    )


def last_move_can_be_undone(history: Sequence[tuple[dict[str, Any], list[dict[str, Any]]]]) -> bool:
    """The rule before December 2026, kept for migration 0004: the move last on the board after
    these (payload, events) entries may be taken back when there is one that showed no hidden
    card. Today's rule is ``has_a_move_to_undo``."""
    standing = standing_entries(payload for payload, _ in history)
    return bool(standing) and not revealed_hidden_cards(*history[standing[-1]])


def has_a_move_to_undo(entries: Iterable[dict[str, Any]]) -> bool:
    """Whether a casual game in play after these entries may take a move back: some move is on
    the board. What it showed does not matter (games/rules/RULINGS.md, "Undo")."""
    return bool(standing_entries(entries))
