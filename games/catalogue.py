"""The games on offer, as ``GET /api/variants/`` and the pages' menus list them.

Everything here comes from each game's module in ``games.rules``: its name and piles, and the
table the pages draw (``games.rules.table.describe``).
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Annotated, NotRequired, TypedDict, cast

from games.rules import VARIANTS
from games.rules.table import describe


class Opening(TypedDict):
    cards: Annotated[int, "Cards the opening deal puts on the pile."]
    face_down: Annotated[int, "How many of them lie face down."]


class VariantPile(TypedDict):
    id: str
    kind: str
    title: Annotated[str, 'As a label names it: "Tableau pile 4", "Stock".']
    name: Annotated[str, 'As a sentence names it: "tableau pile 4", "the 12 o\'clock foundation".']
    label: Annotated[str | None, "What the table writes beside the pile (a clock's hour)."]
    complete_rank: Annotated[
        str | None, "A foundation complete when this rank is on top; null: at 13 cards."
    ]
    opening: Opening


class TableSlot(TypedDict):
    pile: NotRequired[Annotated[str, "A pile's id; absent for a spacer."]]
    span: NotRequired[Annotated[float, "Width in card widths."]]
    show: NotRequired[Annotated[int, "Top cards a waste fans."]]
    gap: NotRequired[Annotated[float, "A spacer's width in card widths."]]


class TableSize(TypedDict):
    units: NotRequired[Annotated[float, "Width in card widths."]]
    tall: Annotated[float, "Height to keep in view, in card widths."]


class TableRow(TypedDict):
    clock: Annotated[bool, "Foundations round a dial, 12 o'clock first."]
    tableau: Annotated[bool, "Its piles fan down."]
    justify: str | None
    slots: list[TableSlot]
    beside: Annotated[TableSize | None, "A clock's table beside the tableau, on a wide board."]
    frame: Annotated[TableSize | None, "A clock's table as a compact frame, on a narrow board."]


class TableLayout(TypedDict):
    """Where the pages set a game's piles out (``games.rules.table.describe``)."""

    units: Annotated[float, "The table's width in card widths."]
    tall: Annotated[float, "The height to keep in view, in card widths."]
    rows: list[TableRow]


class Variant(TypedDict):
    """A game: its piles in the engine's order and the table the pages set them out on."""

    slug: str
    name: str
    description: str
    decks: int
    piles: list[VariantPile]
    table: TableLayout
    foundation_start: Annotated[
        str | None, 'How an empty foundation starts: "ace", "base_rank" or null.'
    ]
    foundation_start_rank: Annotated[
        str | None, "The rank every empty foundation takes, when fixed."
    ]
    chooses_base_rank_on_first_foundation_move: bool


@cache
def _catalogue() -> tuple[Variant, ...]:
    return tuple(
        cast(
            Variant,
            {
                "slug": variant.slug,
                "name": variant.name,
                "description": variant.description,
                "decks": variant.decks,
                **describe(variant),
            },
        )
        for variant in VARIANTS.values()
    )


def variant_catalogue() -> list[Variant]:
    """Each game: slug, name, description, its piles in the engine's order (each with its
    names and what the opening deal puts on it) and the table they are set out on."""
    return copy.deepcopy(list(_catalogue()))


def variant_names() -> dict[str, str]:
    """Each game's slug and name, in the engine's order (the pages' menus)."""
    return {slug: variant.name for slug, variant in VARIANTS.items()}
