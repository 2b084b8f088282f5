"""A race's writes, each one transaction: opening a room, joining it, getting ready, starting
(every player's casual game dealt on the race's deal, moves taken once the countdown ends),
settling (the countdown over, the race ended when every player is done or at its time limit,
then ranked) and the rematch. The room's watchers are sent the race after each commit
(``games.races.live``).

Locks are taken race first, then its games (``settle``), and a move takes its game's lock
only, reading its race without one (``games.races.rules``): so the two never wait on each
other in a circle. A move's progress reaches the race after the move's commit, in a
transaction of its own (``settle_and_publish``)."""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from games.core.history import RESIGN, SERVICE_EVENTS
from games.core.locks import lock_any_game
from games.errors import GameError
from games.models import Deal, Game
from games.moderation.fair_play import record_automatic_flags
from games.play import services as play_services
from games.play import winnable_pool
from games.races import live, ranking, selectors
from games.races.models import Race, RacePlayer
from games.races.selectors import standing
from games.rules import MAX_SEED, get_variant

#: A room's link: lower-case letters and digits (no 0/o, 1/l), so it reads aloud and no part of
#: it passes for a card's code ("7H") in a text.
CODE_LETTERS = "abcdefghijkmnpqrstuvwxyz23456789"
CODE_LENGTH = 10

NOT_FOUND = "There is no such race."


@dataclass
class RaceOutcome:
    """A race after a write, as ``viewer`` sees it; ``made`` when the write opened it."""

    race: Race
    viewer: AbstractBaseUser
    made: bool = False

    def body(self) -> Any:
        return selectors.race_view(self.race, self.viewer)

    @property
    def answer_status(self) -> int:
        """201 when the write opened the race, else 200 (``games.answers.answer_once``)."""
        return 201 if self.made else 200


def new_code() -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def lock_race(code: str) -> Race:
    """The race of ``code``, its row locked until the transaction ends (404 ``not_found``)."""
    race = Race.objects.select_for_update(of=("self",)).select_related("deal").filter(code=code)
    found = race.first()
    if found is None:
        raise GameError("not_found", NOT_FOUND)
    return found


def entry_of(race: Race, user: AbstractBaseUser) -> RacePlayer | None:
    return race.players.filter(player_id=user.pk).first()


def member_entry(race: Race, user: AbstractBaseUser) -> RacePlayer:
    """The player's place in the race, or 403 ``not_in_race``."""
    entry = entry_of(race, user)
    if entry is None:
        raise GameError("not_in_race", "You are not in this race: join it first.")
    return entry


def refuse_unless_waiting(race: Race) -> None:
    if race.state != Race.State.WAITING:
        raise GameError(
            "race_started",
            "This race has started already (or is over): open another one, or take a quick race.",
            state=race.state,
        )


# -- opening and joining ------------------------------------------------------------------------


def open_race(
    *,
    user: AbstractBaseUser,
    variant_slug: str,
    winnable: bool = False,
    undo: bool = True,
    listed: bool = True,
    time_limit_seconds: int | None = None,
) -> RaceOutcome:
    """A new room with its opener in it, on a random deal of the game (``winnable``: one out
    of the solver's pool, 503 ``no_winnable_deal`` when that game's is empty)."""
    with transaction.atomic():
        race = _new_race(
            opener=user,
            variant_slug=variant_slug,
            winnable=winnable,
            undo=undo,
            listed=listed,
            time_limit_seconds=time_limit_seconds or settings.RACE_TIME_LIMIT_SECONDS,
        )
        RacePlayer.objects.create(race=race, player=user)
    return RaceOutcome(race, user, made=True)


def _new_race(
    *,
    opener: AbstractBaseUser,
    variant_slug: str,
    winnable: bool,
    undo: bool,
    listed: bool,
    time_limit_seconds: int,
) -> Race:
    variant = play_services.variant_or_error(variant_slug)
    return Race.objects.create(
        code=new_code(),
        variant=variant.slug,
        deal=_deal(variant.slug, variant.name, winnable),
        winnable=winnable,
        undo=undo,
        listed=listed,
        opener=opener,
        time_limit_seconds=time_limit_seconds,
    )


def _deal(variant_slug: str, name: str, winnable: bool) -> Deal:
    """A random deal (its seed as secret as a casual game's), or one out of the pool: taken
    for the race, so no other game is dealt it (its certificate stays hidden: no race game
    is ever told a line)."""
    if not winnable:
        return play_services.deal_of(variant_slug, secrets.randbelow(MAX_SEED + 1))
    pooled = winnable_pool.take(variant_slug)
    if pooled is None:
        raise GameError(
            "no_winnable_deal",
            play_services.NO_WINNABLE_DEAL_MESSAGE.format(name=name),
            retry_after=settings.WINNABLE_POOL_RETRY_AFTER,
        )
    return play_services.deal_of(variant_slug, pooled.seed)


def join_race(*, user: AbstractBaseUser, code: str) -> RaceOutcome:
    """Join a waiting room (in it already: nothing changes). 409 ``race_started`` once it has
    started, ``race_full`` at ``RACE_MAX_PLAYERS``."""
    with transaction.atomic():
        race = lock_race(code)
        if entry_of(race, user) is None:
            _add_player(race, user)
    return RaceOutcome(race, user)


def _add_player(race: Race, user: AbstractBaseUser) -> None:
    refuse_unless_waiting(race)
    size = settings.RACE_MAX_PLAYERS
    if race.players.count() >= size:
        raise GameError("race_full", f"This race has its {size} players already.", size=size)
    RacePlayer.objects.create(race=race, player=user)
    live.schedule_race_update(race)
    # Joined (from another tab, a link, a quick race): their invitation leaves their lobby.
    live.schedule_invitations_gone(race, user.pk)


def quick_race(*, user: AbstractBaseUser, variant_slug: str) -> RaceOutcome:
    """The player's own waiting room of this game if they are in one, else the oldest open
    listed room of it with room left, joined, else a new one (``made``)."""
    variant = play_services.variant_or_error(variant_slug)
    with transaction.atomic():
        waiting = Race.objects.filter(state=Race.State.WAITING, variant=variant.slug)
        mine = waiting.filter(players__player_id=user.pk).order_by("created_at").first()
        if mine is not None:
            return RaceOutcome(mine, user)
        others = waiting.filter(listed=True).order_by("created_at", "pk")
        for pk in others.values_list("pk", flat=True)[:20]:
            # Skipping a room another quick race holds: one that is full or started by the time
            # it is free would only be refused.
            room = Race.objects.select_for_update(skip_locked=True).filter(pk=pk).first()
            if room is None or room.state != Race.State.WAITING:
                continue
            if room.players.count() < settings.RACE_MAX_PLAYERS:
                _add_player(room, user)
                return RaceOutcome(room, user)
        outcome = open_race(user=user, variant_slug=variant.slug)
    return outcome


def leave_race(*, user: AbstractBaseUser, code: str) -> RaceOutcome:
    """Leave a waiting room; the opener's part goes to the player who joined next, and a
    room left empty is closed. Once started, a player leaves by resigning their game."""
    with transaction.atomic():
        race = lock_race(code)
        entry = member_entry(race, user)
        refuse_unless_waiting(race)
        entry.delete()
        rest = race.players.order_by("joined_at", "pk").first()
        if rest is None:
            # Kept, closed: its link then says the room is over rather than "no such race".
            race.state = Race.State.FINISHED
            race.ended_at = timezone.now()
            race.save(update_fields=["state", "ended_at"])
            live.schedule_invitations_gone(race)
            return RaceOutcome(race, user)
        if race.opener_id == user.pk:
            race.opener_id = rest.player_id
            race.save(update_fields=["opener"])
        live.schedule_race_update(race)
    return RaceOutcome(race, user)


# -- ready, start -------------------------------------------------------------------------------


def set_ready(*, user: AbstractBaseUser, code: str, ready: bool = True) -> RaceOutcome:
    """The player is ready (or not); the race starts when every player of two or more is."""
    with transaction.atomic():
        race = lock_race(code)
        entry = member_entry(race, user)
        refuse_unless_waiting(race)
        entry.ready = ready
        entry.save(update_fields=["ready"])
        entries = list(race.players.all())
        if len(entries) >= 2 and all(e.ready for e in entries):
            _start(race, entries)
        live.schedule_race_update(race)
    return RaceOutcome(race, user)


def start_race(*, user: AbstractBaseUser, code: str) -> RaceOutcome:
    """The opener starts the race: ``RACE_COUNTDOWN_SECONDS`` of countdown, then every game
    takes moves. 403 ``not_race_opener``, 409 ``race_started``, 409 ``too_few_players``."""
    with transaction.atomic():
        race = lock_race(code)
        member_entry(race, user)
        if race.opener_id != user.pk:
            raise GameError("not_race_opener", "Only the player who opened the race starts it.")
        refuse_unless_waiting(race)
        entries = list(race.players.all())
        if len(entries) < 2:
            raise GameError(
                "too_few_players", "A race needs two players at least: send its link to someone."
            )
        _start(race, entries)
        live.schedule_race_update(race)
    return RaceOutcome(race, user)


def _start(race: Race, entries: list[RacePlayer]) -> None:
    """Deal every player's game now, its clock from the countdown's end (``created_at``):
    the game refuses moves until then (``games.races.rules``), and the race tells no one its
    id before then."""
    starts_at = timezone.now() + dt.timedelta(seconds=settings.RACE_COUNTDOWN_SECONDS)
    variant = get_variant(race.variant)
    for entry in entries:
        game = play_services.start_game(entry.player, variant, race.deal, winnable=race.winnable)
        Game.objects.filter(pk=game.game.pk).update(created_at=starts_at, in_race=True)
        game.game.created_at, game.game.in_race = starts_at, True
        entry.game = game.game
        entry.save(update_fields=["game"])
    race.state = Race.State.COUNTDOWN
    race.starts_at = starts_at
    race.save(update_fields=["state", "starts_at"])
    # No longer waiting: its invitations leave the lobbies they are shown on.
    live.schedule_invitations_gone(race)


# -- settling: the countdown's end, the race's end ----------------------------------------------


def done(game: Game | None) -> bool:
    """A player's game is done racing: won, lost, resigned, or at a dead end (no move left)."""
    return game is None or game.is_finished or game.dead_end


def settle(race_id: int, now: dt.datetime | None = None) -> bool:
    """Bring the race up to date, under its lock: running once the countdown is over; ended
    once every player's game is done or at its time limit. Whether it changed (the room is
    then told)."""
    now = now or timezone.now()
    with transaction.atomic():
        race = Race.objects.select_for_update().filter(pk=race_id).first()
        if race is None or race.state in (Race.State.WAITING, Race.State.FINISHED):
            return False
        changed = False
        if race.state == Race.State.COUNTDOWN and now >= race.starts_at:
            race.state = Race.State.RUNNING
            race.save(update_fields=["state"])
            changed = True
        # Not the games' states (a board's JSON each): what settles a race is their status.
        entries = list(
            race.players.select_related("game__deal").defer("game__state").order_by("pk")
        )
        timed_out = now >= race.ends_at
        if timed_out or all(done(entry.game) for entry in entries):
            _finish(race, entries, min(now, race.ends_at) if timed_out else now)
            changed = True
        if changed:
            live.schedule_race_update(race)
    return changed


def settle_and_publish(race_id: int, *, settle_first: bool = True) -> None:
    """After a move of a race's game has committed: the race settled and its room told of the
    player's progress, whether or not the race changed. Without ``settle_first`` (the move
    left its game in play, in a running race within its time: nothing can have changed but
    the progress) only the room is told."""
    if not settle_first or not settle(race_id):
        live.publish_race_of(race_id)


def settle_due(now: dt.datetime | None = None, limit: int = 200) -> int:
    """Settle the races whose countdown or time limit is over (the worker's ``races`` job, so
    that a room nobody reads ends on time); how many changed."""
    now = now or timezone.now()
    under_way = Race.objects.filter(
        state__in=(Race.State.COUNTDOWN, Race.State.RUNNING), starts_at__lte=now
    ).order_by("starts_at")
    changed = 0
    for race in under_way[:limit]:
        if race.state == Race.State.COUNTDOWN or race.ends_at <= now:
            changed += settle(race.pk, now)
    return changed


def _finish(race: Race, entries: list[RacePlayer], ended_at: dt.datetime) -> None:
    """End the race: a game still in play is ended as of ``ended_at`` (lost at a dead end,
    else resigned, out of time), so nobody plays on once the seed is shown; the fair-play
    checks on every game; then the places."""
    for entry in entries:
        if entry.game is not None and not entry.game.is_finished:
            entry.game = _end_game(entry.game.pk, ended_at)
            entry.out_of_time = entry.game.status == Game.Status.RESIGNED
    for entry in entries:
        if entry.game is not None:
            # A race is for fun, but its result is shown beside others': the fair-play checks
            # run on each game as on a ranked attempt, once, as the race ends.
            record_automatic_flags(entry.game, casual=True)
    standings = [standing(entry, race) for entry in entries]
    for entry, place in zip(entries, ranking.places(standings), strict=True):
        entry.place = place
        entry.save(update_fields=["game", "out_of_time", "place"])
    race.state = Race.State.FINISHED
    race.ended_at = ended_at
    race.save(update_fields=["state", "ended_at"])


def _end_game(game_id: int, ended_at: dt.datetime) -> Game:
    game = lock_any_game(game_id)
    if game.is_finished:
        return game
    if game.dead_end:
        return play_services.end_at_dead_end(game, finished_at=game.last_move_at or ended_at).game
    variant = get_variant(game.deal.variant)
    game.can_undo = False
    play_services.record(
        game,
        variant,
        variant.state_from_json(game.state),
        {"type": RESIGN},
        [{"type": SERVICE_EVENTS[RESIGN]}],
        Game.Status.RESIGNED,
        finished_at=ended_at,
    )
    return game


# -- the rematch ----------------------------------------------------------------------------


def rematch(*, user: AbstractBaseUser, code: str) -> RaceOutcome:
    """Once the race is over, its room's next race: a new deal, the same rules and players
    (none ready yet), opened by whoever asked first; asked again, the same one."""
    with transaction.atomic():
        race = lock_race(code)
        member_entry(race, user)
        # Ended by its last move, whose own settle may not have run yet: settled here first.
        if race.state != Race.State.FINISHED and settle(race.pk):
            race.refresh_from_db()
        if race.state != Race.State.FINISHED:
            raise GameError("race_not_over", "A rematch is for a race that is over.")
        if race.rematch_id is not None:
            return RaceOutcome(race.rematch, user)
        new = _new_race(
            opener=user,
            variant_slug=race.variant,
            winnable=race.winnable,
            undo=race.undo,
            listed=race.listed,
            time_limit_seconds=race.time_limit_seconds,
        )
        for entry in race.players.order_by("joined_at", "pk"):
            RacePlayer.objects.create(race=new, player_id=entry.player_id)
        race.rematch = new
        race.save(update_fields=["rematch"])
        live.schedule_race_update(race)
    return RaceOutcome(new, user, made=True)
