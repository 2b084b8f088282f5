"""A game's row lock: every write to a game holds it until its transaction ends, so moves,
the day closer, staff actions and account removal take turns on a game."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection
from django.utils import timezone

from games.errors import GameError
from games.models import DailyChallenge, Deal, Game

# The player's game with its deal and daily challenge, read as literal SQL: every move, undo
# and hint runs it. What it buys, against the ORM's ``select_related("deal", "daily")
# .select_for_update(of=("self",))``: server CPU per move 5.06, 4.78, 5.44 ms against 6.27,
# 5.82, 6.24 (17 % less; ``bench/players_bench.py``, 200 players, 3 interleaved pairs on a busy
# shared host, 2026-11-29; ``bench/README.md``, "The game's lock read, written out again").
# Each model's columns in its fields' order (a test holds them to the models), so
# ``Model.from_db`` builds the instances as the ORM does. PostgreSQL locks the game's row only
# (``FOR UPDATE OF g``); SQLite has no FOR UPDATE, and its writes take turns anyway.
_LOCK_GAME = (
    "SELECT g.id, g.owner_id, g.deal_id, g.status, g.move_number, g.state, g.ranked, "
    "g.seed_chosen, g.daily_id, g.winnable, g.excluded, g.cards_home, g.board_moves, "
    "g.undo_count, g.can_undo, g.dead_end, g.hint_count, g.created_at, g.last_move_at, "
    "g.finished_at, g.active_ms, g.in_race, "
    "d.id, d.variant, d.seed, d.deal_version, d.created_at, "
    "c.id, c.date, c.variant, c.deal_id, c.seed_set_by_staff, c.candidate, c.outcome, "
    "c.solution, c.solver, c.difficulty, c.created_at "
    "FROM games_game g JOIN games_deal d ON d.id = g.deal_id "
    "LEFT JOIN games_dailychallenge c ON c.id = g.daily_id "
    "WHERE g.id = %s AND g.owner_id = %s"
)
_GAME_FIELDS = (
    "id", "owner_id", "deal_id", "status", "move_number", "state", "ranked", "seed_chosen",
    "daily_id", "winnable", "excluded", "cards_home", "board_moves", "undo_count", "can_undo",
    "dead_end", "hint_count", "created_at", "last_move_at", "finished_at", "active_ms",
    "in_race",
)  # fmt: skip
_DEAL_FIELDS = ("id", "variant", "seed", "deal_version", "created_at")
_DAILY_FIELDS = (
    "id", "date", "variant", "deal_id", "seed_set_by_staff", "candidate", "outcome",
    "solution", "solver", "difficulty", "created_at",
)  # fmt: skip
_IDS = range(1, 2**63)  # a bigint; a larger number matches no row, and SQLite cannot take it


def lock_game(user: AbstractBaseUser, game_id: int) -> Game:
    """The player's game with its deal and daily challenge, its row locked until the
    transaction ends (one query); 404 ``not_found`` for anyone else's."""
    row = None
    if game_id in _IDS:
        sql = _LOCK_GAME
        if connection.features.has_select_for_update_of:
            sql += " FOR UPDATE OF g"
        with connection.cursor() as cursor:
            cursor.execute(sql, [game_id, user.pk])
            row = cursor.fetchone()
    if row is None:
        raise GameError("not_found", "There is no such game.")
    return _game_from_row(row)


def _game_from_row(row: tuple[Any, ...]) -> Game:
    """The instances the ORM would load from the row: JSON decoded, times made aware (SQLite
    gives them naive; its booleans and dates its driver converts already)."""
    alias = connection.alias
    games, deals = len(_GAME_FIELDS), len(_GAME_FIELDS) + len(_DEAL_FIELDS)
    g, d, c = list(row[:games]), list(row[games:deals]), list(row[deals:])
    g[5] = json.loads(g[5])  # state
    times = _GAME_FIELDS.index("created_at")
    # created_at, last_move_at, finished_at
    g[times : times + 3] = map(_aware, g[times : times + 3])
    game = Game.from_db(alias, _GAME_FIELDS, g)
    d[4] = _aware(d[4])
    Game.deal.field.set_cached_value(game, Deal.from_db(alias, _DEAL_FIELDS, d))
    daily = None
    if game.daily_id is not None:
        c[7] = None if c[7] is None else json.loads(c[7])  # solution
        c[8] = json.loads(c[8])  # solver
        c[10] = _aware(c[10])
        daily = DailyChallenge.from_db(alias, _DAILY_FIELDS, c)
    Game.daily.field.set_cached_value(game, daily)
    return game


def _aware(value: dt.datetime | None) -> dt.datetime | None:
    if value is None or timezone.is_aware(value):
        return value
    return timezone.make_aware(value, connection.timezone)


def lock_any_game(game_id: int) -> Game:
    """Any player's game, locked until the transaction ends: for staff and the checks."""
    try:
        return (
            Game.objects.select_for_update(of=("self",))
            .select_related("deal", "daily", "owner")
            .get(pk=game_id)
        )
    except Game.DoesNotExist:
        raise GameError("not_found", "There is no such game.") from None
