"""A request's body and query as the games API reads them, refused in the API's words."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rest_framework.request import Request

from games.play import selectors as play_selectors
from games.rules import VARIANTS
from games.serializers import UNKNOWN_VARIANT_MESSAGE, ReplayQuery
from web.errors import ApiError, ApiErrorBody

if TYPE_CHECKING:
    from games.models import Game


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
