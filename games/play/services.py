"""Writes of a game: creating it, moves, undo, resigning. Each is one transaction whose live
update is scheduled for after the commit; views call these and nothing else writes games."""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from games import live
from games.daily import days
from games.errors import GameError
from games.models import DailyChallenge, Deal, Game
from games.moderation.fair_play import record_automatic_flags
from games.play import move_sql, responses, winnable_pool
from games.play import selectors as play_selectors
from games.play.history import (
    CLOSE,
    RESIGN,
    SERVICE_EVENTS,
    UNDO,
    line_of_play,
    opening,
    revealed_hidden_cards,
    standing_entries,
)
from games.rules import DEAL_VERSION, MAX_SEED, IllegalMove, State, Variant, get_variant

STATUS_AFTER_EVENT = {"game_won": Game.Status.WON, "game_lost": Game.Status.LOST}


#: What a history entry changes in the game row.
RECORDED_FIELDS = (
    "move_number",
    "state",
    "status",
    "last_move_at",
    "finished_at",
    "undo_count",
    "can_undo",
    "cards_home",
    "board_moves",
)


@dataclass
class Outcome:
    """A game after an action, its engine state, and what happened."""

    game: Game
    state: State
    events: list[dict[str, Any]] = field(default_factory=list)

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
    with transaction.atomic():
        if not winnable:
            return start_game(user, variant, deal_of(variant.slug, seed), seed_chosen=seed_chosen)
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
    outcome = Outcome(game, state)
    outcome.schedule_live_update()
    return outcome


def play_move(
    *,
    user: AbstractBaseUser,
    game_id: int,
    move: Any,
    expected_move_number: int | None = None,
) -> Outcome:
    """Validate ``move`` through the engine and record it; an illegal move changes nothing."""
    with game_action():
        game = lock_playing_game(user, game_id, expected_move_number)
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
        game.can_undo = (
            not game.ranked
            and status == Game.Status.PLAYING
            and not revealed_hidden_cards(move, events)
        )
        return record(game, variant, after, move, events, status)


def undo_move(
    *, user: AbstractBaseUser, game_id: int, expected_move_number: int | None = None
) -> Outcome:
    """Take back the last move (casual games only), as a new entry of the history."""
    with game_action():
        game = _lock_game(user, game_id, expected_move_number)
        if game.ranked:
            raise GameError("undo_not_allowed", "Ranked games have no undo.")
        if game.is_finished:
            # A finished game has shown its seed and every card: it cannot be revived.
            raise GameError("game_finished", f"This game is over: it was {game.status}.")
        variant = get_variant(game.deal.variant)
        history = list(game.moves.order_by("number").values_list("payload", "events"))
        standing = standing_entries(payload for payload, _ in history)
        if not standing:
            raise GameError("nothing_to_undo", "There is no move to undo.")
        if revealed_hidden_cards(*history[standing[-1]]):
            # Taking it back would hide cards the player has already seen.
            raise GameError(
                "undo_not_allowed",
                "That move turned up cards that were hidden, so it cannot be taken back.",
            )
        line = line_of_play(variant, game.deal, [payload for payload, _ in history])
        game.undo_count += 1
        # The move now last on the board decides whether another undo may follow.
        game.can_undo = len(standing) > 1 and not revealed_hidden_cards(*history[standing[-2]])
        events = [{"type": SERVICE_EVENTS[UNDO]}]
        return record(game, variant, line[-2], {"type": UNDO}, events, Game.Status.PLAYING)


def resign_game(
    *, user: AbstractBaseUser, game_id: int, expected_move_number: int | None = None
) -> Outcome:
    with game_action():
        game = lock_playing_game(user, game_id, expected_move_number)
        variant = get_variant(game.deal.variant)
        state = variant.state_from_json(game.state)
        events = [{"type": SERVICE_EVENTS[RESIGN]}]
        game.can_undo = False
        return record(game, variant, state, {"type": RESIGN}, events, Game.Status.RESIGNED)


class _DayClosed(Exception):
    """Raised by ``_lock_game``, before anything is written: the locked game is a ranked
    attempt whose day has closed."""

    def __init__(self, game: Game) -> None:
        super().__init__(game.pk)
        self.game = game


@contextmanager
def game_action() -> Iterator[None]:
    """The transaction of a player's action on a game (``_lock_game`` inside).

    An action on a ranked attempt whose day has closed is refused (409 ``challenge_closed``).
    If the attempt is still in play (the day closer has not reached it yet, or runs nowhere),
    it is closed there and then, in this transaction and under the lock already held, as the
    closer would have closed it, and its pages told on commit: the refusal and the board the
    player sees agree."""
    refusal = None
    with transaction.atomic():
        try:
            yield
        except _DayClosed as closed:
            game = closed.game
            if not game.is_finished:
                close_game(game)
            # The day's seed is public now: playing on would mean playing with every card
            # known.
            refusal = GameError(
                "challenge_closed",
                f"The challenge of {game.daily.date} closed at midnight UTC: "
                "its ranked attempt stands as it was left.",
                status=game.status,
                move_number=game.move_number,
            )
    if refusal is not None:
        raise refusal


def _lock_game(user: AbstractBaseUser, game_id: int, expected_move_number: int | None) -> Game:
    """The player's game, locked until the transaction ends; 404 for anyone else's. Called
    inside ``game_action``, which answers for a ranked attempt whose day has closed."""
    game = move_sql.lock_game(game_id, user.pk)
    if game is None:
        raise GameError("not_found", "There is no such game.")
    if past_its_day(game):
        raise _DayClosed(game)
    if expected_move_number is not None and expected_move_number != game.move_number:
        raise GameError(
            "stale_move_number",
            f"The game is at move {game.move_number}, not {expected_move_number}: "
            "reload it and try again.",
            move_number=game.move_number,
        )
    return game


def lock_playing_game(
    user: AbstractBaseUser, game_id: int, expected_move_number: int | None
) -> Game:
    game = _lock_game(user, game_id, expected_move_number)
    if game.is_finished:
        raise GameError("game_finished", f"This game is over: it was {game.status}.")
    return game


def record(
    game: Game,
    variant: Variant,
    state: State,
    payload: Any,
    events: list[dict[str, Any]],
    status: str,
    *,
    finished_at: dt.datetime | None = None,
) -> Outcome:
    """Append one history entry and bring the snapshot up to date, in the caller's transaction.

    An entry the player made counts as their last move (the leaderboards' time runs to it);
    one the service makes on its own (``finished_at`` given) does not."""
    now = timezone.now()
    game.move_number += 1
    game.state = variant.state_to_json(state)
    game.cards_home = variant.cards_home(state)
    game.board_moves = state.move_number
    game.status = status
    if finished_at is None:
        game.last_move_at = now
        finished_at = now
    game.finished_at = finished_at if status != Game.Status.PLAYING else None
    entry = {
        "game": game,
        "number": game.move_number,
        "payload": payload,
        "events": events,
        "received_at": now,
    }
    move_sql.append_entry(game, entry, RECORDED_FIELDS)
    if game.ranked and game.is_finished:
        # Checked as the attempt's result becomes final, in the same transaction: a finished
        # attempt is never on a leaderboard unchecked. `manage.py flag_games` checks the rest.
        record_automatic_flags(game)
    outcome = Outcome(game, state, events)
    outcome.schedule_live_update()
    return outcome


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
