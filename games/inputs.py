"""A request's body and query as the games API reads them, refused in the API's words."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from rest_framework.request import Request
from rest_framework.response import Response

from games.play import selectors as play_selectors
from games.play.idempotency import MAX_KEY_LENGTH, IdempotencyKey
from games.rules import VARIANTS
from games.serializers import UNKNOWN_VARIANT_MESSAGE, ReplayQuery
from web.http.errors import ApiError, ApiErrorBody

if TYPE_CHECKING:
    from games.models import Game
    from games.play.services import Answer


ERRORS = {400: ApiErrorBody, 404: ApiErrorBody, 409: ApiErrorBody}


def valid(serializer_class: type, data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def asked_step(request: Request, game: Game) -> int:
    """``?step=`` (the last one by default). Whatever is not a step of the game's history
    (-1, "abc" or 99) is the same 400 ``invalid_step``, naming the steps to choose from."""
    query = ReplayQuery(data=request.query_params)
    if not query.is_valid():
        raise play_selectors.invalid_step(game)
    return query.validated_data.get("step", game.move_number)


def body(request: Request) -> dict[str, Any]:
    """The JSON body as an object (an empty body counts as ``{}``)."""
    data = request.data
    if not isinstance(data, dict):
        raise ApiError("malformed_json", "The request body must be a JSON object.")
    return data


def known_variant(slug: str) -> str:
    if slug not in VARIANTS:
        raise ApiError("unknown_variant", UNKNOWN_VARIANT_MESSAGE.format(input=slug), 404)
    return slug


def idempotency_key(request: Request) -> IdempotencyKey | None:
    """The request's ``Idempotency-Key`` (1 to 100 characters) with the fingerprint of the
    request it came with (method, path, body), or None when it was sent without one."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not 0 < len(key) <= MAX_KEY_LENGTH:
        raise ApiError("invalid_idempotency_key", "An Idempotency-Key has 1 to 100 characters.")
    fingerprint = hashlib.sha256(
        f"{request.method} {request.path}\n".encode() + request.body
    ).hexdigest()
    return IdempotencyKey(key, fingerprint)


def answer(result: Answer) -> Response:
    """The response of a write: its answer, or the answer stored for its Idempotency-Key."""
    return Response(result.body(), status=result.status)
