"""Live updates: after a transaction commits, what changed goes to the websocket groups.

Nothing here runs before the commit, so no client ever sees a change that was rolled back.
A game's watchers (``ws/games/<id>/``) get the game as its player sees it, with its version
(``move_number``) and events; a daily leaderboard's watchers get a "changed" signal, and
each consumer fetches the board at most a few times a second (see ``games.consumers``).

Sent with the channel layer's own ``group_send`` (``web.live.publish``). Two processes may
publish two versions of one game in the wrong order (one moment apart): every update carries
the whole game and its version, and clients keep the newest they have seen
(``frontend/static/frontend/js/play.js`` show). The history in the database is the record; an
update lost with its process is caught up on reconnection (``?since=``).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.db import transaction

from web.live.publish import publish, publish_through

if TYPE_CHECKING:
    import datetime as dt

    from games.models import Game


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def leaderboard_group(date: dt.date, variant: str) -> str:
    return f"leaderboard-{date.isoformat()}-{variant}"


def schedule_game_update(game: Game, body: Callable[[], dict[str, Any]]) -> None:
    """After the commit: ``body()`` (the game as its player sees it, JSON-ready) to its
    watchers, and a change signal to its daily leaderboard if it is a ranked attempt."""

    def send() -> None:
        publish(game_group(game.pk), {"type": "game.update", "game": body()})
        if game.ranked and game.daily_id:
            publish(leaderboard_group(game.daily.date, game.daily.variant), _changed())

    # robust: the change is committed whatever Redis does; a failed publish is logged.
    transaction.on_commit(send, robust=True)


def schedule_leaderboard_update(date: dt.date, variant: str) -> None:
    transaction.on_commit(
        lambda: publish(leaderboard_group(date, variant), _changed()), robust=True
    )


def _changed() -> dict[str, Any]:
    # The id lets every watcher in a process recognise the same change, so one read of the
    # board after it serves them all.
    return {"type": "leaderboard.changed", "change": uuid.uuid4().hex}


def send_updates_through(loop: asyncio.AbstractEventLoop | None) -> None:
    """A server's background thread (the day closer) sends its live updates on the server's
    event loop, as requests do: the in-memory channel layer works on its own loop only."""
    publish_through(loop)
