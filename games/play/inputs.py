"""How the games API reads a request to play: the bodies of a new game, a move and the other
actions, the games list's filter, the replay step asked for and the ``Idempotency-Key`` (what
every feature reads alike: ``games.inputs``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rest_framework import serializers
from rest_framework.request import Request

from games.inputs import ReplayQuery, body, variant_field, whole_number
from games.models import Game
from games.play import selectors as play_selectors
from games.play.idempotency import MAX_KEY_LENGTH, IdempotencyKey, fingerprint
from games.play.selectors import FINISHED
from games.rules import MAX_SEED
from web.http.errors import ApiError, KnownFieldsOnly

#: As games.play.services.create_game says it.
SEED_MESSAGE = f"A deal number is a whole number from 0 to {MAX_SEED}."
MOVE_NUMBER_MESSAGE = "The game's move number as you last saw it: a whole number from 0 up."


def expected_move_number() -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=0,
        required=False,
        allow_null=True,
        error_messages=whole_number(MOVE_NUMBER_MESSAGE),
    )


class StrictBooleanField(serializers.BooleanField):
    """true or false, as JSON writes them: DRF's BooleanField also reads "yes", 1 and "off"."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class NewGameInput(KnownFieldsOnly):
    #: A chosen deal number and a winnable deal exclude each other (400 winnable_with_seed).
    schema_extra = {
        "not": {
            "required": ["seed", "winnable"],
            "properties": {"seed": {"type": "integer"}, "winnable": {"enum": [True]}},
        }
    }
    variant = variant_field()
    seed = serializers.IntegerField(
        min_value=0,
        max_value=MAX_SEED,
        required=False,
        allow_null=True,
        error_messages=whole_number(SEED_MESSAGE),
    )
    winnable = StrictBooleanField(
        required=False,
        default=False,
        help_text="true: a random deal the solver has proven winnable (not with a seed). "
        "503 no_winnable_deal when none is ready: try again shortly, or play any deal.",
        error_messages={"invalid": "Send true or false."},
    )


AWAY_MESSAGE = "Time away from the game in milliseconds: a whole number from 0 up."


def away_ms() -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=0,
        required=False,
        allow_null=True,
        help_text="Milliseconds since the game's last entry that the game was out of the "
        "player's sight (a hidden tab): not counted in a casual game's time; ignored for a "
        "ranked attempt (docs/api.md, A game's time).",
        error_messages=whole_number(AWAY_MESSAGE),
    )


class MoveInput(KnownFieldsOnly):
    move = serializers.JSONField(
        help_text='{"type": "move", "from": ..., "to": ..., "count": n} or {"type": "deal"}'
    )
    expected_move_number = expected_move_number()
    away_ms = away_ms()


class ActionInput(KnownFieldsOnly):
    expected_move_number = expected_move_number()


class UndoInput(ActionInput):
    away_ms = away_ms()


class GameFilter(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=[*Game.Status.choices, (FINISHED, "Finished (any status but playing)")],
        required=False,
        help_text=f"A status, or `{FINISHED}` for every game that is over (won, lost, resigned, "
        "closed).",
    )
    variant = variant_field(required=False)


def asked_step(request: Request, game: Game) -> int:
    """``?step=`` (the last one by default). Whatever is not a step of the game's history
    (-1, "abc" or 99) is the same 400 ``invalid_step``, naming the steps to choose from."""
    query = ReplayQuery(data=request.query_params)
    if not query.is_valid():
        raise play_selectors.invalid_step(game)
    return query.validated_data.get("step", game.move_number)


def idempotency_key(request: Request, *, reads_body: bool = True) -> IdempotencyKey | None:
    """The request's ``Idempotency-Key`` with the fingerprint of the request it came with
    (method, path, body: ``idempotency.fingerprint``), or None when it was sent without one.
    ``reads_body`` False: an endpoint that takes no body, whose body (if any) is fingerprinted
    as sent, not read as JSON."""

    def fingerprint_of() -> str:
        sent = body(request) if reads_body else request.body.decode("latin-1")
        return fingerprint(request.method or "POST", request.path, sent)

    return checked_key(request.headers.get("Idempotency-Key"), fingerprint_of)


def checked_key(key: Any, fingerprint_of: Callable[[], str]) -> IdempotencyKey | None:
    """A key as sent (1 to 100 characters, else 400 ``invalid_idempotency_key``; None: none
    sent), with the fingerprint of its request, worked out once the key is found good."""
    if key is None:
        return None
    if not isinstance(key, str) or not 0 < len(key) <= MAX_KEY_LENGTH:
        raise ApiError("invalid_idempotency_key", "An Idempotency-Key has 1 to 100 characters.")
    return IdempotencyKey(key, fingerprint_of())
