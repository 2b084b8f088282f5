"""A player's actions on a game as both edges take them, REST (``games.play.views``) and the
game's websocket (``games.consumers``): the body read by the same serializer, the same service
call, once per ``Idempotency-Key`` (``games.answers.answer_once``), the same answer.

Each takes the player, the game's id, the body as the REST endpoint takes it (a JSON object)
and the key, and returns the answer or raises the refusal, which each edge writes its own way
(a response; a message on the socket)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from games.answers import Answer, answer_once
from games.inputs import valid
from games.play import services
from games.play.idempotency import IdempotencyKey
from games.play.inputs import ActionInput, MoveInput, UndoInput

Action = Callable[[AbstractBaseUser, int, dict[str, Any], IdempotencyKey | None], Answer]


def move(
    user: AbstractBaseUser, game_id: int, body: dict[str, Any], key: IdempotencyKey | None
) -> Answer:
    """``POST /api/games/{id}/moves/``: 201 and the game with the move's events."""
    data = valid(MoveInput, body)
    return answer_once(
        user,
        key,
        lambda: services.play_move(
            user=user,
            game_id=game_id,
            move=data["move"],
            expected_move_number=data.get("expected_move_number"),
            away_ms=data.get("away_ms"),
        ),
        status=201,
    )


def undo(
    user: AbstractBaseUser, game_id: int, body: dict[str, Any], key: IdempotencyKey | None
) -> Answer:
    """``POST /api/games/{id}/undo/``."""
    data = valid(UndoInput, body)
    return answer_once(
        user,
        key,
        lambda: services.undo_move(
            user=user,
            game_id=game_id,
            expected_move_number=data.get("expected_move_number"),
            away_ms=data.get("away_ms"),
        ),
    )


def _action(service: Callable[..., Any]) -> Action:
    """An action whose body is an optional ``expected_move_number`` alone."""

    def act(
        user: AbstractBaseUser, game_id: int, body: dict[str, Any], key: IdempotencyKey | None
    ) -> Answer:
        data = valid(ActionInput, body)
        expected = data.get("expected_move_number")
        return answer_once(
            user,
            key,
            lambda: service(user=user, game_id=game_id, expected_move_number=expected),
        )

    return act


resign = _action(services.resign_game)
end = _action(services.end_game)
abandon = _action(services.abandon_game)

#: The actions by the name of their REST path (``/api/games/{id}/<name>/``).
ACTIONS: dict[str, Action] = {
    "moves": move,
    "undo": undo,
    "resign": resign,
    "end": end,
    "abandon": abandon,
}
