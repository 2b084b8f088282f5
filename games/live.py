"""Live updates: after a transaction commits, what changed goes to the websocket groups.

Nothing here runs before the commit, so no client ever sees a change that was rolled back.
A game's watchers (``ws/games/<id>/``) get the game as its player sees it, with its version
(``move_number``) and events; a daily leaderboard's watchers get a "changed" signal, and
each consumer fetches the board at most a few times a second (see ``games.consumers``).
"""

from __future__ import annotations

import json
import uuid
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from rest_framework.renderers import JSONRenderer

if TYPE_CHECKING:
    import datetime as dt

    from games.models import Game
    from games.rules import State


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def leaderboard_group(date: dt.date, variant: str) -> str:
    return f"leaderboard-{date.isoformat()}-{variant}"


def schedule_game_update(game: Game, state: State, events: list[dict[str, Any]]) -> None:
    """After the commit: the game's new version to its watchers, its board to the ranking."""

    def send() -> None:
        from games.selectors import game_representation

        body = json.loads(JSONRenderer().render(game_representation(game, state, events)))
        _send(game_group(game.pk), {"type": "game.update", "game": body})
        if game.ranked and game.daily_id:
            _send(leaderboard_group(game.daily.date, game.daily.variant), _changed())

    transaction.on_commit(send)


def schedule_leaderboard_update(date: dt.date, variant: str) -> None:
    transaction.on_commit(lambda: _send(leaderboard_group(date, variant), _changed()))


def _changed() -> dict[str, Any]:
    # The id lets every watcher in a process recognise the same change, so one read of the
    # board after it serves them all.
    return {"type": "leaderboard.changed", "change": uuid.uuid4().hex}


def _send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)
