"""``Idempotency-Key`` records: a retried request gets the first answer again, and acts once.

The record is claimed in the transaction of the action it answers (``games.answers.
answer_once`` owns both): a concurrent retry with the same key waits on the record's unique index
until the first commits, then reads its stored answer; if the first rolled back, the retry acts
in its place. The SQL is written out here, a statement per function: the browser sends a key
with every move, so the claim is on the move's path (see ``bench/README.md``).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.utils import timezone

from games.models import IdempotencyRecord

MAX_KEY_LENGTH = 100


@dataclass(frozen=True)
class IdempotencyKey:
    """The key a request was sent with, and the fingerprint of that request (method, path,
    body): the same key on a different request is refused."""

    key: str
    fingerprint: str


def fingerprint(method: str, path: str, body: Any) -> str:
    """The fingerprint of a request: its method, its REST path and its body's JSON as
    written canonically (keys sorted, no spaces), so that a move sent over REST and retried
    over the game's websocket with the same key (``games.consumers``) is the same request."""
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(f"{method} {path}\n{canonical}".encode()).hexdigest()


@dataclass(frozen=True)
class StoredAnswer:
    """The answer given to the first request with a key, given again to its retries."""

    status: int
    stored: Any

    def body(self) -> Any:
        return self.stored


def answered(user_id: Any, key: IdempotencyKey | None) -> bool:
    """Whether the player has used the key before (its answer is stored, or being made): a
    write with it will not act again."""
    if key is None:
        return False
    return IdempotencyRecord.objects.filter(user_id=user_id, key=key.key).exists()


def stored_answer(user_id: Any, key: str) -> tuple[str, StoredAnswer]:
    """The fingerprint of the request that claimed the key, and the answer stored for it."""
    record = IdempotencyRecord.objects.get(user_id=user_id, key=key)
    return record.fingerprint, StoredAnswer(record.status_code, record.body)


_CLAIM = (
    "INSERT INTO games_idempotencyrecord (user_id, key, fingerprint, created_at) "
    "VALUES (%s, %s, %s, %s) ON CONFLICT (user_id, key) DO NOTHING RETURNING id"
)


def _insert_returns_rows() -> bool:
    return connection.features.can_return_columns_from_insert


def claim(user_id: Any, key: str, fingerprint: str) -> int | None:
    """A new record for the key (its id), or None if the player has used the key before.

    A record of the same key inserted by a transaction still running makes this wait until
    that one ends: None if it committed, a new record if it rolled back."""
    if not _insert_returns_rows():  # SQLite before 3.35
        record, created = IdempotencyRecord.objects.get_or_create(
            user_id=user_id, key=key, defaults={"fingerprint": fingerprint}
        )
        return record.pk if created else None
    created_at = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(_CLAIM, [user_id, key, fingerprint, created_at])
        row = cursor.fetchone()
    return row[0] if row else None


_STORE = "UPDATE games_idempotencyrecord SET status_code = %s, body = %s WHERE id = %s"


def store(record_id: int, status: int, body: Any) -> None:
    """The answer to replay for the key (``body`` JSON-ready)."""
    with connection.cursor() as cursor:
        cursor.execute(_STORE, [status, connection.ops.adapt_json_value(body, None), record_id])
