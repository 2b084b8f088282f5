"""Refusals of the games' services (moves, undo, daily challenges, moderation...)."""

from __future__ import annotations

from web.errors import ServiceError


class GameError(ServiceError):
    """A refusal of the games' services: an illegal or stale move, a closed challenge..."""
