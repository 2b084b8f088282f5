"""What a race's room (``/ws/races/<code>/``) is sent after a commit: the race as anyone sees
it (``selectors.public_view``: progress, never a card, a move or the seed before the end),
built once for all its watchers; each connection adds what is the watcher's own ("you").

A move that changes nothing but its player's progress (most moves of a running race) sends
only that player's line (``race.progress``): no read of the race or of the other players, and
a message a fifth of the size to every watcher."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games.play.selectors import json_time
from games.races import selectors
from games.races.models import Race, RacePlayer
from web.live.publish import publish


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
