"""The SQL of the move path, written out once.

Every move locks its game, appends one history entry and updates the snapshot (and, sent
from the browser, claims its ``Idempotency-Key`` and stores the response). Through the
ORM those steps were the largest part of a move's server time (SQL built anew for each query,
columns and converters resolved on each call; see ``bench/README.md``). These are the same
statements, built once from the models' metadata; values still go through the fields' own
conversions, so the rows are exactly what the ORM would read and write, on PostgreSQL and on
SQLite. Everything else (reads for pages, staff actions) uses the ORM.

What it buys, measured against the same four functions written with the ORM
(``select_related(...).select_for_update(of=("self",))``, ``Move.objects.create``,
``game.save(update_fields=...)``, ``get_or_create``, ``QuerySet.update``) with
``bench/players_bench.py`` (200 players, three interleaved pairs, 2026-11-28): server CPU per
move 6.68, 7.07, 8.16 ms with this module, 13.20, 11.56, 12.57 ms with the ORM (41 % less CPU
a move); in process (``bench/move_cost.py``, no server) 2.58 against 3.30 ms a move.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.db import connection
from django.utils.timezone import now

from games.models import DailyChallenge, Deal, Game, IdempotencyRecord, Move
from web.rows import RowReader

_GAME = RowReader(Game)
_DEAL = RowReader(Deal)
_DAILY = RowReader(DailyChallenge)


@cache
def _lock_sql(for_update_of: bool, for_update: bool) -> str:
    lock = " FOR UPDATE OF g" if for_update_of else " FOR UPDATE" if for_update else ""
    return (
        f"SELECT {_GAME.columns('g')}, {_DEAL.columns('d')}, {_DAILY.columns('c')} "
        f'FROM "{Game._meta.db_table}" g '
        f'JOIN "{Deal._meta.db_table}" d ON d."id" = g."deal_id" '
        f'LEFT JOIN "{DailyChallenge._meta.db_table}" c ON c."id" = g."daily_id" '
        f'WHERE g."id" = %s AND g."owner_id" = %s{lock}'
    )


def lock_game(game_id: int, owner_id: Any) -> Game | None:
    """The owner's game with its deal and daily challenge, its row locked until the
    transaction ends (call inside ``transaction.atomic``); None if there is no such game."""
    low, high = connection.ops.integer_field_range(Game._meta.pk.get_internal_type())
    if not low <= game_id <= high:
        return None  # no row has it, and SQLite's driver would fail on the number
    features = connection.features
    with connection.cursor() as cursor:
        cursor.execute(
            _lock_sql(features.has_select_for_update_of, features.has_select_for_update),
            [game_id, owner_id],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    game = _GAME.build(row)
    Game.deal.field.set_cached_value(game, _DEAL.build(row, _GAME.width))
    if game.daily_id is not None:
        daily = _DAILY.build(row, _GAME.width + _DEAL.width)
        Game.daily.field.set_cached_value(game, daily)
    return game


_MOVE_FIELDS = ("game", "number", "payload", "events", "received_at")


@cache
def _append_sql(fields: tuple[str, ...], one_statement: bool) -> tuple[str, ...]:
    """The insert and the update; PostgreSQL runs both as one statement (one round trip)."""
    columns = ", ".join(f'"{Move._meta.get_field(n).column}"' for n in _MOVE_FIELDS)
    marks = ", ".join(["%s"] * len(_MOVE_FIELDS))
    insert = f'INSERT INTO "{Move._meta.db_table}" ({columns}) VALUES ({marks})'
    update = _update_sql(Game, fields)
    if one_statement:
        # A data-modifying WITH runs whether or not the main statement reads it.
        return (f"WITH new_entry AS ({insert}) {update}",)
    return insert, update


@cache
def _update_sql(model: type, fields: tuple[str, ...]) -> str:
    assignments = ", ".join(f'"{model._meta.get_field(n).column}" = %s' for n in fields)
    return f'UPDATE "{model._meta.db_table}" SET {assignments} WHERE "id" = %s'


def append_entry(game: Game, entry: dict[str, Any], fields: tuple[str, ...]) -> None:
    """Insert a history entry (``Move`` field values by name) and write ``fields`` of the
    game, in the caller's transaction. A duplicate move number fails on the unique index."""
    insert_values = _prepared(Move, _MOVE_FIELDS, entry.__getitem__)
    update_values = [*_prepared(Game, fields, lambda name: getattr(game, name)), game.pk]
    statements = _append_sql(fields, connection.vendor == "postgresql")
    with connection.cursor() as cursor:
        if len(statements) == 1:
            cursor.execute(statements[0], insert_values + update_values)
        else:
            cursor.execute(statements[0], insert_values)
            cursor.execute(statements[1], update_values)


@cache
def _fields(model: type, names: tuple[str, ...]) -> tuple[Any, ...]:
    return tuple(model._meta.get_field(name) for name in names)


def _prepared(model: type, names: tuple[str, ...], value_of: Any) -> list[Any]:
    result = []
    for field in _fields(model, names):
        value = value_of(field.name)
        if field.is_relation:
            value = value.pk if hasattr(value, "pk") else value
        result.append(field.get_db_prep_save(value, connection))
    return result


# -- Idempotency-Key records (the browser sends one with every move) --------------------------


_CLAIM = ("user", "key", "fingerprint", "created_at")


@cache
def _claim_sql() -> str:
    def column(name: str) -> str:
        return f'"{IdempotencyRecord._meta.get_field(name).column}"'

    return (
        f'INSERT INTO "{IdempotencyRecord._meta.db_table}" ({", ".join(map(column, _CLAIM))}) '
        f"VALUES ({', '.join(['%s'] * len(_CLAIM))}) "
        f"ON CONFLICT ({column('user')}, {column('key')}) DO NOTHING RETURNING {column('id')}"
    )


def _insert_returns_rows() -> bool:
    return connection.features.can_return_columns_from_insert


def claim_idempotency_key(user_id: Any, key: str, fingerprint: str) -> int | None:
    """A new record for the key (its id), or None if the player has used the key before.

    A record of the same key inserted by a transaction still running makes this wait until
    that one ends: None if it committed, a new record if it rolled back."""
    if not _insert_returns_rows():  # SQLite before 3.35
        record, created = IdempotencyRecord.objects.get_or_create(
            user_id=user_id, key=key, defaults={"fingerprint": fingerprint}
        )
        return record.pk if created else None
    values = {"user": user_id, "key": key, "fingerprint": fingerprint, "created_at": now()}
    with connection.cursor() as cursor:
        cursor.execute(_claim_sql(), _prepared(IdempotencyRecord, _CLAIM, values.__getitem__))
        row = cursor.fetchone()
    return row[0] if row else None


def record_idempotent_response(record_id: int, status_code: int, body: Any) -> None:
    """The response to replay for the key (``body`` JSON-ready)."""
    values = {"status_code": status_code, "body": body}
    with connection.cursor() as cursor:
        cursor.execute(
            _update_sql(IdempotencyRecord, tuple(values)),
            [*_prepared(IdempotencyRecord, tuple(values), values.__getitem__), record_id],
        )
