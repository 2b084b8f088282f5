"""A player's data export, as ``games.export.archive`` writes it (TypedDicts: the OpenAPI
schema reads them, ``web.http.schema``)."""

from __future__ import annotations

from typing import Annotated, TypedDict

from games.daily.responses import Streaks
from games.play.responses import GameSummary, HistoryEntry, Stats
from web.http.schema import Time


class ExportAccount(TypedDict):
    username: str
    email: Annotated[
        str, {"oneOf": [{"type": "string", "format": "email"}, {"type": "string", "maxLength": 0}]}
    ]
    date_joined: Time


class ExportGame(GameSummary):
    history: Annotated[list[HistoryEntry], "Every entry, undos and resignation included."]


class ExportHead(TypedDict):
    """The document before its games (written first, the games streamed after it)."""

    format: Annotated[str, '"patience-export/1"']
    exported_at: Time
    account: ExportAccount
    stats: list[Stats]
    daily_streaks: Streaks


class Export(ExportHead):
    games: Annotated[list[ExportGame], "Oldest first."]
