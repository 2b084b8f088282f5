"""How each game's table is set out and named: the one description the pages and the admin draw.

A game module declares its ``table``: rows of slots, left to right, sizes in card widths. A slot
is a pile (``Slot``: how wide, how many top cards a fanned pile shows) or a spacer (``Gap``); a
``Row`` of the tableau fans its piles down; a ``Clock`` holds foundations round a dial, 12
o'clock first. ``units`` is the table's width in card widths (columns * 1.1 - 0.1, a gap being
0.1 card), ``tall`` the height to keep in view (cards shrink to fit a short window).

A table may also declare its ``narrow`` arrangement: another table of plain rows, the same piles
set out for a phone's portrait screen (a wide tableau in two rows, say), which a board narrower
than 560 px takes when it lets the whole table show with larger cards, of a touch target's
width at least (``frontend/static/frontend/js/board.js``). Its rows place the piles only: the
pages keep them in the order of the wide table.

``describe(variant)`` is what ``GET /api/variants/`` serves of a game beyond its name: the
table, each pile's names in words and what the opening deal puts on it (counted from a dealt
state, never written down twice), and the rules a page draws by (how an empty foundation
starts, when one is complete, whether the first card home chooses the base rank).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .cards import ACE, rank_char

if TYPE_CHECKING:
    from .variant import Variant


@dataclass(frozen=True)
class Slot:
    pile: str
    span: float = 1  # card widths
    show: int = 1  # the top cards a waste fans


@dataclass(frozen=True)
class Gap:
    width: float  # card widths


@dataclass(frozen=True)
class Row:
    slots: tuple[Slot | Gap, ...]
    tableau: bool = False  # its piles fan down
    justify: str | None = None  # a CSS justify-content, when not the default

    def pile_ids(self) -> tuple[str, ...]:
        return tuple(slot.pile for slot in self.slots if isinstance(slot, Slot))


@dataclass(frozen=True)
class Clock:
    """Foundations round a dial. On a wide board the clock stands beside the tableau, the
    table ``beside_units`` wide and ``beside_tall`` tall; on a narrow one it is a compact frame
    above the tableau, the table ``frame_tall`` tall (site.css picks). In a table's ``narrow``
    arrangement it is a band across the table's width, ``frame_tall`` its own height (the
    ``beside`` sizes unused there)."""

    piles: tuple[str, ...]  # foundations clockwise from 12 o'clock
    beside_units: float
    beside_tall: float
    frame_tall: float

    def pile_ids(self) -> tuple[str, ...]:
        return self.piles


@dataclass(frozen=True)
class Table:
    units: float
    tall: float
    rows: tuple[Row | Clock, ...]
    narrow: Table | None = None  # a phone's portrait arrangement of the same piles

    def pile_ids(self) -> list[str]:
        """Every pile the table places, row by row."""
        return [pile_id for row in self.rows for pile_id in row.pile_ids()]


def numbered(kind: str, count: int) -> tuple[str, ...]:
    """``numbered("tableau", 3)`` → ("tableau:0", "tableau:1", "tableau:2")."""
    return tuple(f"{kind}:{i}" for i in range(count))


def slots(pile_ids: tuple[str, ...]) -> tuple[Slot, ...]:
    return tuple(Slot(pile_id) for pile_id in pile_ids)


def _slot_json(slot: Slot | Gap) -> dict[str, Any]:
    if isinstance(slot, Gap):
        return {"gap": slot.width}
    return {"pile": slot.pile, "span": slot.span, "show": slot.show}


def _row_json(row: Row | Clock) -> dict[str, Any]:
    if isinstance(row, Clock):
        return {
            "clock": True,
            "tableau": False,
            "justify": None,
            "slots": [_slot_json(Slot(pile_id)) for pile_id in row.piles],
            "beside": {"units": row.beside_units, "tall": row.beside_tall},
            "frame": {"tall": row.frame_tall},
        }
    return {
        "clock": False,
        "tableau": row.tableau,
        "justify": row.justify,
        "slots": [_slot_json(slot) for slot in row.slots],
        "beside": None,
        "frame": None,
    }


def _table_json(table: Table) -> dict[str, Any]:
    return {
        "units": table.units,
        "tall": table.tall,
        "rows": [_row_json(row) for row in table.rows],
    }


def describe(variant: Variant) -> dict[str, Any]:
    """The game's table, piles and drawing rules as JSON (see the module's docstring)."""
    opening = variant.deal(0)
    piles = []
    for i, (pile_id, kind) in enumerate(zip(variant.pile_ids, variant.kinds, strict=True)):
        complete = variant.complete_rank(i) if kind == "foundation" else None
        dealt = opening.piles[i]
        piles.append(
            {
                "id": pile_id,
                "kind": kind,
                "title": variant.pile_title(i),
                "name": variant.pile_name(i),
                "label": variant.pile_label(i),
                "complete_rank": rank_char(complete) if complete else None,
                "opening": {"cards": len(dealt.cards), "face_down": dealt.face_down},
            }
        )
    start = variant.foundation_start
    table = variant.table
    return {
        "piles": piles,
        "table": {
            **_table_json(table),
            "narrow": _table_json(table.narrow) if table.narrow else None,
        },
        "foundation_start": start,
        "foundation_start_rank": rank_char(ACE) if start == "ace" else None,
        # The first card home sets the base rank when the deal has not set it already.
        "chooses_base_rank_on_first_foundation_move": (
            start == "base_rank" and opening.base_rank is None
        ),
    }
