"""How the games API answers a write: the answer ``write_once`` gives (or the one stored for
the request's ``Idempotency-Key``), and the refusals every write may give, for the schema."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rest_framework.response import Response

from web.http.errors import ApiErrorBody

if TYPE_CHECKING:
    from games.play.services import WriteAnswer

ERRORS = {400: ApiErrorBody, 404: ApiErrorBody, 409: ApiErrorBody}


def answer(result: WriteAnswer) -> Response:
    """The response of a write: its answer, or the answer stored for its Idempotency-Key."""
    return Response(result.body(), status=result.status)
