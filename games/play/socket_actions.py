"""A player's actions sent on the game's websocket (``ws/games/{id}/``, ``games.consumers``):
moves, undo, resign and end, each the REST request it stands for.

A message ``{"type": "move", "request_id": r, "idempotency_key": k, "move": ...,
"expected_move_number": n, "away_ms": t}`` is ``POST /api/games/{id}/moves/`` with the body
``{"move": ..., "expected_move_number": n, "away_ms": t}`` (the message less ``type``,
``request_id`` and ``idempotency_key``) and the header ``Idempotency-Key: k``: the same
reading of the body, the same service call, once per key with the same fingerprint (a move
sent over REST and retried here is the same request, applied once), the same refusals. It is
answered on the socket ``{"type": "answer", "request_id": r, "status": s, "body": b}``, the
status and body REST would have answered."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection

from games.answers import refusal_answer, rendered
from games.play import writes
from games.play.idempotency import fingerprint
from games.play.inputs import checked_key
from web.http.errors import error_body

logger = logging.getLogger("patience.websockets")

#: A message's type, and the REST path (``/api/games/{id}/<path>/``) it stands for.
PATHS = {"move": "moves", "undo": "undo", "resign": "resign", "end": "end"}
#: What a message carries besides the REST body.
ENVELOPE = frozenset({"type", "request_id", "idempotency_key"})
MAX_REQUEST_ID_LENGTH = 100


def is_action(content: Any) -> bool:
    return isinstance(content, dict) and content.get("type") in PATHS


def request_id_of(content: dict[str, Any]) -> str | int | None:
    """The id the client chose for the message, given back with its answer (a string of up to
    100 characters or a whole number; anything else is given back as null)."""
    request_id = content.get("request_id")
    if isinstance(request_id, bool):
        return None
    if isinstance(request_id, int) or (
        isinstance(request_id, str) and len(request_id) <= MAX_REQUEST_ID_LENGTH
    ):
        return request_id
    return None


def answer_action(user: AbstractBaseUser, game_id: int, content: dict[str, Any]) -> dict[str, Any]:
    """The message answering an action message (``is_action``). Runs in a thread: it reads and
    writes the database."""
    try:
        return _answer(user, game_id, content)
    finally:
        # Given back to the pool, as at the end of a request: the thread is the loop's pool's,
        # which does not end with the action (and in tests ends with no close at all).
        if not connection.in_atomic_block:
            connection.close()


def _answer(user: AbstractBaseUser, game_id: int, content: dict[str, Any]) -> dict[str, Any]:
    path = PATHS[content["type"]]
    body = {name: value for name, value in content.items() if name not in ENVELOPE}
    try:
        key = checked_key(
            content.get("idempotency_key"),
            lambda: fingerprint("POST", f"/api/games/{game_id}/{path}/", body),
        )
        answer = writes.ACTIONS[path](user, game_id, body, key)
        status, data = answer.status, answer.data
    except Exception as error:
        status, data = refusal_or_server_error(error)
    return {"type": "answer", "request_id": request_id_of(content), "status": status, "body": data}


def too_many_actions(content: dict[str, Any]) -> dict[str, Any]:
    """The answer to an action past the connection's ``WEBSOCKET_ACTION_LIMIT``: refused,
    nothing done, the socket kept (send it again in a moment, here or over REST)."""
    message = (
        f"Too many moves on this connection: at most {settings.WEBSOCKET_ACTION_LIMIT} every "
        f"{settings.WEBSOCKET_MESSAGE_PERIOD:g} seconds. Nothing was done: send it again in a "
        "moment."
    )
    return {
        "type": "answer",
        "request_id": request_id_of(content),
        "status": 429,
        "body": error_body("throttled", message),
    }


def refusal_or_server_error(error: Exception) -> tuple[int, Any]:
    """A refusal's status and body as REST answers it; any other exception is logged with its
    traceback and answered 500 ``server_error``, as REST does, and the socket stays open."""
    try:
        status, data = refusal_answer(error)
    except Exception:
        logger.exception("websocket action failed")
        return 500, error_body("server_error", "Something went wrong on our side.")
    return status, rendered(data)
