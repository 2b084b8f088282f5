"""``Idempotency-Key``: a retried request gets the first response again, and acts once.

The key's record is inserted in the same transaction as the action. A concurrent retry with
the same key blocks on the record's unique index until the first commits, then reads its
stored response; if the first rolled back, the retry acts in its place.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

from django.db import transaction
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.errors import ServiceError
from games.models import IdempotencyRecord
from games.play import move_sql
from web.errors import ApiError, exception_handler

MAX_KEY_LENGTH = 100


def already_answered(request: Request) -> bool:
    """Whether the request carries an Idempotency-Key the player has used before (its answer
    is stored, or being made): ``respond_once`` will not run the action again."""
    key = request.headers.get("Idempotency-Key")
    if key is None or not 0 < len(key) <= MAX_KEY_LENGTH:
        return False
    return IdempotencyRecord.objects.filter(user=request.user, key=key).exists()


def respond_once(request: Request, action: Callable[[], Response]) -> Response:
    """Run ``action`` (which writes in its own nested transaction) at most once per key."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return action()
    if not 0 < len(key) <= MAX_KEY_LENGTH:
        raise ApiError("invalid_idempotency_key", "An Idempotency-Key has 1 to 100 characters.")
    fingerprint = hashlib.sha256(
        f"{request.method} {request.path}\n".encode() + request.body
    ).hexdigest()
    with transaction.atomic():
        record_id = move_sql.claim_idempotency_key(request.user.pk, key, fingerprint)
        if record_id is None:
            record = IdempotencyRecord.objects.get(user=request.user, key=key)
            if record.fingerprint != fingerprint:
                raise ApiError(
                    "idempotency_key_reused",
                    "This Idempotency-Key was used for a different request.",
                    422,
                )
            return Response(record.body, status=record.status_code)
        try:
            response = action()
        except (ApiError, ServiceError) as error:
            response = exception_handler(error, {})
            if response.status_code >= 500:
                # "Not now" (no winnable deal ready): a retry with the key may succeed, so
                # the key is released with the rest of the transaction.
                raise
            # Refusals are answered the same way on a retry; nothing was written.
        # Stored as rendered, so a replay is byte-for-byte what the first caller read.
        body = json.loads(JSONRenderer().render(response.data))
        move_sql.record_idempotent_response(record_id, response.status_code, body)
    return response
