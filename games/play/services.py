"""Writes of a game: creating it, moves, undo, resigning. Views call these and nothing else
writes games.

Each write is one transaction of its own (a savepoint when its caller has one open: the
``Idempotency-Key``'s, ``games.answers.answer_once``): it locks its game, applies the change,
records it, and schedules the live update for after the commit. It returns its outcome or
raises a refusal (``games.errors.GameError``); it knows nothing of HTTP or of keys. A move's
path reads top to bottom here: ``play_move`` → ``act_on_game`` (the lock and the checks every
action makes) → the engine → ``record`` (its SQL next to it)."""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.utils import timezone

from games.core import clock, days
from games.core.history import (
    CLOSE,
    END,
    RESIGN,
    SERVICE_EVENTS,
    UNDO,
    line_of_play,
    opening,
    standing_entries,
)
from games.core.locks import lock_game
from games.core.signals import ranked_game_finished
from games.errors import GameError
from games.models import UNTOUCHED, DailyChallenge, Deal, Game
from games.play import responses, winnable_pool
from games.play import selectors as play_selectors
from games.rules import DEAL_VERSION, MAX_SEED, IllegalMove, State, Variant, get_variant
from web.live import games as live

STATUS_AFTER_EVENT = {"game_won": Game.Status.WON, "game_lost": Game.Status.LOST}

#: What a feature refuses beyond the checks every action makes (``act_on_game``), called with
#: the locked game and the action ("move", "undo", "resign", "end", "abandon", "hint"); each
#: raises a ``GameError`` to refuse. A race's game (``games.races.rules``) adds its own: play
#: knows nothing of races.
ACTION_RULES: list[Callable[[Game, str], None]] = []
#: Called with the game once an action is taken, in its transaction (a race schedules its
#: room's update for after the commit).
AFTER_ACTION: list[Callable[[Game], None]] = []


@dataclass
class Outcome:
    """A game after an action, its engine state, and what happened."""

    game: Game
    state: State
    events: list[dict[str, Any]] = field(default_factory=list)
    #: A new game answers its board without events.
    with_events: bool = True

    @property
    def variant(self) -> Variant:
        return get_variant(self.game.deal.variant)

    @cached_property
    def representation(self) -> responses.Game:
        """The game as its player sees it now (JSON-ready), built once for the response and
        the live update."""
        return play_selectors.game_representation(self.game, self.state)

    def representation_with_events(self) -> responses.Game:
        """What a move, an undo or a resignation answers, and what watchers are sent."""
        return {**self.representation, "events": self.events}

    def schedule_live_update(self) -> None:
        live.schedule_game_update(self.game, self.representation_with_events)

    def body(self) -> Any:
        return self.representation_with_events() if self.with_events else self.representation


def variant_or_error(slug: object) -> Variant:
    try:
        return get_variant(slug)  # type: ignore[arg-type]
    except (KeyError, TypeError):
        raise GameError("unknown_variant", f"There is no game called {slug!r}.") from None


NO_WINNABLE_DEAL_MESSAGE = (
    "There is no proven-winnable deal of {name} ready just now: more are being found. Try "
    "again shortly, or play any deal."
)


def create_game(
    *,
    user: AbstractBaseUser,
    variant_slug: str,
    seed: int | None = None,
    winnable: bool = False,
) -> Outcome:
    """A new casual game. Without a seed, a random one the player will not see until the end;
    ``winnable``: a random one the solver has proven winnable, out of the pool
    (``games.play.winnable_pool``; the solver never runs here)."""
    with transaction.atomic():
        return _create_game(user, variant_slug, seed, winnable)


def _create_game(
    user: AbstractBaseUser, variant_slug: str, seed: int | None, winnable: bool
) -> Outcome:
    variant = variant_or_error(variant_slug)
    seed_chosen = seed is not None
    if winnable and seed_chosen:
        raise GameError(
            "winnable_with_seed",
            "Ask for a deal number or for a winnable deal, not both: a winnable deal is drawn "
            "from the deals the solver has proven winnable.",
        )
    if seed is None:
        seed = secrets.randbelow(MAX_SEED + 1)
    elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise GameError("invalid_seed", f"A deal number is a whole number from 0 to {MAX_SEED}.")
    if not winnable:
        return start_game(user, variant, deal_of(variant.slug, seed), seed_chosen=seed_chosen)
    refuse_past_unplayed_winnable(user)
    pooled = winnable_pool.take(variant.slug)
    if pooled is None:
        raise GameError(
            "no_winnable_deal",
            NO_WINNABLE_DEAL_MESSAGE.format(name=variant.name),
            retry_after=settings.WINNABLE_POOL_RETRY_AFTER,
        )
    outcome = start_game(user, variant, deal_of(variant.slug, pooled.seed), winnable=True)
    winnable_pool.mark_dealt(pooled, outcome.game)
    return outcome


def unplayed_winnable(user: AbstractBaseUser) -> list[int]:
    """The player's games dealt from the winnable pool, in play, with no move made."""
    return list(
        Game.objects.filter(UNTOUCHED, owner=user, status=Game.Status.PLAYING)
        .filter(winnable_deal__isnull=False)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def refuse_past_unplayed_winnable(user: AbstractBaseUser) -> None:
    """``too_many_unplayed_winnable`` when the player holds ``UNPLAYED_WINNABLE_LIMIT`` deals
    of the pool unplayed: the pool is every player's, and one account asking again and again
    emptied it (30 asks: 20 served, then everyone told 503 ``no_winnable_deal``). The player's
    row is locked first, so asks sent at once are counted one after another."""
    limit = settings.UNPLAYED_WINNABLE_LIMIT
    if not limit:
        return
    # The user model, not ``type(user)``: a signed-in request's user is a lazy object.
    players = get_user_model().objects.select_for_update().filter(pk=user.pk)
    list(players.values_list("pk", flat=True))
    held = unplayed_winnable(user)
    if len(held) >= limit:
        raise GameError(
            "too_many_unplayed_winnable",
            f"You already have {len(held)} winnable deals with no move made, the most at once: "
            "play or resign one of them first, or start a random deal.",
            games=held,
        )


def deal_of(variant_slug: str, seed: int) -> Deal:
    """The deal of this game and seed under the current dealing algorithm, made on first use."""
    deal, _ = Deal.objects.get_or_create(variant=variant_slug, seed=seed, deal_version=DEAL_VERSION)
    return deal


def start_game(
    user: AbstractBaseUser,
    variant: Variant,
    deal: Deal,
    *,
    seed_chosen: bool = False,
    ranked: bool = False,
    daily_challenge: DailyChallenge | None = None,
    winnable: bool = False,
) -> Outcome:
    end_dead_ends_of(user)
    state = opening(variant, deal)
    game = Game.objects.create(
        owner=user,
        deal=deal,
        daily=daily_challenge,
        state=variant.state_to_json(state),
        status=variant.status(state),
        ranked=ranked,
        seed_chosen=seed_chosen,
        # A proven daily deal can be won as surely as a pooled one, and says so alike.
        winnable=winnable or bool(daily_challenge and daily_challenge.proven),
        cards_home=variant.cards_home(state),
    )
    outcome = Outcome(game, state, with_events=False)
    outcome.schedule_live_update()
    return outcome


def play_move(
    *,
    user: AbstractBaseUser,
    game_id: int,
    move: Any,
    expected_move_number: int | None = None,
    away_ms: int | None = None,
) -> Outcome:
    """Validate ``move`` through the engine and record it; an illegal move changes nothing.
    ``away_ms``: the time since the last entry the page says the game was out of sight
    (``games.core.clock``)."""

    def act(game: Game) -> Outcome:
        variant = get_variant(game.deal.variant)
        state = variant.state_from_json(game.state)
        try:
            after, events = variant.play(state, variant.move_from_json(move))
        except IllegalMove as error:
            raise GameError(error.code, error.message) from None
        status = next(
            (STATUS_AFTER_EVENT[e["type"]] for e in events if e["type"] in STATUS_AFTER_EVENT),
            Game.Status.PLAYING,
        )
        # A casual game at a dead end stays in play, for its player to undo out of it or end it
        # (games/rules/RULINGS.md, "Dead ends"); a ranked attempt is lost there and then.
        game.dead_end = status == Game.Status.LOST and not game.ranked
        if game.dead_end:
            status = Game.Status.PLAYING
        # Whatever the move showed: undo takes back a reveal too (RULINGS.md, "Undo").
        game.can_undo = not game.ranked and status == Game.Status.PLAYING
        return record(game, variant, after, move, events, status, away_ms=away_ms)

    return act_on_game(user, game_id, expected_move_number, act)


def undo_move(
    *,
    user: AbstractBaseUser,
    game_id: int,
    expected_move_number: int | None = None,
    away_ms: int | None = None,
) -> Outcome:
    """Take back the last move (casual games only), as a new entry of the history: any move,
    one that showed hidden cards too, and out of a dead end. The board goes back to the
    position before the move, exactly as the engine had it (its face-down cards are the deal's,
    so nothing is drawn again); what the move showed stays in the history."""

    def act(game: Game) -> Outcome:
        if game.ranked:
            raise GameError("undo_not_allowed", "Ranked games have no undo.")
        refuse_finished(game)
        variant = get_variant(game.deal.variant)
        history = list(game.moves.order_by("number").values_list("payload", "events"))
        standing = standing_entries(payload for payload, _ in history)
        if not standing:
            raise GameError("nothing_to_undo", "There is no move to undo.")
        line = line_of_play(variant, game.deal, [payload for payload, _ in history])
        game.undo_count += 1
        game.can_undo = len(standing) > 1
        # The position before a move always had a legal move: the one taken back.
        game.dead_end = False
        events = [{"type": SERVICE_EVENTS[UNDO]}]
        return record(
            game, variant, line[-2], {"type": UNDO}, events, Game.Status.PLAYING, away_ms=away_ms
        )

    return act_on_game(user, game_id, expected_move_number, act, in_play=False, action="undo")


def resign_game(
    *,
    user: AbstractBaseUser,
    game_id: int,
    expected_move_number: int | None = None,
) -> Outcome:
    def act(game: Game) -> Outcome:
        if game.dead_end:
            # The game is lost already: giving it up cannot make it a resignation.
            return end_at_dead_end(game)
        variant = get_variant(game.deal.variant)
        state = variant.state_from_json(game.state)
        events = [{"type": SERVICE_EVENTS[RESIGN]}]
        game.can_undo = False
        return record(game, variant, state, {"type": RESIGN}, events, Game.Status.RESIGNED)

    return act_on_game(user, game_id, expected_move_number, act, action="resign")


def end_game(
    *,
    user: AbstractBaseUser,
    game_id: int,
    expected_move_number: int | None = None,
) -> Outcome:
    """End a casual game at a dead end: it is recorded as lost (an ``end`` entry). A game that
    still has a move is refused (409 ``not_at_dead_end``): resigning gives it up."""

    def act(game: Game) -> Outcome:
        if not game.dead_end:
            raise GameError(
                "not_at_dead_end",
                "This game still has moves to make: resign it to give it up.",
            )
        return end_at_dead_end(game)

    return act_on_game(user, game_id, expected_move_number, act, action="end")


def end_at_dead_end(game: Game, *, finished_at: dt.datetime | None = None) -> Outcome:
    """Record the ``end`` entry of a locked casual game at a dead end: lost. ``finished_at``
    given: the service ends it on its own (the player started another game or left it), as
    of then, and the entry is not the player's last move."""
    variant = get_variant(game.deal.variant)
    state = variant.state_from_json(game.state)
    game.can_undo = False
    events = [{"type": SERVICE_EVENTS[END]}]
    return record(
        game, variant, state, {"type": END}, events, Game.Status.LOST, finished_at=finished_at
    )


def end_dead_ends_of(user: AbstractBaseUser) -> int:
    """End the player's casual games at a dead end, as lost when they were left (their last
    move): starting another game leaves them. How many were ended."""
    left = (
        Game.objects.select_for_update()
        .select_related("deal")
        .filter(owner=user, dead_end=True, status=Game.Status.PLAYING)
        .order_by("pk")
    )
    ended = 0
    # Its own transaction when the caller has none (start_game called on its own, as tools do).
    with transaction.atomic():
        for game in left:
            end_at_dead_end(game, finished_at=game.last_move_at or timezone.now())
            ended += 1
    return ended


def end_stale_dead_ends(older_than: dt.timedelta, limit: int = 500) -> int:
    """End casual games left at a dead end more than ``older_than`` ago, as lost when they were
    left, up to ``limit`` of them: the worker's tidying (``games.background``). A game a
    request holds is skipped (an undo under way), and the lock reads the row again, so a game
    undone meanwhile stays in play."""
    cutoff = timezone.now() - older_than
    with transaction.atomic():
        stale = (
            Game.objects.filter(dead_end=True, status=Game.Status.PLAYING, last_move_at__lt=cutoff)
            .select_related("deal")
            .order_by("pk")
        )
        if connection.features.has_select_for_update_skip_locked:
            stale = stale.select_for_update(skip_locked=True, of=("self",))
        else:
            stale = stale.select_for_update()
        games = list(stale[:limit])
        for game in games:
            end_at_dead_end(game, finished_at=game.last_move_at)
    return len(games)


@dataclass
class AbandonOutcome:
    """What abandoning a game answers: ``abandoned`` is "deleted" (the game is gone, counted
    nowhere) or "resigned" (``game``: as a resignation answers it)."""

    game_id: int
    abandoned: str
    game: Any = None

    def body(self) -> Any:
        return {"id": self.game_id, "abandoned": self.abandoned, "game": self.game}


def abandon_game(
    *,
    user: AbstractBaseUser,
    game_id: int,
    expected_move_number: int | None = None,
) -> AbandonOutcome:
    """Leave a game in play for good. An untouched casual game (no move ever made:
    ``models.UNTOUCHED``) is deleted, so it counts as nothing; a casual game at a dead end is
    ended, lost (``end_at_dead_end``); any other is resigned, and counts as a resignation
    does. A ranked attempt is never deleted: its one try has shown the deal, and a new one
    would start its clock again."""

    def act(game: Game) -> AbandonOutcome:
        if game.untouched and not game.ranked:
            game.delete()
            return AbandonOutcome(game_id, "deleted")
        if game.dead_end:
            outcome = end_at_dead_end(game)
            return AbandonOutcome(game_id, "ended", outcome.representation_with_events())
        variant = get_variant(game.deal.variant)
        state = variant.state_from_json(game.state)
        game.can_undo = False
        events = [{"type": SERVICE_EVENTS[RESIGN]}]
        outcome = record(game, variant, state, {"type": RESIGN}, events, Game.Status.RESIGNED)
        return AbandonOutcome(game_id, "resigned", outcome.representation_with_events())

    return act_on_game(user, game_id, expected_move_number, act, action="abandon")


def delete_untouched_games(older_than: dt.timedelta, limit: int = 500) -> int:
    """Delete casual games in play where no move was ever made, started more than
    ``older_than`` ago, up to ``limit`` of them: the worker's tidying (``games.background``).
    Each is locked first and skipped if a request holds it (a first move under way), and the
    lock reads the row again, so a game moved meanwhile stays."""
    cutoff = timezone.now() - older_than
    with transaction.atomic():
        stale = (
            Game.objects.filter(UNTOUCHED, status=Game.Status.PLAYING, ranked=False, move_number=0)
            .filter(created_at__lt=cutoff)
            .order_by("pk")
        )
        if connection.features.has_select_for_update_skip_locked:
            stale = stale.select_for_update(skip_locked=True)
        ids = list(stale.values_list("pk", flat=True)[:limit])
        if not ids:
            return 0
        Game.objects.filter(pk__in=ids).delete()
    return len(ids)


R = TypeVar("R")


def act_on_game(
    user: AbstractBaseUser,
    game_id: int,
    expected_move_number: int | None,
    act: Callable[[Game], R],
    *,
    in_play: bool = True,
    action: str = "move",
) -> R:
    """``act`` on the player's game, locked (``lock_game``), in one transaction, once the
    checks every action makes have passed: 409 ``stale_move_number`` at a version other than
    ``expected_move_number``, and (``in_play``) 409 ``game_finished`` once the game is over;
    then the features' ``ACTION_RULES`` for ``action``, and ``AFTER_ACTION`` once it is taken.

    A ranked attempt whose day has closed is refused (409 ``challenge_closed``) after its
    transaction commits: one still in play (the day closer has not reached it yet, or runs
    nowhere) is closed here, under the lock, as the closer would have closed it, and its
    pages told, so the refusal and the board the player sees agree. Playing on would mean
    playing with every card known: the day's seed is public once it closes."""
    with transaction.atomic():
        game = lock_game(user, game_id)
        if not past_its_day(game):
            check_version(game, expected_move_number)
            if in_play:
                refuse_finished(game)
            for rule in ACTION_RULES:
                rule(game, action)
            result = act(game)
            for after in AFTER_ACTION:
                after(game)
            return result
        if not game.is_finished:
            close_game(game)
    raise GameError(
        "challenge_closed",
        f"The challenge of {game.daily.date} closed at midnight UTC: "
        "its ranked attempt stands as it was left.",
        status=game.status,
        move_number=game.move_number,
    )


def check_version(game: Game, expected_move_number: int | None) -> None:
    if expected_move_number is not None and expected_move_number != game.move_number:
        raise GameError(
            "stale_move_number",
            f"The game is at move {game.move_number}, not {expected_move_number}: "
            "reload it and try again.",
            move_number=game.move_number,
        )


def refuse_finished(game: Game) -> None:
    if game.is_finished:
        # A finished game has shown its seed and every card: it cannot be revived.
        raise GameError("game_finished", f"This game is over: it was {game.status}.")


def record(
    game: Game,
    variant: Variant,
    state: State,
    payload: Any,
    events: list[dict[str, Any]],
    status: str,
    *,
    finished_at: dt.datetime | None = None,
    away_ms: int | None = None,
) -> Outcome:
    """Append one history entry and bring the snapshot up to date, in the caller's transaction.

    An entry the player made counts as their last move; one the service makes on its own
    (``finished_at`` given) does not. The entry adds to the game's time (``games.core.clock``)
    the time since the entry before, less ``away_ms`` as the clock accepts it, up to the cap."""
    now = timezone.now()
    away = clock.accepted_away_ms(game.ranked, away_ms)
    since = game.last_move_at or game.created_at
    game.active_ms += clock.entry_ms(payload, clock.gap_ms(since, now), away, clock.cap_ms())
    game.move_number += 1
    game.state = variant.state_to_json(state)
    game.cards_home = variant.cards_home(state)
    game.board_moves = state.move_number
    game.status = status
    if status != Game.Status.PLAYING:
        game.dead_end = False
    if finished_at is None:
        game.last_move_at = now
        finished_at = now
    game.finished_at = finished_at if status != Game.Status.PLAYING else None
    append_entry(game, payload, events, now, away)
    if game.ranked and game.is_finished:
        # The fair-play checks receive it, in the same transaction: a finished attempt is never
        # on a leaderboard unchecked. `manage.py flag_games` checks the rest.
        ranked_game_finished.send(sender=Game, game=game)
    outcome = Outcome(game, state, events)
    outcome.schedule_live_update()
    return outcome


# The history entry and the game's snapshot, written as literal SQL: PostgreSQL runs both as
# one statement (one round trip; a data-modifying WITH runs whether or not the main statement
# reads it), SQLite as two. Measured against the ORM's Move.objects.create and
# game.save(update_fields=...) in bench/README.md ("The move's path, one owner").
_INSERT_ENTRY = (
    "INSERT INTO games_move (game_id, number, payload, events, received_at, away_ms) "
    "VALUES (%s, %s, %s, %s, %s, %s)"
)
_UPDATE_GAME = (
    "UPDATE games_game SET move_number = %s, state = %s, status = %s, last_move_at = %s, "
    "finished_at = %s, undo_count = %s, can_undo = %s, dead_end = %s, cards_home = %s, "
    "board_moves = %s, active_ms = %s WHERE id = %s"
)


def append_entry(
    game: Game, payload: Any, events: Any, received_at: dt.datetime, away_ms: int = 0
) -> None:
    """Insert the game's history entry number ``game.move_number`` and write the fields an
    entry changes (``move_number``, ``state``, ``status``, its times, its counts) to the
    game's row, in the caller's transaction. A duplicate move number fails on the unique
    index."""
    ops = connection.ops
    entry = [
        game.pk,
        game.move_number,
        ops.adapt_json_value(payload, None),
        ops.adapt_json_value(events, None),
        ops.adapt_datetimefield_value(received_at),
        away_ms,
    ]
    snapshot = [
        game.move_number,
        ops.adapt_json_value(game.state, None),
        game.status,
        ops.adapt_datetimefield_value(game.last_move_at),
        ops.adapt_datetimefield_value(game.finished_at),
        game.undo_count,
        game.can_undo,
        game.dead_end,
        game.cards_home,
        game.board_moves,
        game.active_ms,
        game.pk,
    ]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"WITH new_entry AS ({_INSERT_ENTRY}) {_UPDATE_GAME}", entry + snapshot)
        else:
            cursor.execute(_INSERT_ENTRY, entry)
            cursor.execute(_UPDATE_GAME, snapshot)


def past_its_day(game: Game) -> bool:
    return bool(game.ranked and game.daily_id and days.day_closed(game.daily.date))


def close_game(game: Game) -> Outcome:
    """Record the ``close`` entry of a locked ranked attempt in play whose day is over."""
    variant = get_variant(game.deal.variant)
    state = variant.state_from_json(game.state)
    game.can_undo = False
    return record(
        game,
        variant,
        state,
        {"type": CLOSE},
        [{"type": SERVICE_EVENTS[CLOSE]}],
        Game.Status.CLOSED,
        finished_at=days.closes_at(game.daily.date),
    )
