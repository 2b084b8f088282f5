"""The games on offer, as ``GET /api/variants/`` and the pages' menus list them.

Everything here comes from each game's module in ``games.rules``: its name and piles, and the
table the pages draw (``games.rules.table.describe``).
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from games.rules import VARIANTS
from games.rules.table import describe


@cache
def _catalogue() -> tuple[dict[str, Any], ...]:
    return tuple(
        {
            "slug": variant.slug,
            "name": variant.name,
            "description": variant.description,
            "decks": variant.decks,
            **describe(variant),
        }
        for variant in VARIANTS.values()
    )


def variant_catalogue() -> list[dict[str, Any]]:
    """Each game: slug, name, description, its piles in the engine's order (each with its
    names and what the opening deal puts on it) and the table they are set out on."""
    return copy.deepcopy(list(_catalogue()))


def variant_names() -> dict[str, str]:
    """Each game's slug and name, in the engine's order (the pages' menus)."""
    return {slug: variant.name for slug, variant in VARIANTS.items()}
