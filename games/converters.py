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


class GameIdConverter:
    """A game's number in an API path. A minus sign is taken too, so that
    ``/api/games/-1/`` answers as a game that does not exist ("There is no such game."), as
    ``/api/games/0/`` does, rather than as a path the API does not have."""

    regex = r"-?\d+"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(DateConverter, "date")
register_converter(GameIdConverter, "game_id")
