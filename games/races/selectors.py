"""Reads of races: a race as anyone with its link sees it, and the open rooms. Before a race
ends nothing in it tells a player's cards, moves or the deal's seed: only progress (cards
home, moves counted, time, done or not), which the room shows everyone."""

from __future__ import annotations

import datetime as dt
import functools
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import connection
from django.db.models import Count, Exists, OuterRef
from django.utils import timezone

from accounts.models import GuestProfile
from games.errors import GameError
from games.models import Game
from games.play.selectors import json_time
from games.races import ranking, responses
from games.races.models import Race, RacePlayer
from games.rules import VARIANTS

OPEN_LIST_SIZE = 50
#: A profile's last races.
PLAYER_RACES = 10

Viewer = AbstractBaseUser | AnonymousUser | None


def race_by_code(code: str) -> Race:
    race = Race.objects.select_related("deal", "opener", "rematch").filter(code=code).first()
    if race is None:
        raise GameError("not_found", "There is no such race.")
    return race


def link(race: Race) -> str:
    return f"/races/{race.code}/"


def phase(race: Race, now: dt.datetime) -> str:
    """The race's state as of ``now``: a countdown over is running, even before the next
    settle has written so."""
    if race.state == Race.State.COUNTDOWN and race.starts_at and now >= race.starts_at:
        return Race.State.RUNNING
    return race.state


def _columns(model: type, alias: str) -> tuple[list[Any], str]:
    fields = list(model._meta.concrete_fields)
    return fields, ", ".join(f'{alias}."{f.column}"' for f in fields)


def _instance(model: type, fields: list[Any], values: tuple[Any, ...]) -> Any:
    """``model`` from its columns' values as the database gave them, each converted as the
    ORM converts it (SQLite's dates are text, its booleans numbers)."""
    converted = []
    columns, converters_of = _converters(connection.vendor, tuple(fields))
    for column, converters, value in zip(columns, converters_of, values, strict=True):
        for convert in converters:
            value = convert(value, column, connection)
        converted.append(value)
    return model.from_db(connection.alias, [f.attname for f in fields], converted)


@functools.cache
def _converters(vendor: str, fields: tuple[Any, ...]) -> tuple[list[Any], list[list[Any]]]:
    columns = [field.get_col(field.model._meta.db_table) for field in fields]
    converters = [
        connection.ops.get_db_converters(column) + field.get_db_converters(connection)
        for field, column in zip(fields, columns, strict=True)
    ]
    return columns, converters


_ENTRY_FIELDS, _ENTRY_COLUMNS = _columns(RacePlayer, "rp")
_RACE_FIELDS, _RACE_COLUMNS = _columns(Race, "r")
_User = get_user_model()
_NAME_FIELDS = [_User._meta.pk, _User._meta.get_field(_User.USERNAME_FIELD)]
# A race's game's entry, its race and its player's name, read on every action of that game
# (``games.races.rules.race_of``) as literal SQL: the ORM's compiling of the same query (three
# tables, every column, the guest's EXISTS) cost 1.1 ms of CPU a call against 0.06 ms for the
# statement itself, a tenth of a race move's whole server CPU (bench/README, "Races: the
# room's line alone"). Built from the models' own fields and tables, so a column added is read
# too; tests/games/races/test_race_entry_read.py holds it to the ORM's answer.
_ENTRY_OF_GAME = (
    f'SELECT {_ENTRY_COLUMNS}, {_RACE_COLUMNS}, u."{_User.USERNAME_FIELD}", '
    f"EXISTS (SELECT 1 FROM {GuestProfile._meta.db_table} g WHERE g.user_id = rp.player_id) "
    f"FROM {RacePlayer._meta.db_table} rp "
    f"JOIN {Race._meta.db_table} r ON r.id = rp.race_id "
    f"JOIN {_User._meta.db_table} u ON u.{_User._meta.pk.column} = rp.player_id "
    "WHERE rp.game_id = %s"
)


def entry_of_game(game_id: int) -> RacePlayer | None:
    """The race entry whose game is ``game_id``, with its ``race``, its ``player`` (their
    name only) and ``guest``; None for a game of no race."""
    with connection.cursor() as cursor:
        cursor.execute(_ENTRY_OF_GAME, [game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    entry_end = len(_ENTRY_FIELDS)
    race_end = entry_end + len(_RACE_FIELDS)
    entry = _instance(RacePlayer, _ENTRY_FIELDS, row[:entry_end])
    entry.race = _instance(Race, _RACE_FIELDS, row[entry_end:race_end])
    entry.player = _instance(_User, _NAME_FIELDS, (entry.player_id, row[race_end]))
    entry.guest = bool(row[race_end + 1])
    return entry


def entries_of(race: Race) -> list[RacePlayer]:
    guest = GuestProfile.objects.filter(user_id=OuterRef("player_id"))
    return list(
        race.players.select_related("player", "game")
        .defer("game__state")  # progress only: never a board, and no board's JSON to read
        .annotate(guest=Exists(guest))
        .order_by("joined_at", "pk")
    )


def public_view(race: Race, now: dt.datetime | None = None) -> responses.RacePublic:
    """The race as its room sees it (the same for everyone)."""
    now = now or timezone.now()
    over = race.state == Race.State.FINISHED
    entries = entries_of(race)
    players = [entrant(entry, race, now) for entry in entries]
    if over:
        players.sort(key=lambda p: p["place"] or 0)
    return {
        "code": race.code,
        "link": link(race),
        "variant": race.variant,
        "winnable": race.winnable,
        "undo": race.undo,
        "listed": race.listed,
        "phase": phase(race, now),
        "opener": race.opener.username if race.opener else None,
        "max_players": settings.RACE_MAX_PLAYERS,
        "time_limit_seconds": race.time_limit_seconds,
        "created_at": json_time(race.created_at),
        "starts_at": json_time(race.starts_at),
        "ends_at": json_time(race.ends_at),
        "ended_at": json_time(race.ended_at),
        "now": json_time(now),
        # The seed tells every card: shown once no game of the race can be played on.
        "seed": race.deal.seed if over else None,
        "rematch": race.rematch.code if race.rematch_id else None,
        "players": players,
    }


def entrant(entry: RacePlayer, race: Race, now: dt.datetime) -> responses.RaceEntrant:
    game = entry.game
    over = race.state == Race.State.FINISHED
    ms = standing(entry, race).time_ms
    if game is not None and not over and not game.is_finished and not game.dead_end:
        ms = elapsed_ms(race.starts_at, now) if race.starts_at else 0
    return {
        "username": entry.player.username,
        "guest": bool(getattr(entry, "guest", False)),
        "ready": entry.ready,
        "standing": standing_word(entry, race),
        "cards_home": game.cards_home if game else 0,
        "moves": game.board_moves if game else 0,
        "time_seconds": round(ms / 1000, 1),
        "place": entry.place,
        "game": game.pk if over and game else None,
        "replay": (
            f"/api/races/{race.code}/players/{entry.player.username}/replay/"
            if over and game
            else None
        ),
    }


def standing_word(entry: RacePlayer, race: Race) -> responses.Standing:
    game = entry.game
    if entry.game_id is None and race.state == Race.State.WAITING:
        return "waiting"
    if game is None:
        return "resigned"  # a game abandoned before a move was made is gone
    if entry.out_of_time:
        return "out_of_time"
    if game.status == Game.Status.WON:
        return "won"
    if game.status == Game.Status.LOST or game.dead_end:
        return "stuck"
    if game.status == Game.Status.PLAYING:
        return "playing"
    return "resigned"


def you(race: Race, viewer: Viewer, now: dt.datetime | None = None) -> responses.RaceYou:
    """The viewer's part: whether they are in, whether they opened it, their game once the
    countdown is over (not before: its board is the deal), and while it waits whom they
    invited."""
    now = now or timezone.now()
    entry = None
    if viewer is not None and viewer.is_authenticated:
        entry = race.players.filter(player_id=viewer.pk).first()
    started = phase(race, now) in (Race.State.RUNNING, Race.State.FINISHED)
    waiting = race.state == Race.State.WAITING
    return {
        "joined": entry is not None,
        "opener": entry is not None and race.opener_id == viewer.pk,
        "game": entry.game_id if entry is not None and started else None,
        "invited": invited_by(race, viewer) if entry is not None and waiting else [],
    }


def invited_by(race: Race, viewer: AbstractBaseUser) -> list[responses.RaceInvited]:
    """Whom ``viewer`` invited to ``race`` and whether they declined (their room's Invite
    list)."""
    rows = race.invitations.filter(sender_id=viewer.pk).select_related("recipient")
    return [
        {"username": row.recipient.get_username(), "declined": row.declined_at is not None}
        for row in rows.order_by("pk")
    ]


def race_view(race: Race, viewer: Viewer) -> responses.Race:
    now = timezone.now()
    return {**public_view(race, now), "you": you(race, viewer, now)}


def open_races(variant: str | None = None) -> responses.OpenRaces:
    """Rooms waiting for players, listed and not full, the oldest first."""
    rooms = (
        Race.objects.filter(state=Race.State.WAITING, listed=True)
        .select_related("opener")
        .annotate(count=Count("players"))
        .filter(count__lt=settings.RACE_MAX_PLAYERS)
        .order_by("created_at", "pk")
    )
    if variant:
        rooms = rooms.filter(variant=variant)
    return {
        "results": [
            {
                "code": race.code,
                "link": link(race),
                "variant": race.variant,
                "winnable": race.winnable,
                "undo": race.undo,
                "time_limit_seconds": race.time_limit_seconds,
                "opener": race.opener.username if race.opener else None,
                "players": race.count,
                "max_players": settings.RACE_MAX_PLAYERS,
                "created_at": json_time(race.created_at),
            }
            for race in rooms[:OPEN_LIST_SIZE]
        ]
    }


def standing(entry: RacePlayer, race: Race) -> ranking.Standing:
    """What the player's place is decided on: a win's time is the time to win it, another's
    the time to reach its cards home (its last move), both from the countdown's end."""
    game = entry.game
    if game is None or race.starts_at is None:
        return ranking.Standing(won=False, cards_home=0, time_ms=0, moves=0)
    won = game.status == Game.Status.WON
    reached = game.finished_at if won else game.last_move_at
    return ranking.Standing(
        won=won,
        cards_home=game.cards_home,
        time_ms=elapsed_ms(race.starts_at, reached),
        moves=game.board_moves,
    )


def elapsed_ms(since: dt.datetime, until: dt.datetime | None) -> int:
    if until is None:
        return 0
    return max(0, int((until - since).total_seconds() * 1000))


def finished_race_game(race: Race, username: str) -> Game:
    """A player's game of a race that is over (for its replay); 409 ``race_not_over`` before,
    404 ``not_found`` for a player not in it."""
    if race.state != Race.State.FINISHED:
        raise GameError("race_not_over", "The players' replays are shown once the race is over.")
    entry = race.players.select_related("game__deal", "game__daily").filter(
        player__username=username
    )
    found = entry.first()
    if found is None or found.game is None:
        raise GameError("not_found", "There is no such player in this race.")
    return found.game


def player_races(player: AbstractBaseUser, limit: int = PLAYER_RACES) -> list[responses.PlayerRace]:
    """The player's last races that are over, newest first (for their profile): their place
    and how their game ended, never a board. One query."""
    entries = (
        RacePlayer.objects.filter(player_id=player.pk, race__state=Race.State.FINISHED)
        .select_related("race", "game")
        .annotate(count=Count("race__players"))
        .order_by("-race__ended_at", "-race_id")[:limit]
    )
    return [
        {
            "code": entry.race.code,
            "link": link(entry.race),
            "variant": entry.race.variant,
            "name": VARIANTS[entry.race.variant].name,
            "place": entry.place,
            "players": entry.count,
            "standing": standing_word(entry, entry.race),
            "ended_at": json_time(entry.race.ended_at),
        }
        for entry in entries
    ]
