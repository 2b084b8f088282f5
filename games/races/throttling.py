"""The limits on opening and joining races (``games.play.throttling``'s way: per player and
per address, both budgets must have room; a guest gets ``GUEST_SHARE_PERCENT`` of an
account's): ``race_open`` (``RACES_OPENED_PER_HOUR``) for a new room, ``race_join``
(``RACES_JOINED_PER_HOUR``) for joining one and for a quick race, ``race_invite``
(``RACE_INVITES_PER_HOUR``) for inviting a friend, ``race_decline`` (as many) for declining
an invitation."""

from __future__ import annotations

from games.play.throttling import PlayerThrottle, TooManyRequests


class RaceThrottle(PlayerThrottle):
    """The view's ``throttle_scope``, on POST."""


class DeclineThrottle(PlayerThrottle):
    """Declining an invitation (DELETE)."""

    methods = frozenset({"DELETE"})


def too_many_races(wait: float | None) -> TooManyRequests:
    return TooManyRequests(
        "You (or the players sharing your address) have opened or joined too many races in a "
        "short time.",
        wait,
    )


def too_many_invitations(wait: float | None) -> TooManyRequests:
    return TooManyRequests(
        "You (or the players sharing your address) have sent too many race invitations in a "
        "short time.",
        wait,
    )


def too_many_declines(wait: float | None) -> TooManyRequests:
    return TooManyRequests(
        "You (or the players sharing your address) have declined too many race invitations in "
        "a short time.",
        wait,
    )
