"""How a write is answered, over REST and the game's websocket alike: the one place that knows
the ``Idempotency-Key`` and the answer's status.

The services (``games.play.services``, ``games.daily.services``, the hints) return an outcome or
raise a domain refusal (``games.errors.GameError``), each in a transaction of its own. Here,
``answer_once`` wraps one of them for a request that carries a key: it claims the key in an
outer transaction, so the service's transaction is a savepoint of it, stores the answer (or
the refusal) for the key's retries, and commits both together; a retry gets the stored answer
and nothing runs again. ``answer`` writes it as a REST response; the game's websocket sends the
same status and body (``games.consumers``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from games.play import idempotency
from games.play.idempotency import IdempotencyKey
from web.errors import ServiceError
from web.http.errors import ApiError, ApiErrorBody, exception_handler

ERRORS = {400: ApiErrorBody, 404: ApiErrorBody, 409: ApiErrorBody}


class Answerable(Protocol):
    """What a write returns: an outcome with its JSON-ready body (and, for a write whose
    status depends on what it did, an ``answer_status``: a race's, 201 when it opened one)."""

    def body(self) -> Any: ...


def status_of(outcome: Answerable, default: int) -> int:
    return getattr(outcome, "answer_status", None) or default


@dataclass(frozen=True)
class Answer:
    """A write's answer: its status and its body (JSON-ready, or as first rendered for a
    replayed key)."""

    status: int
    data: Any


#: What the same key on another request is answered (its first request's answer is kept).
KEY_REUSED = ("idempotency_key_reused", "This Idempotency-Key was used for a different request.")


def answer_once(
    user: AbstractBaseUser,
    key: IdempotencyKey | None,
    write: Callable[[], Answerable],
    *,
    status: int = 200,
) -> Answer:
    """Run ``write`` (a service call) once for ``key``, answering ``status`` and its body.

    Without a key the service runs on its own. With one: a retry gets the stored answer (the
    same key on another request is 422 ``idempotency_key_reused``); else the service runs in a
    savepoint of the key's transaction, its answer or its refusal is stored with the key, and
    both commit together (a refusal the service commits its writes for, a ranked attempt
    closed as its day is found over, commits them too). A refusal is raised after the commit;
    a refusal of "not now" (5xx: a daily not ready, no winnable deal) is not stored: the key is
    released and a retry may act. The live updates the service scheduled go out after the
    commit."""
    if key is None:
        outcome = write()
        return Answer(status_of(outcome, status), outcome.body())
    refusal: ServiceError | ApiError | None = None
    with transaction.atomic():
        record_id = idempotency.claim(user.pk, key.key, key.fingerprint)
        if record_id is None:
            fingerprint, stored = idempotency.stored_answer(user.pk, key.key)
            if fingerprint != key.fingerprint:
                raise ApiError(*KEY_REUSED, 422)
            return Answer(stored.status, stored.body())
        try:
            outcome = write()
            result = Answer(status_of(outcome, status), outcome.body())
            stored_status, stored_data = result.status, result.data
        except (ServiceError, ApiError) as error:
            refusal = error
            stored_status, stored_data = refusal_answer(error)
            if stored_status >= 500:
                raise
        # Stored as rendered, so a replay is byte-for-byte what the first caller read.
        idempotency.store(record_id, stored_status, rendered(stored_data))
    if refusal is not None:
        raise refusal
    return result


def refusal_answer(error: Exception) -> tuple[int, Any]:
    """The status and body any refusal is answered (the API's error format), or raises
    ``error`` again when it is not one an answer is made of (a server error)."""
    response = exception_handler(error, {})
    if response is None:
        raise error
    return response.status_code, response.data


def rendered(data: Any) -> Any:
    """``data`` as the REST API writes it (dates and times as strings), JSON-ready."""
    return json.loads(JSONRenderer().render(data))


def answer(result: Answer) -> Response:
    """The REST response of a write's answer."""
    return Response(result.data, status=result.status)
