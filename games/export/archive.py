"""A player's data export: every game and move, streamed as one JSON document."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import groupby
from operator import itemgetter

from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.db import transaction
from rest_framework.renderers import JSONRenderer

from games.daily.leaderboards import daily_streaks
from games.errors import GameError
from games.export import responses
from games.models import Game, Move
from games.play.selectors import HISTORY_FIELDS, game_summary, history_entry, player_stats

EXPORT_FORMAT = "patience-export/1"


#: Rows the export reads per round trip: games (without their snapshots), history entries.
EXPORT_GAMES_PER_FETCH = 200


EXPORT_ENTRIES_PER_FETCH = 2000


#: The export is sent in pieces of about this many bytes (a game at a time, at least).
EXPORT_CHUNK_BYTES = 64 * 1024


#: How long a download's claim on its account lasts at most (a worker that dies holding one).
EXPORT_CLAIM_SECONDS = 15 * 60


class OneExportAtATime:
    """``player_export``'s pieces for a download that holds its account's one claim (in the
    cache, so over every server process) until the response is closed: finished, cut short,
    or never started. A download held open by a slow or stalled client keeps a database
    connection (and on PostgreSQL its snapshot) for as long as it lasts; one at a time per
    account keeps one player from holding many. ``export_in_progress`` while another is running."""

    def __init__(self, user: AbstractBaseUser, *, exported_at: dt.datetime) -> None:
        self.key = f"games:export:{user.pk}"
        if not cache.add(self.key, 1, EXPORT_CLAIM_SECONDS):
            raise GameError(
                "export_in_progress",
                "Your data is already being downloaded, in another tab or window. "
                "Try again once that download has finished.",
            )
        self.chunks = player_export(user, exported_at=exported_at)

    def __iter__(self) -> Iterator[bytes]:
        return self

    def __next__(self) -> bytes:
        return next(self.chunks)

    def close(self) -> None:
        try:
            self.chunks.close()  # type: ignore[attr-defined]
        finally:
            cache.delete(self.key)


def player_export(user: AbstractBaseUser, *, exported_at: dt.datetime) -> Iterator[bytes]:
    """Everything kept about a player, as they may see it, as the JSON document's bytes, a
    piece at a time: the account, the statistics and every game with its whole history,
    oldest first. A game still in play keeps its seed hidden as everywhere else (its history
    names only cards that were face up).

    The document is the API's JSON (the renderer the other answers use), written game by
    game: games and history entries are read in batches as it goes, so a player with
    thousands of long games costs a game's worth of memory, not the whole document, and the
    same few queries however many games. On PostgreSQL everything is read in one REPEATABLE
    READ, READ ONLY transaction (``_export_snapshot``), so the document is one moment's, even
    while the player plays on elsewhere during the download. Nothing runs until the first
    piece is asked for."""
    render = JSONRenderer().render
    with _export_snapshot():
        head: responses.ExportHead = {
            "format": EXPORT_FORMAT,
            "exported_at": exported_at,
            "account": {
                "username": user.get_username(),
                "email": user.email,
                "date_joined": user.date_joined,
            },
            "stats": player_stats(user),
            "daily_streaks": daily_streaks(user),
        }
        # The head without its closing brace, then the games as the last member.
        pieces, size = [render(head)[:-1], b',"games":['], 0
        for index, game in enumerate(_export_games(user)):
            piece = render(game)
            pieces.append(b"," + piece if index else piece)
            size += len(piece)
            if size >= EXPORT_CHUNK_BYTES:
                yield b"".join(pieces)
                pieces, size = [], 0
        pieces.append(b"]}")
        yield b"".join(pieces)


@contextmanager
def _export_snapshot() -> Iterator[None]:
    """One snapshot for the whole export on PostgreSQL: a REPEATABLE READ, READ ONLY
    transaction (it takes no lock and blocks no writer; it holds back vacuum while a
    download runs), unless the caller's own transaction is already open. None on SQLite,
    where a transaction takes the write lock (``transaction_mode`` IMMEDIATE) and would hold
    every move up for the download: there each game's history stops at the move number read
    with the game (``_export_games``), so a game and its history still agree."""
    connection = transaction.get_connection()
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def _export_games(user: AbstractBaseUser) -> Iterator[responses.ExportGame]:
    """The player's games, oldest first, each with its history: two queries read in batches
    side by side (games by id, history entries by game id and number) and merged."""
    games = (
        Game.objects.filter(owner=user)
        .select_related("deal", "daily")
        .defer("state")  # the whole board, large, and not exported
        .order_by("pk")
        .iterator(chunk_size=EXPORT_GAMES_PER_FETCH)
    )
    rows = (
        Move.objects.filter(game__owner=user)
        .order_by("game_id", "number")
        .values_list("game_id", *HISTORY_FIELDS)
        .iterator(chunk_size=EXPORT_ENTRIES_PER_FETCH)
    )
    histories = groupby(rows, key=itemgetter(0))
    pending = next(histories, None)
    for game in games:
        while pending is not None and pending[0] < game.pk:  # a game made since (SQLite)
            pending = next(histories, None)
        entries = []
        if pending is not None and pending[0] == game.pk:
            # Entries are only ever appended: those after the game's row was read are left
            # for the next export (SQLite, no snapshot).
            entries = [history_entry(*row[1:]) for row in pending[1] if row[1] <= game.move_number]
            pending = next(histories, None)
        yield {**game_summary(game), "history": entries}
