"""What every page's template is given."""

from __future__ import annotations

from functools import cache
from typing import Any

from django.http import HttpRequest

from games.rules.cards import card_words


@cache
def _card_words() -> dict[str, Any]:
    return card_words()


def cards(request: HttpRequest) -> dict[str, Any]:
    """The ranks' and suits' words (base.html puts them in the page for cards.js), so the
    pages name cards from ``games/rules/cards.py`` and nowhere else."""
    return {"card_words": _card_words()}
