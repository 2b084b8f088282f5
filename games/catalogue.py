"""The games on offer, as ``GET /api/variants/`` and the pages describe them."""

from __future__ import annotations

from typing import Any

from games.rules import VARIANTS


def variant_catalogue() -> list[dict[str, Any]]:
    """Each game: slug, name, description and its piles, in the engine's order."""
    return [
        {
            "slug": variant.slug,
            "name": variant.name,
            "description": variant.description,
            "decks": variant.decks,
            "piles": [
                {"id": pile_id, "kind": kind}
                for pile_id, kind in zip(variant.pile_ids, variant.kinds, strict=True)
            ],
        }
        for variant in VARIANTS.values()
    ]


def variant_names() -> dict[str, str]:
    """Each game's slug and name, in the engine's order (the pages' menus)."""
    return {slug: variant.name for slug, variant in VARIANTS.items()}
