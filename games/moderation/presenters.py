"""The staff review pages' words and boards: moves, events, cards and timings as people
read them."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings

from games.models import Game
from games.moderation import review
from games.rules import VARIANTS, cards


def _game_time(game: Game) -> str:
    """The game's time as its player and the leaderboards see it (``games.core.clock``)."""
    return duration_text(game.active_ms)


def duration_text(ms: float) -> str:
    """A time in the unit that suits it, rounded before it is split into units, so that
    119.6 s reads "2 min 0 s", never "1 min 60 s"."""
    if round(ms) < 1000:
        return f"{ms:.0f} ms"
    if round(ms / 10) < 6000:  # under a minute in hundredths of a second
        return f"{ms / 1000:.2f} s"
    if (seconds := round(ms / 1000)) < 3600:
        minutes, seconds = divmod(seconds, 60)
        return f"{minutes} min {seconds} s"
    hours, minutes = divmod(round(ms / 60_000), 60)
    return f"{hours} h {minutes} min"


def pile_title(slug: str, pile_id: Any) -> str:
    """A pile as the play page titles it, from the engine's name: "Tableau pile 1",
    "Foundation 2", "6 o'clock foundation", "Stock"; an id the game lacks as it is."""
    variant = VARIANTS.get(slug)
    index = variant.index.get(pile_id) if variant and isinstance(pile_id, str) else None
    return str(pile_id) if index is None else variant.pile_title(index)


def move_text(payload: Any, slug: str) -> str:
    if isinstance(payload, dict):
        kind = payload.get("type")
        if kind in ("deal", "undo", "resign", "close") and len(payload) == 1:
            return kind
        if kind == "move":
            count = payload.get("count", 1)
            suffix = f" \u00d7{count}" if count != 1 else ""
            source, target = (
                pile_title(slug, payload.get("from")),
                pile_title(slug, payload.get("to")),
            )
            return f"{source} \u2192 {target}{suffix}"
    return json.dumps(payload)


#: Event fields that hold a pile's id, and one that holds a card's code.
EVENT_PILE_KEYS = ("pile", "from", "to")


EVENT_CARD_KEY = "card"


#: The order fields are said in (PostgreSQL's jsonb keeps its own order, not the engine's).
EVENT_KEY_ORDER = (*EVENT_PILE_KEYS, EVENT_CARD_KEY)


def event_text(event: Any, slug: str) -> str:
    """An engine event with its piles and cards named as the boards beside it name them:
    "pile_filled: pile Tableau pile 7, from Stock, card 2♥" (not "pile=tableau:6")."""
    if not (isinstance(event, dict) and "type" in event):
        return json.dumps(event)
    fields = []
    known = [key for key in EVENT_KEY_ORDER if key in event]
    others = sorted(key for key in event if key not in EVENT_KEY_ORDER and key != "type")
    for key in known + others:
        value = event[key]
        if key in EVENT_PILE_KEYS:
            value = pile_title(slug, value)
        elif key == EVENT_CARD_KEY:
            value = card_text(value)
        fields.append(f"{key} {value}")
    return f"{event['type']}: {', '.join(fields)}" if fields else str(event["type"])


def card_text(code: Any) -> str:
    """A card's code as the boards show it: "2H" as "2♥", "TS" as "10♠"."""
    try:
        return cards.card_label(cards.parse_card(str(code)))
    except ValueError:
        return str(code)


def card(code: Any, face_down: bool) -> dict[str, Any]:
    try:
        c = cards.parse_card(str(code))
    except ValueError:  # not a card: shown as it is
        rank, suit, red, name = str(code), "", False, str(code)
    else:
        rank, suit = cards.RANK_LABELS[cards.RANK[c]], cards.SUIT_SYMBOLS[cards.SUIT[c]]
        red, name = cards.IS_RED[c], cards.card_name(c)
    return {
        "rank": rank,
        "suit": suit,
        "red": red,
        "down": face_down,
        "title": f"{name} (face down)" if face_down else name,
    }


def board(state: Any, move: Any = None) -> list[dict[str, Any]] | None:
    """The full state as rows of piles of cards, every card face up or not, the rows as the
    game's table sets them out; the piles the ``move`` took from and put to are marked."""
    if not isinstance(state, dict) or not isinstance(state.get("piles"), dict):
        return None
    touched: dict[str, str] = {}
    if isinstance(move, dict) and move.get("type") == "move":
        touched = {str(move.get("from")): "source", str(move.get("to")): "target"}
    elif isinstance(move, dict) and move.get("type") == "deal":
        touched = {"stock": "source"}
    slug = str(state.get("variant"))
    piles = state["piles"]
    variant = VARIANTS.get(slug)
    # The table's rows, then any pile the table does not place.
    layout = [
        ("tableau" if getattr(row, "tableau", False) else "top", row.pile_ids())
        for row in (variant.table.rows if variant else ())
    ]
    placed = {pile_id for _, ids in layout for pile_id in ids}
    layout.append(("top", tuple(pile_id for pile_id in piles if pile_id not in placed)))
    rows = []
    for kind, ids in layout:
        row = [_pile(slug, pile_id, piles[pile_id], touched) for pile_id in ids if pile_id in piles]
        if row:
            rows.append({"kind": kind, "piles": row})
    return rows


def _pile(slug: str, pile_id: str, pile: Any, touched: dict[str, str]) -> dict[str, Any]:
    codes = pile.get("cards", []) if isinstance(pile, dict) else []
    down = pile.get("face_down", 0) if isinstance(pile, dict) else 0
    return {
        "id": pile_id,
        "label": pile_title(slug, pile_id),
        "count": len(codes),
        "face_down": down,
        # Piles that are not columns lie as a fan: a stock holds up to 84 cards.
        "fan": pile_id.partition(":")[0] != "tableau",
        "touched": touched.get(pile_id, ""),
        "cards": [card(code, i < down) for i, code in enumerate(codes)],
    }


def timeline_rows(game: Game) -> list[dict[str, Any]]:
    """The move list: each entry with its time (UTC) and the time since the one before."""
    fast = settings.FAIR_PLAY_BURST_MS
    rows = [
        {
            "number": 0,
            "move": "the deal",
            "events": "",
            "time": f"{game.created_at:%H:%M:%S.%f}"[:-3],
            "gap": "",
            "fast": False,
        }
    ]
    slug = game.deal.variant
    for entry in review.review_timeline(game):
        rows.append(
            {
                "number": entry["number"],
                "move": move_text(entry["move"], slug),
                "events": "; ".join(event_text(e, slug) for e in entry["events"] or []),
                "time": f"{entry['received_at']:%H:%M:%S.%f}"[:-3],
                "gap": duration_text(entry["gap_ms"]),
                "fast": entry["gap_ms"] < fast,
            }
        )
    return rows


def step_context(game: Game, step: int) -> dict[str, Any]:
    data = review.review_step(game, step)
    entry = data["entry"]
    move = entry["move"] if entry else None
    if entry:
        entry = {
            "number": entry["number"],
            "move": move_text(move, game.deal.variant),
            "events": [event_text(e, game.deal.variant) for e in entry["events"] or []],
            "time": f"{entry['received_at']:%Y-%m-%d %H:%M:%S.%f}"[:-3],
            "gap": duration_text(entry["gap_ms"]),
            "fast": entry["gap_ms"] < settings.FAIR_PLAY_BURST_MS,
        }
    return {
        "step": step,
        "move_number": game.move_number,
        "previous": max(step - 1, 0),
        "next": min(step + 1, game.move_number),
        "entry": entry,
        "error": data["error"],
        "before": board(data["before"], move),
        "after": board(data["after"], move),
    }
