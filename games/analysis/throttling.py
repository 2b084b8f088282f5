"""The limit on asking for analyses (``POST /api/games/<id>/analysis/``): the ``analysis``
rates per player and per address (``games.play.throttling``'s way: both budgets must have
room; a guest gets ``GUEST_SHARE_PERCENT`` of an account's)."""

from __future__ import annotations

from games.play.throttling import PlayerThrottle, TooManyRequests


class AnalysisThrottle(PlayerThrottle):
    """``POST /api/games/<id>/analysis/``; reading one (GET) is not counted."""


def too_many_analyses(wait: float | None) -> TooManyRequests:
    return TooManyRequests(
        "You (or the players sharing your address) have asked for too many analyses in a short "
        "time.",
        wait,
    )
