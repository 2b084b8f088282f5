"""Refusals of the services, in words a player can act on.

A ``ServiceError`` carries a stable ``code`` and a ``message`` for people (and sometimes more
fields, e.g. the game a player already started). The services say what went wrong, not how
HTTP says it: ``web.http.errors`` maps each code to its status, in one table. Every app's
refusals build on it (``games.errors``); it knows nothing of HTTP.
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A refusal: nothing was changed. ``retry_after``: seconds until trying again may work."""

    def __init__(
        self, code: str, message: str, *, retry_after: int | None = None, **extra: Any
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after
        self.extra = extra
