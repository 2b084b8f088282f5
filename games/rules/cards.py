"""Cards as small integers, and their two-character codes (``AS``, ``TD``, ``QH``).

A card is ``suit * 13 + rank - 1`` (0..51); ranks run 1 (Ace) to 13 (King), suits C D H S.
Two-deck games hold each integer twice: copies are interchangeable. Lookups go through
precomputed tuples because move generation asks for ranks and colours millions of times.
"""

from __future__ import annotations

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "CDHS"
RANK_NAMES = (
    "", "Ace", "Two", "Three", "Four", "Five", "Six", "Seven",
    "Eight", "Nine", "Ten", "Jack", "Queen", "King",
)  # fmt: skip
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
#: How a card's face shows its rank and suit: "10", "♥".
RANK_LABELS = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_SYMBOLS = ("\u2663", "\u2666", "\u2665", "\u2660")

ACE, JACK, QUEEN, KING = 1, 11, 12, 13

RANK: tuple[int, ...] = tuple(c % 13 + 1 for c in range(52))
SUIT: tuple[int, ...] = tuple(c // 13 for c in range(52))
IS_RED: tuple[bool, ...] = tuple(SUIT_CHARS[c // 13] in "DH" for c in range(52))
CODE: tuple[str, ...] = tuple(RANK_CHARS[c % 13] + SUIT_CHARS[c // 13] for c in range(52))
_BY_CODE = {code: card for card, code in enumerate(CODE)}


def parse_card(code: str) -> int:
    """``"QH"`` → card; raises ValueError for anything that is not a card code."""
    try:
        return _BY_CODE[code]
    except (KeyError, TypeError):
        raise ValueError(f"{code!r} is not a card (rank A23456789TJQK then suit CDHS)") from None


def parse_rank(char: str) -> int:
    if not isinstance(char, str) or len(char) != 1 or char not in RANK_CHARS:
        raise ValueError(f"{char!r} is not a rank (one of A23456789TJQK)")
    return RANK_CHARS.index(char) + 1


def rank_char(rank: int) -> str:
    return RANK_CHARS[rank - 1]


def card_name(card: int) -> str:
    """``"Queen of hearts"``: for messages and screen readers."""
    return f"{RANK_NAMES[RANK[card]]} of {SUIT_NAMES[SUIT[card]]}"


def card_label(card: int) -> str:
    """``"10♥"``: a card as its face's corner shows it."""
    return f"{RANK_LABELS[RANK[card]]}{SUIT_SYMBOLS[SUIT[card]]}"


def new_deck(decks: int = 1) -> list[int]:
    """Unshuffled order: per deck, clubs, diamonds, hearts, spades, each Ace to King."""
    return [card for _ in range(decks) for card in range(52)]


def card_words() -> dict[str, dict[str, dict[str, object]]]:
    """Every rank's and suit's words and signs, by code letter, for the pages (which name
    cards exactly as the engine does): {"ranks": {"T": {"name": "Ten", "label": "10"}, ...},
    "suits": {"H": {"name": "hearts", "symbol": "♥", "red": True}, ...}}."""
    return {
        "ranks": {
            char: {"name": RANK_NAMES[rank], "label": RANK_LABELS[rank]}
            for rank, char in enumerate(RANK_CHARS, start=1)
        },
        "suits": {
            char: {"name": SUIT_NAMES[suit], "symbol": SUIT_SYMBOLS[suit], "red": char in "DH"}
            for suit, char in enumerate(SUIT_CHARS)
        },
    }
