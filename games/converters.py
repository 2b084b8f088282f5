"""Path converters shared by the HTTP and websocket routes."""

import datetime as dt

from django.urls import register_converter


class DateConverter:
    """``2026-11-21`` in a path: a day of the daily challenges."""

    regex = r"\d{4}-\d{2}-\d{2}"

    def to_python(self, value: str) -> dt.date:
        return dt.date.fromisoformat(value)  # a ValueError means the path does not match

    def to_url(self, value: dt.date) -> str:
        return value.isoformat()


register_converter(DateConverter, "date")
