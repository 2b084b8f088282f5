"""Live updates: after a game's transaction commits, its new state goes to its websocket group.

Consumers (``ws/games/<id>/``) join ``game_group(id)``; nothing here runs before the commit, so
a client never sees a change that was rolled back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

if TYPE_CHECKING:
    from games.models import Game
    from games.rules import State


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def schedule_game_update(game: Game, state: State, events: list[dict[str, Any]]) -> None:
    """Send the game's new version to its watchers once the current transaction commits."""
    message = {
        "type": "game.update",
        "game_id": game.pk,
        "move_number": game.move_number,
        "status": game.status,
        "events": events,
    }
    transaction.on_commit(lambda: _send(game_group(game.pk), message))


def _send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)
