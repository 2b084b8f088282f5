"""The rulings document (games/rules/RULINGS.md) covers every game the engine plays, each from
its seed document, with the piles the engine gives it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.rules import VARIANTS

ROOT = Path(__file__).resolve().parents[2]
RULINGS = (ROOT / "games" / "rules" / "RULINGS.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    """The text of the ``## title`` section, up to the next one."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", RULINGS, re.M | re.S)
    assert match, f"RULINGS.md has no section {title!r}"
    return match.group(1)


@pytest.mark.parametrize("slug", sorted(VARIANTS))
def test_each_game_has_a_section_sourced_from_its_seed_document(slug):
    variant = VARIANTS[slug]
    text = section(variant.name)
    assert f"seeds/{slug}.txt" in text
    assert (ROOT / "seeds" / f"{slug}.txt").is_file()


@pytest.mark.parametrize("slug", sorted(VARIANTS))
def test_each_games_section_names_the_piles_the_engine_gives_it(slug):
    variant = VARIANTS[slug]
    piles = section(variant.name).split("Piles:", 1)[1].split(".", 1)[0]
    named = set(re.findall(r"`(\w+)`", piles))
    numbered = re.findall(r"`(\w+):0`\s+to\s+`\1:(\d+)`", piles)
    named |= {f"{kind}:{i}" for kind, last in numbered for i in range(int(last) + 1)}
    assert named == set(variant.pile_ids)
