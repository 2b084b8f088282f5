"""What a race's room (``/ws/races/<code>/``) is sent after a commit: the race as anyone sees
it (``selectors.public_view``: progress, never a card, a move or the seed before the end),
built once for all its watchers; each connection adds what is the watcher's own ("you").

A move that changes nothing but its player's progress (most moves of a running race) sends
only that player's line (``race.progress``): no read of the race or of the other players, and
a message a fifth of the size to every watcher.

An invitation's recipient is told on their account's group (``accounts.live.account_group``:
their lobby's ``/ws/account/``) when it is no longer theirs to take: the race left waiting,
they joined it, or they declined it (``schedule_invitations_gone``)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from accounts.live import account_group
from games.play.selectors import json_time
from games.races import selectors
from games.races.models import Race, RaceInvitation, RacePlayer
from web.live.publish import publish

#: What an invited player's connections hear when the invitation is no longer theirs to take.
INVITATION_GONE = "account.race_invitation_gone"


def race_group(code: str) -> str:
    return f"race-{code}"


def publish_race(race: Race) -> None:
    """The race as it is now, to its room (read fresh: after the commit that changed it)."""
    publish_race_of(race.pk)


def publish_race_of(race_id: int) -> None:
    """The race ``race_id`` as it is now, to its room; nothing if it is gone."""
    fresh = Race.objects.select_related("deal", "opener", "rematch").filter(pk=race_id).first()
    if fresh is not None:
        publish(
            race_group(fresh.code), {"type": "race.update", "race": selectors.public_view(fresh)}
        )


def publish_progress(entry: RacePlayer, race: Race) -> None:
    """``entry``'s progress (its game as the action left it) to ``race``'s room."""
    now = timezone.now()
    publish(
        race_group(race.code),
        {
            "type": "race.progress",
            "player": selectors.entrant(entry, race, now),
            "now": json_time(now),
        },
    )


def schedule_race_update(race: Race) -> None:
    """After the commit: the race to its room. robust: the change is committed whatever Redis
    does; a failed publish is logged."""
    transaction.on_commit(lambda: publish_race(race), robust=True)


def schedule_invitations_gone(race: Race, recipient_id: int | None = None) -> None:
    """After the commit: the race's invitations (or only ``recipient_id``'s) are gone from
    their recipients' lobbies. One read, in the transaction; nothing to publish when the race
    invited nobody (most races)."""
    invitations = RaceInvitation.objects.filter(race_id=race.pk, declined_at__isnull=True)
    if recipient_id is not None:
        invitations = invitations.filter(recipient_id=recipient_id)
    recipients = list(invitations.values_list("recipient_id", flat=True))
    if recipients:
        transaction.on_commit(lambda: invitations_gone(race.code, recipients), robust=True)


def invitations_gone(code: str, recipient_ids: list[int]) -> None:
    for recipient_id in recipient_ids:
        publish(account_group(recipient_id), {"type": INVITATION_GONE, "code": code})
