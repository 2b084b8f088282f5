"""A move and what it set off, in a player's words, for the move lists of replays and solutions:
"7♥ from pile 6 to pile 5", "3 cards (9♠ to 7♦) from pile 2 to pile 8; 4♣ turned up on pile 2",
"Dealt from the stock". The one place these words are written (the pages show them as given).

Pure, like the rest of the engine. It names a card only where the board ``state`` before the
move shows it face up (a move only ever takes face-up cards; anything else is counted, not
named), and a card an event names has just come face up; so a game still in play is described
without a hidden card."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import CODE, RANK_NAMES, SUIT_CHARS, SUIT_NAMES, card_label, parse_card, parse_rank
from .state import Move, State

if TYPE_CHECKING:
    from .variant import Variant


def pile_words(variant: Variant, pile_id: str) -> str:
    """A pile as a move list says it: "pile 6" (the tableau's, the only numbered piles but the
    foundations), "foundation 2", "the 12 o'clock foundation", "the waste"."""
    index = variant.index.get(pile_id)
    if index is None:
        return pile_id
    return variant.pile_name(index).removeprefix("tableau ")


#: After ♥ and ♦: asks for their text form, which some systems would draw as emoji.
TEXT_FORM = "\ufe0e"


def card_words(code: str) -> str:
    """ "TH" → "10♥" (with TEXT_FORM); a code that is no card stays as it is."""
    try:
        return card_label(parse_card(code)) + TEXT_FORM
    except ValueError:
        return code


def cards_words(codes: list[str]) -> str:
    """ "7♥"; "3 cards (9♠ to 7♦)", bottom card first; "" for none."""
    if not codes:
        return ""
    if len(codes) == 1:
        return card_words(codes[0])
    return f"{len(codes)} cards ({card_words(codes[0])} to {card_words(codes[-1])})"


def moved_cards(variant: Variant, state: State | None, move: Move) -> list[str]:
    """The codes of the cards ``move`` takes from ``state``, bottom first, when all of them lie
    face up there; [] for a deal, an unknown board or cards not all face up."""
    if state is None or move.type != "move" or move.source not in variant.index:
        return []
    pile = state.piles[variant.index[move.source]]
    face_up = pile.cards[pile.face_down :]
    if not 0 < move.count <= len(face_up):
        return []
    return [CODE[card] for card in face_up[len(face_up) - move.count :]]


def describe_move(variant: Variant, state: State | None, move: Move) -> str:
    """The move in words, its cards named from ``state`` (the board before it; None: unknown)."""
    if move.type == "deal":
        return "Dealt from the stock"
    source = pile_words(variant, str(move.source))
    target = pile_words(variant, str(move.target))
    named = cards_words(moved_cards(variant, state, move))
    if not named:
        named = "1 card" if move.count == 1 else f"{move.count} cards"
    return f"{named} from {source} to {target}"


def describe_event(variant: Variant, event: dict[str, Any]) -> str | None:
    """What the engine did after a move, in words; None for what needs no words here."""
    kind = event.get("type")
    pile = pile_words(variant, str(event.get("pile")))
    card = card_words(str(event.get("card", "")))
    if kind == "turned_up":
        return f"{card} turned up on {pile}"
    if kind == "run_removed":
        suit = str(event.get("suit"))
        name = SUIT_NAMES[SUIT_CHARS.index(suit)] if suit in SUIT_CHARS else suit
        return f"a run of {name} went from {pile} to the discard"
    if kind == "pile_filled":
        source = pile_words(variant, str(event.get("from")))
        return f"{pile} filled from {source} with {card}" if event.get("card") else None
    if kind == "base_rank_set":
        try:
            rank = RANK_NAMES[parse_rank(str(event.get("rank")))]
        except ValueError:
            return None
        return f"the foundations start at {rank}"
    if kind == "game_won":
        return "the game is won"
    if kind == "game_lost":
        return "no moves are left: the game is lost"
    return None


def describe(
    variant: Variant, state: State | None, move: Move, events: list[dict[str, Any]]
) -> str:
    """The move and what it set off: "7♥ from pile 6 to pile 5; 4♣ turned up on pile 6"."""
    said = [describe_move(variant, state, move)]
    said += [words for event in events if (words := describe_event(variant, event))]
    return "; ".join(said)
