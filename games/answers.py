"""How the games API answers a write: what a write answers (``WriteAnswer``: a game's
``Outcome``, a hint, or the answer stored for a retried ``Idempotency-Key``), its response,
and the refusals every write may give, for the schema."""

from __future__ import annotations

from typing import Any, Protocol

from rest_framework.response import Response

from web.http.errors import ApiErrorBody

ERRORS = {400: ApiErrorBody, 404: ApiErrorBody, 409: ApiErrorBody}


class WriteAnswer(Protocol):
    """What a write answers: ``Outcome``, a hint, or a retry's ``StoredAnswer``."""

    status: int

    def body(self) -> Any: ...


def answer(result: WriteAnswer) -> Response:
    """The response of a write: its answer, or the answer stored for its Idempotency-Key."""
    return Response(result.body(), status=result.status)
