"""The player's settings of the play page, their choices and defaults: one table read by the
model (``accounts.models.PlayerSettings``), the service that saves them, the API's body and the
pages (``frontend.context_processors``, which puts them in every page for
``frontend/static/frontend/js/settings.js``, whose ``CHOICES`` must match these)."""

from __future__ import annotations

from typing import Any

#: Each setting's allowed values (a tuple of strings) or ``bool``, in the order the dialog
#: shows them.
CHOICES: dict[str, tuple[str, ...] | type[bool]] = {
    "speed": ("off", "fast", "normal", "slow"),  # card animation
    "autoplay": ("off", "safe", "all"),  # automatic play to the foundations
    "sound": bool,
    "card_back": ("blue", "red", "green", "black"),
    "table": ("green", "blue", "red", "grey"),
    "left_handed": bool,  # a phone's buttons and stock on the left
    "winnable_only": bool,  # new random deals proven winnable
}

DEFAULTS: dict[str, Any] = {
    "speed": "normal",
    "autoplay": "off",
    "sound": False,
    "card_back": "blue",
    "table": "green",
    "left_handed": False,
    "winnable_only": False,
}

NAMES = tuple(CHOICES)


def refusal(name: str, value: Any) -> str | None:
    """Why ``value`` is no value of the setting ``name``, in words; None when it is one."""
    allowed = CHOICES[name]
    if allowed is bool:
        return None if isinstance(value, bool) else "Send true or false."
    if isinstance(value, str) and value in allowed:
        return None
    return "Choose one of " + ", ".join(f'"{choice}"' for choice in allowed) + "."
