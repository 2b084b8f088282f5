"""Model instances from hand-written SQL, their values converted as the ORM converts them.

The move's query (``games.play.move_sql``: a game locked, with its deal and its daily
challenge) is written out once as SQL. ``Model.objects.raw`` would work out the columns, the
converters and the model's init order again on every call, which cost more server time than
the query itself (``bench/README.md``); a ``RowReader`` works them out once per database alias.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model

M = TypeVar("M", bound=Model)
Converter = Callable[[Any, Any, BaseDatabaseWrapper], Any]
#: A converter of the backend's (the name of a method of ``connection.ops``) or of the field.
Conversion = str | Converter


class RowReader(Generic[M]):
    """Reads one model's concrete columns, in field order, from a slice of a raw row."""

    def __init__(self, model: type[M]) -> None:
        self.model = model
        self.fields = model._meta.concrete_fields
        self.width = len(self.fields)
        self.attnames = [field.attname for field in self.fields]
        self._conversions: dict[str, list[tuple[int, Any, list[Conversion]]]] = {}

    def columns(self, alias: str) -> str:
        """The select list: ``alias."column"`` for each field, in the order ``build`` reads."""
        return ", ".join(f'{alias}."{field.column}"' for field in self.fields)

    def build(self, row: Sequence[Any], start: int = 0, using: str = DEFAULT_DB_ALIAS) -> M:
        """The instance from ``row[start:start + width]``, as the ORM would have loaded it."""
        values = list(row[start : start + self.width])
        connection = connections[using]
        for index, column, conversions in self._conversions_for(using, connection):
            value = values[index]
            if value is not None:
                for convert in conversions:
                    if isinstance(convert, str):
                        convert = getattr(connection.ops, convert)
                    value = convert(value, column, connection)
                values[index] = value
        # All concrete fields in order: from_db takes its fast path, Model(*values).
        return self.model.from_db(using, self.attnames, values)

    def _conversions_for(
        self, using: str, connection: BaseDatabaseWrapper
    ) -> list[tuple[int, Any, list[Conversion]]]:
        # Per database alias, not per connection object: under ASGI each request has its own.
        # The backend's converters are methods of that object's ``ops``, so they are kept by
        # name and looked up on the connection at hand.
        found = self._conversions.get(using)
        if found is None:
            found = []
            for index, field in enumerate(self.fields):
                column = field.get_col(self.model._meta.db_table)
                conversions: list[Conversion] = [
                    convert.__name__
                    if getattr(convert, "__self__", None) is connection.ops
                    else convert
                    for convert in connection.ops.get_db_converters(column)
                ]
                conversions += field.get_db_converters(connection)
                if conversions:
                    found.append((index, column, conversions))
            self._conversions[using] = found
        return found
