"""The SQL of the move path, written out once.

Every move locks its game, appends one history entry and updates the snapshot. Through the
ORM those three steps were the largest part of a move's server time (SQL built anew for each
query, a model instance per joined row; see ``bench/README.md``). These
are the same statements, built once from the models' metadata; values still go through the
fields' own conversion, so the rows are exactly what the ORM would write, on PostgreSQL and on
SQLite. Everything else (reads for pages, staff actions) uses the ORM.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.db import connection

from games.models import DailyChallenge, Deal, Game, Move


@cache
def _lock_sql(for_update_of: bool, for_update: bool) -> str:
    def columns(model: type, alias: str, prefix: str) -> str:
        return ", ".join(
            f'{alias}."{f.column}" AS {prefix}{f.attname}' for f in model._meta.concrete_fields
        )

    lock = " FOR UPDATE OF g" if for_update_of else " FOR UPDATE" if for_update else ""
    return (
        f"SELECT g.*, {columns(Deal, 'd', 'deal__')}, {columns(DailyChallenge, 'c', 'daily__')} "
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
    sql = _lock_sql(features.has_select_for_update_of, features.has_select_for_update)
    game = next(iter(Game.objects.raw(sql, [game_id, owner_id])), None)
    if game is None:
        return None
    game.deal = _joined(game, Deal, "deal__")
    if game.daily_id is not None:
        game.daily = _joined(game, DailyChallenge, "daily__")
    else:  # a casual game: the join found nothing to build
        for field in DailyChallenge._meta.concrete_fields:
            del game.__dict__[f"daily__{field.attname}"]
    return game


def _joined(game: Game, model: type, prefix: str) -> Any:
    """The joined row's instance, from the prefixed columns the raw query put on ``game``,
    each value converted as the ORM converts that field's column (dates on SQLite, say)."""
    values = []
    for field in model._meta.concrete_fields:
        value = game.__dict__.pop(prefix + field.attname)
        column = field.get_col(model._meta.db_table)
        converters = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
        if value is not None:
            for convert in converters:
                value = convert(value, column, connection)
        values.append(value)
    return model.from_db(game._state.db, [f.attname for f in model._meta.concrete_fields], values)


_MOVE_FIELDS = ["game", "number", "payload", "events", "received_at"]


@cache
def _insert_move_sql() -> str:
    columns = ", ".join(f'"{Move._meta.get_field(n).column}"' for n in _MOVE_FIELDS)
    marks = ", ".join(["%s"] * len(_MOVE_FIELDS))
    return f'INSERT INTO "{Move._meta.db_table}" ({columns}) VALUES ({marks})'


@cache
def _update_game_sql(fields: tuple[str, ...]) -> str:
    assignments = ", ".join(f'"{Game._meta.get_field(n).column}" = %s' for n in fields)
    return f'UPDATE "{Game._meta.db_table}" SET {assignments} WHERE "id" = %s'


def append_entry(game: Game, entry: dict[str, Any], fields: tuple[str, ...]) -> None:
    """Insert a history entry (``Move`` field values by name) and write ``fields`` of the
    game, in the caller's transaction. A duplicate move number fails on the unique index."""
    with connection.cursor() as cursor:
        cursor.execute(_insert_move_sql(), _prepared(Move, _MOVE_FIELDS, entry.__getitem__))
        cursor.execute(
            _update_game_sql(fields),
            [*_prepared(Game, fields, lambda n: getattr(game, n)), game.pk],
        )


def _prepared(model: type, names: Any, value_of: Any) -> list[Any]:
    result = []
    for name in names:
        field = model._meta.get_field(name)
        value = value_of(name)
        if field.is_relation:
            value = value.pk if hasattr(value, "pk") else value
        result.append(field.get_db_prep_save(value, connection))
    return result
