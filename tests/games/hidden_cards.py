"""Checks that a text or a player's view shows no card lying face down, nor the seed.

Shared by the REST privacy test (tests/games/test_privacy.py) and the websocket one
(tests/games/test_websocket_privacy.py). ``full`` is the server's own snapshot
(``Game.state``, every card known) at the moment the text was sent.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from games.rules.cards import CODE, card_name

#: A card code standing alone ("\"7H\"" in JSON).
CARD = re.compile(r"(?<![A-Za-z0-9])([A2-9TJQK][CDHS])(?![A-Za-z0-9])")
#: The code of each card's name in words ("seven of hearts": "7H"), as ``card_name`` writes it.
CODE_BY_NAME = {card_name(card).lower(): CODE[card] for card in range(52)}
#: A card named in words ("Seven of hearts" in "The Seven of hearts cannot go on ..."), in any
#: case.
NAME = re.compile(r"\b(" + "|".join(CODE_BY_NAME) + r")\b", re.IGNORECASE)


def named_cards(text: str) -> Counter:
    """The codes of the cards ``text`` names, by code or in words."""
    found = Counter(CARD.findall(text))
    found.update(CODE_BY_NAME[name.lower()] for name in NAME.findall(text))
    return found


def face_down_count(pile_id: str, pile: dict[str, Any]) -> int:
    return len(pile["cards"]) if pile_id == "stock" else pile["face_down"]


def split_cards(full: dict[str, Any]) -> tuple[Counter, Counter]:
    """The codes lying face down and face up in a full (server-side) state."""
    down, up = Counter(), Counter()
    for pile_id, pile in full["piles"].items():
        hidden = face_down_count(pile_id, pile)
        down.update(pile["cards"][:hidden])
        up.update(pile["cards"][hidden:])
    return down, up


def assert_view_hides(view: dict[str, Any], full: dict[str, Any]) -> None:
    """A player's view: every face-down position null, every face-up one the card, no seed."""
    assert view["seed"] is None
    assert set(view["piles"]) == set(full["piles"])
    shown = Counter()
    for pile_id, pile in full["piles"].items():
        hidden = face_down_count(pile_id, pile)
        expected = [None] * hidden + pile["cards"][hidden:]
        assert view["piles"][pile_id]["cards"] == expected, pile_id
        shown.update(card for card in view["piles"][pile_id]["cards"] if card is not None)
    assert shown == split_cards(full)[1], "each code as often as it lies face up, never more"


def assert_text_hides(text: str, full: dict[str, Any], seed: int, where: str) -> None:
    """Search the raw text: no card that is only face down, by code or in words; no seed."""
    down, up = split_cards(full)
    found = named_cards(text)
    leaked = sorted(code for code in found if down[code] and not up[code])
    assert not leaked, f"{where}: face-down cards {leaked} in {text[:400]}"
    assert str(seed) not in text, f"{where}: the seed {seed} is in the response"


def assert_outside_view_only_face_up(body: Any, full: dict[str, Any], where: str) -> None:
    """Outside the board (events, messages, history) a card may only be named, by code or in
    words, if it is face up."""
    if isinstance(body, dict) and "state" in body:
        body = {key: value for key, value in body.items() if key != "state"}
    up = split_cards(full)[1]
    named = set(named_cards(json.dumps(body, ensure_ascii=False)))
    assert all(up[code] for code in named), f"{where}: {sorted(c for c in named if not up[c])}"
