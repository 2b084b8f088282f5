"""Every write of a game: one function, one transaction, the game row locked, the live update
scheduled for after the commit. Views call these and nothing else writes games."""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, connection, transaction
from django.db.models import Count
from django.utils import timezone

from games import dailies, daily, live, selectors, store, winnable_pool
from games.history import (
    CLOSE,
    RESIGN,
    SERVICE_EVENTS,
    UNDO,
    line_of_play,
    opening,
    positions_seen,
    revealed_hidden_cards,
    standing_entries,
)
from games.models import AuditLog, DailyChallenge, Deal, Game, GameFlag
from games.rules import DEAL_VERSION, MAX_SEED, IllegalMove, Move, State, Variant, get_variant
from games.rules.hints import describe
from games.solver.hints import HEURISTIC, LookaheadHint, lookahead_hint
from web.errors import ApiError

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
    def representation(self) -> dict[str, Any]:
        """The game as its player sees it now (JSON-ready), built once for the response and
        the live update."""
        return selectors.game_representation(self.game, self.state)

    def representation_with_events(self) -> dict[str, Any]:
        """What a move, an undo or a resignation answers, and what watchers are sent."""
        return {**self.representation, "events": self.events}

    def schedule_live_update(self) -> None:
        live.schedule_game_update(self.game, self.representation_with_events)


def variant_or_error(slug: object) -> Variant:
    try:
        return get_variant(slug)  # type: ignore[arg-type]
    except (KeyError, TypeError):
        raise ApiError("unknown_variant", f"There is no game called {slug!r}.") from None


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
    (``games.winnable_pool``; the solver never runs here)."""
    variant = variant_or_error(variant_slug)
    seed_chosen = seed is not None
    if winnable and seed_chosen:
        raise ApiError(
            "winnable_with_seed",
            "Ask for a deal number or for a winnable deal, not both: a winnable deal is drawn "
            "from the deals the solver has proven winnable.",
        )
    if seed is None:
        seed = secrets.randbelow(MAX_SEED + 1)
    elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ApiError("invalid_seed", f"A deal number is a whole number from 0 to {MAX_SEED}.")
    with transaction.atomic():
        if not winnable:
            return _start(user, variant, _deal(variant.slug, seed), seed_chosen=seed_chosen)
        pooled = winnable_pool.take(variant.slug)
        if pooled is None:
            raise ApiError(
                "no_winnable_deal",
                NO_WINNABLE_DEAL_MESSAGE.format(name=variant.name),
                503,
                headers={"Retry-After": str(settings.WINNABLE_POOL_RETRY_AFTER)},
            )
        outcome = _start(user, variant, _deal(variant.slug, pooled.seed), winnable=True)
        winnable_pool.mark_dealt(pooled, outcome.game)
        return outcome


#: How long a player is asked to wait for a challenge still being prepared (seconds).
NOT_READY_RETRY_AFTER = 60


def daily_challenge(date: dt.date, variant_slug: str) -> DailyChallenge:
    """The day's challenge for a game, prepared ahead (``games.dailies``). A request never
    waits on the solver: when the day's challenge is not there yet, ``challenge_not_ready``."""
    variant = variant_or_error(variant_slug)
    challenge = DailyChallenge.objects.select_related("deal").filter(
        date=date, variant=variant.slug
    )
    if found := challenge.first():
        return found
    return challenge_not_ready(date, variant.slug)


def challenge_not_ready(date: dt.date, variant_slug: str) -> DailyChallenge:
    """503 ``daily_not_ready`` with Retry-After: the server's day-closing thread is preparing
    (or will prepare) the challenge; the player comes back in a minute. (The tests replace
    this with the preparation itself: tests/conftest.py.)"""
    name = get_variant(variant_slug).name
    day = "Today's" if date == daily.today() else f"The {date}"
    raise ApiError(
        "daily_not_ready",
        f"{day} {name} challenge is still being prepared; try again in a minute.",
        503,
        headers={"Retry-After": str(NOT_READY_RETRY_AFTER)},
    )


def _deal(variant_slug: str, seed: int) -> Deal:
    """The deal of this game and seed under the current dealing algorithm, made on first use."""
    deal, _ = Deal.objects.get_or_create(variant=variant_slug, seed=seed, deal_version=DEAL_VERSION)
    return deal


def start_daily_attempt(*, user: AbstractBaseUser, date: dt.date, variant_slug: str) -> Outcome:
    """The player's one ranked attempt at the day's challenge, on that UTC day only."""
    if date != daily.today():
        word = "closed" if date < daily.today() else "not open yet"
        raise ApiError(
            "challenge_closed" if date < daily.today() else "challenge_not_open",
            f"The challenge of {date} is {word}: a challenge is played on its own day (UTC).",
            409,
        )
    challenge = daily_challenge(date, variant_slug)
    variant = get_variant(challenge.variant)
    try:
        with transaction.atomic():
            outcome = _start(user, variant, challenge.deal, ranked=True, daily_challenge=challenge)
    except IntegrityError:
        existing = Game.objects.get(owner=user, daily=challenge, ranked=True)
        raise ApiError(
            "attempt_exists",
            "You have already started this challenge: each player has one ranked attempt.",
            409,
            game_id=existing.pk,
        ) from None
    return outcome


def start_daily_replay(*, user: AbstractBaseUser, date: dt.date, variant_slug: str) -> Outcome:
    """A casual game on a daily deal: after the player's own attempt is over, or the day is."""
    if date > daily.today():
        raise ApiError("challenge_not_open", f"The challenge of {date} is not open yet.", 409)
    variant = variant_or_error(variant_slug)
    if not daily.day_closed(date):
        # Looked up without making the day's challenge: a refusal changes nothing.
        attempt = Game.objects.filter(
            owner=user, daily__date=date, daily__variant=variant.slug, ranked=True
        ).first()
        if attempt is None or not attempt.is_finished:
            raise ApiError(
                "attempt_first",
                "Finish your ranked attempt first; then you can replay the deal for fun.",
                409,
            )
    challenge = daily_challenge(date, variant.slug)
    with transaction.atomic():
        return _start(
            user, get_variant(challenge.variant), challenge.deal, daily_challenge=challenge
        )


def _start(
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
    with _game_action():
        game = _lock_playing_game(user, game_id, expected_move_number)
        variant = get_variant(game.deal.variant)
        state = variant.state_from_json(game.state)
        try:
            after, events = variant.play(state, variant.move_from_json(move))
        except IllegalMove as error:
            raise ApiError(error.code, error.message) from None
        status = next(
            (STATUS_AFTER_EVENT[e["type"]] for e in events if e["type"] in STATUS_AFTER_EVENT),
            Game.Status.PLAYING,
        )
        game.can_undo = (
            not game.ranked
            and status == Game.Status.PLAYING
            and not revealed_hidden_cards(move, events)
        )
        return _record(game, variant, after, move, events, status)


def undo_move(
    *, user: AbstractBaseUser, game_id: int, expected_move_number: int | None = None
) -> Outcome:
    """Take back the last move (casual games only), as a new entry of the history."""
    with _game_action():
        game = _lock_game(user, game_id, expected_move_number)
        if game.ranked:
            raise ApiError("undo_not_allowed", "Ranked games have no undo.", 409)
        if game.is_finished:
            # A finished game has shown its seed and every card: it cannot be revived.
            raise ApiError("game_finished", f"This game is over: it was {game.status}.", 409)
        variant = get_variant(game.deal.variant)
        history = list(game.moves.order_by("number").values_list("payload", "events"))
        standing = standing_entries(payload for payload, _ in history)
        if not standing:
            raise ApiError("nothing_to_undo", "There is no move to undo.", 409)
        if revealed_hidden_cards(*history[standing[-1]]):
            # Taking it back would hide cards the player has already seen.
            raise ApiError(
                "undo_not_allowed",
                "That move turned up cards that were hidden, so it cannot be taken back.",
                409,
            )
        line = line_of_play(variant, game.deal, [payload for payload, _ in history])
        game.undo_count += 1
        # The move now last on the board decides whether another undo may follow.
        game.can_undo = len(standing) > 1 and not revealed_hidden_cards(*history[standing[-2]])
        events = [{"type": SERVICE_EVENTS[UNDO]}]
        return _record(game, variant, line[-2], {"type": UNDO}, events, Game.Status.PLAYING)


@dataclass(frozen=True)
class Hint:
    """A suggested move (None: nothing to suggest) and the game it was asked of."""

    game: Game
    move: Move | None
    message: str
    source: str = HEURISTIC
    lost: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "move": self.move.to_json() if self.move else None,
            "message": self.message,
            "source": self.source,
            "lost": self.lost,
            "move_number": self.game.move_number,
            "hints": self.game.hint_count,
        }


@dataclass(frozen=True)
class WorkedOut:
    """A look-ahead hint and the version of the game it was worked out for."""

    game_id: int
    move_number: int
    hint: LookaheadHint


def work_out_hint(
    *, user: AbstractBaseUser, game_id: int, expected_move_number: int | None = None
) -> WorkedOut:
    """The look-ahead hint for a casual game as it stands, searched with no transaction open
    and no row locked: the game is read (and checked: the player's, in play, casual) in a short
    transaction, and the search (``games.solver.hints``, at most ``HINT_SECONDS``) runs after
    it ends. Nothing is counted; ``request_hint`` does that. Raises the refusals
    ``request_hint`` gives."""
    with _game_action():
        game = _hintable_game(user, game_id, expected_move_number)
        variant = get_variant(game.deal.variant)
        state = variant.state_from_json(game.state)
        seen = _positions_seen(variant, game)
        version = game.move_number
    if not connection.in_atomic_block:
        # Give the connection back (to the pool, on PostgreSQL) while the search runs.
        connection.close()
    hint = lookahead_hint(variant, state, seen, settings.HINT_SECONDS)
    return WorkedOut(game.pk, version, hint)


def request_hint(
    *,
    user: AbstractBaseUser,
    game_id: int,
    expected_move_number: int | None = None,
    worked_out: WorkedOut | None = None,
    search: bool = True,
) -> Hint:
    """Suggest a move in a casual game and count it. The board and its version do not
    change; the player's other tabs get the game with its new count (same ``move_number``,
    more ``counts.hints``).

    The hint is ``worked_out`` (by default, ``work_out_hint`` now, before any lock is taken;
    ``search=False``: none unless given) when it was worked out for the version the game is
    still at; otherwise, as when the game moved meanwhile, today's hint (``Variant.hint``),
    which needs no search: no search ever runs under the game's lock. A hint that tells
    nothing (no move, and not a lost position) is not counted against the player."""
    if worked_out is None and search:
        worked_out = work_out_hint(
            user=user, game_id=game_id, expected_move_number=expected_move_number
        )
    with _game_action():
        game = _hintable_game(user, game_id, expected_move_number)
        variant = get_variant(game.deal.variant)
        state = variant.state_from_json(game.state)
        if (
            worked_out is not None
            and worked_out.game_id == game.pk
            and worked_out.move_number == game.move_number
        ):
            look = worked_out.hint
        else:
            move = variant.hint(state, _positions_seen(variant, game))
            look = LookaheadHint(move, describe(variant, state, move), HEURISTIC)
        if look.move is not None or look.lost:
            game.hint_count += 1
            game.save(update_fields=["hint_count"])
            Outcome(game, state, [{"type": "hinted"}]).schedule_live_update()
        return Hint(game, look.move, look.message, look.source, look.lost)


def _hintable_game(user: AbstractBaseUser, game_id: int, expected_move_number: int | None) -> Game:
    game = _lock_playing_game(user, game_id, expected_move_number)
    if game.ranked:
        raise ApiError("hints_not_allowed", "Ranked games have no hints.", 409)
    return game


def _positions_seen(variant: Variant, game: Game) -> set[State]:
    entries = game.moves.order_by("number").values_list("payload", flat=True)
    return positions_seen(variant, game.deal, entries)


def resign_game(
    *, user: AbstractBaseUser, game_id: int, expected_move_number: int | None = None
) -> Outcome:
    with _game_action():
        game = _lock_playing_game(user, game_id, expected_move_number)
        variant = get_variant(game.deal.variant)
        state = variant.state_from_json(game.state)
        events = [{"type": SERVICE_EVENTS[RESIGN]}]
        game.can_undo = False
        return _record(game, variant, state, {"type": RESIGN}, events, Game.Status.RESIGNED)


def close_unfinished_attempts() -> list[int]:
    """End every ranked daily attempt still in play whose day has closed: each stands as it
    was left (status ``closed``, ranked by its progress) and its open pages are told at once.
    Safe to run from several processes at once; the ids of the attempts this call closed."""
    candidates = Game.objects.filter(
        ranked=True, status=Game.Status.PLAYING, daily__date__lt=daily.today()
    ).order_by("pk")
    return [pk for pk in candidates.values_list("pk", flat=True) if close_attempt(game_id=pk)]


def close_attempt(*, game_id: int) -> Outcome | None:
    """Close one ranked daily attempt whose day is over, as a ``close`` entry of its history;
    None when it is not one to close (any longer)."""
    with transaction.atomic():
        game = _lock_any_game(game_id)
        if not _past_its_day(game) or game.is_finished:
            return None
        return _close(game)


def _past_its_day(game: Game) -> bool:
    return bool(game.ranked and game.daily_id and daily.day_closed(game.daily.date))


def _close(game: Game) -> Outcome:
    """Record the ``close`` entry of a locked ranked attempt in play whose day is over."""
    variant = get_variant(game.deal.variant)
    state = variant.state_from_json(game.state)
    game.can_undo = False
    return _record(
        game,
        variant,
        state,
        {"type": CLOSE},
        [{"type": SERVICE_EVENTS[CLOSE]}],
        Game.Status.CLOSED,
        finished_at=daily.closes_at(game.daily.date),
    )


class _DayClosed(Exception):
    """Raised by ``_lock_game``, before anything is written: the locked game is a ranked
    attempt whose day has closed."""

    def __init__(self, game: Game) -> None:
        super().__init__(game.pk)
        self.game = game


@contextmanager
def _game_action() -> Iterator[None]:
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
                _close(game)
            # The day's seed is public now: playing on would mean playing with every card
            # known.
            refusal = ApiError(
                "challenge_closed",
                f"The challenge of {game.daily.date} closed at midnight UTC: "
                "its ranked attempt stands as it was left.",
                409,
                status=game.status,
                move_number=game.move_number,
            )
    if refusal is not None:
        raise refusal


def _lock_game(user: AbstractBaseUser, game_id: int, expected_move_number: int | None) -> Game:
    """The player's game, locked until the transaction ends; 404 for anyone else's. Called
    inside ``_game_action``, which answers for a ranked attempt whose day has closed."""
    game = store.lock_game(game_id, user.pk)
    if game is None:
        raise ApiError("not_found", "There is no such game.", 404)
    if _past_its_day(game):
        raise _DayClosed(game)
    if expected_move_number is not None and expected_move_number != game.move_number:
        raise ApiError(
            "stale_move_number",
            f"The game is at move {game.move_number}, not {expected_move_number}: "
            "reload it and try again.",
            409,
            move_number=game.move_number,
        )
    return game


def _lock_playing_game(
    user: AbstractBaseUser, game_id: int, expected_move_number: int | None
) -> Game:
    game = _lock_game(user, game_id, expected_move_number)
    if game.is_finished:
        raise ApiError("game_finished", f"This game is over: it was {game.status}.", 409)
    return game


def _record(
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
    store.append_entry(game, entry, RECORDED_FIELDS)
    if game.ranked and game.is_finished:
        # Checked as the attempt's result becomes final, in the same transaction: a finished
        # attempt is never on a leaderboard unchecked. `manage.py flag_games` checks the rest.
        record_automatic_flags(game)
    outcome = Outcome(game, state, events)
    outcome.schedule_live_update()
    return outcome


# -- fair play and staff actions -------------------------------------------------------------


def record_automatic_flags(game: Game) -> list[GameFlag]:
    """Raise a flag for each fair-play check a ranked attempt fails, in the caller's
    transaction. A check raises its flag once per game: one staff cleared stays cleared."""
    if not game.ranked:
        return []
    known = set(game.flags.filter(automatic=True).values_list("reason", flat=True))
    return [
        GameFlag.objects.create(game=game, reason=f.reason, detail=f.detail, automatic=True)
        for f in selectors.fair_play_findings(game)
        if f.reason not in known
    ]


def check_fair_play(*, game_id: int) -> list[GameFlag]:
    """Run the automatic checks on one game now (``manage.py flag_games``): the new flags."""
    with transaction.atomic():
        return record_automatic_flags(_lock_any_game(game_id))


def flag_game(*, actor: AbstractBaseUser, game_id: int, reason: str) -> GameFlag:
    reason = _reason(reason)
    with transaction.atomic():
        game = _lock_any_game(game_id)
        flag = GameFlag.objects.create(
            game=game, reason=GameFlag.Reason.STAFF, detail=reason, created_by=actor
        )
        _audit(actor, AuditLog.Action.FLAG, reason, game=game, details={"flag": flag.pk})
    return flag


def unflag_game(*, actor: AbstractBaseUser, game_id: int, reason: str) -> list[GameFlag]:
    """Clear every open flag of the game."""
    reason = _reason(reason)
    with transaction.atomic():
        game = _lock_any_game(game_id)
        flags = list(game.flags.filter(cleared_at__isnull=True).order_by("pk"))
        if not flags:
            raise ApiError("not_flagged", "This game has no open flag.", 409)
        now = timezone.now()
        for flag in flags:
            flag.cleared_at, flag.cleared_by, flag.cleared_reason = now, actor, reason
        GameFlag.objects.bulk_update(flags, ["cleared_at", "cleared_by", "cleared_reason"])
        details = {"flags": [{"id": f.pk, "reason": f.reason} for f in flags]}
        _audit(actor, AuditLog.Action.UNFLAG, reason, game=game, details=details)
    return flags


def exclude_game(*, actor: AbstractBaseUser, game_id: int, reason: str) -> Game:
    """Take a ranked attempt off the leaderboards; its day's live board updates at once."""
    return _set_excluded(actor, game_id, reason, excluded=True)


def reinstate_game(*, actor: AbstractBaseUser, game_id: int, reason: str) -> Game:
    """Put an excluded attempt back on the leaderboards."""
    return _set_excluded(actor, game_id, reason, excluded=False)


def _set_excluded(actor: AbstractBaseUser, game_id: int, reason: str, *, excluded: bool) -> Game:
    reason = _reason(reason)
    with transaction.atomic():
        game = _lock_any_game(game_id)
        if not game.ranked:
            raise ApiError("not_ranked", "Only a ranked attempt is on the leaderboards.", 409)
        if game.excluded == excluded:
            word = "excluded" if excluded else "on the leaderboards"
            raise ApiError(
                "already_excluded" if excluded else "not_excluded",
                f"This attempt is already {word}.",
                409,
            )
        game.excluded = excluded
        game.save(update_fields=["excluded"])
        action = AuditLog.Action.EXCLUDE if excluded else AuditLog.Action.REINSTATE
        _audit(actor, action, reason, game=game)
        if game.daily_id:
            live.schedule_leaderboard_update(game.daily.date, game.daily.variant)
    return game


#: Why a day that has started keeps its deal (the admin's form says it too).
FUTURE_DAYS_ONLY_MESSAGE = (
    "Only a future day's seed can be set: players may already have this deal."
)


def save_daily_challenge(
    *, actor: AbstractBaseUser, challenge: DailyChallenge, seed: int, reason: str = ""
) -> DailyChallenge:
    """Staff set a future day's deal to deal number ``seed``, audited. The seed is solved
    first (staff wait on the solver, within its budget): the challenge keeps the solver's
    answer, proven winnable or not (staff may keep a deal the solver did not prove)."""
    if challenge.date <= daily.today():
        raise ApiError("challenge_started", FUTURE_DAYS_ONLY_MESSAGE, 409)
    answer = dailies.solve_seed(challenge.variant, seed, pool="admin")
    with transaction.atomic():
        before = (
            DailyChallenge.objects.filter(pk=challenge.pk)
            .values("date", "variant", "deal__seed")
            .first()
            if challenge.pk
            else None
        )
        challenge.deal = _deal(challenge.variant, seed)
        challenge.seed_set_by_staff = True
        challenge.candidate = None
        for name, value in answer.fields().items():
            setattr(challenge, name, value)
        challenge.save()
        details: dict[str, Any] = {
            "date": challenge.date.isoformat(),
            "variant": challenge.variant,
            "seed": challenge.deal.seed,
            "outcome": challenge.outcome,
        }
        if before:
            details["previous"] = {
                "date": before["date"].isoformat(),
                "variant": before["variant"],
                "seed": before["deal__seed"],
            }
        _audit(actor, AuditLog.Action.SET_SEED, reason, challenge=challenge, details=details)
    return challenge


def remove_daily_challenge(
    *, actor: AbstractBaseUser, challenge: DailyChallenge, reason: str = ""
) -> None:
    """Staff drop a future day's chosen deal: the day deals its own secret seed again."""
    if challenge.date <= daily.today():
        raise ApiError("challenge_started", "A day that has started keeps its deal.", 409)
    with transaction.atomic():
        details = {
            "date": challenge.date.isoformat(),
            "variant": challenge.variant,
            "seed": challenge.deal.seed,
        }
        _audit(actor, AuditLog.Action.REMOVE_SEED, reason, challenge=challenge, details=details)
        challenge.delete()


def audit_account_removals(
    *, actor: AbstractBaseUser, users: Sequence[AbstractBaseUser]
) -> list[AuditLog]:
    """Staff delete accounts (``accounts.services.remove_accounts``, the admin's delete of one
    or several): an audit entry per account, in the caller's transaction, written before the
    accounts go. The entry names the account in words that outlive it (``target``, and its id,
    username and games in ``details``); no email or other personal detail is kept."""
    games = dict(
        Game.objects.filter(owner__in=[user.pk for user in users])
        .order_by()
        .values_list("owner")
        .annotate(n=Count("pk"))
    )
    return [
        _audit(
            actor,
            AuditLog.Action.DELETE_ACCOUNT,
            "",
            target=f"account {user.pk} ({user.get_username()})",
            details={
                "user_id": user.pk,
                "username": user.get_username(),
                "staff": bool(getattr(user, "is_staff", False)),
                "games": games.get(user.pk, 0),
                "removed_together": len(users),
            },
        )
        for user in users
    ]


def _lock_any_game(game_id: int) -> Game:
    """Any player's game, locked until the transaction ends: for staff and the checks."""
    try:
        return (
            Game.objects.select_for_update(of=("self",))
            .select_related("deal", "daily", "owner")
            .get(pk=game_id)
        )
    except Game.DoesNotExist:
        raise ApiError("not_found", "There is no such game.", 404) from None


def _reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ApiError("reason_required", "Say why: the reason goes into the audit log.")
    return reason


def _audit(
    actor: AbstractBaseUser,
    action: str,
    reason: str,
    *,
    game: Game | None = None,
    challenge: DailyChallenge | None = None,
    details: dict[str, Any] | None = None,
    target: str | None = None,
) -> AuditLog:
    if target is None and game is not None:
        target = f"game {game.pk} ({game.deal.variant}, {game.owner.get_username()})"
    elif target is None and challenge is not None:
        target = f"daily challenge {challenge.date} {challenge.variant}"
    return AuditLog.objects.create(
        actor=actor,
        actor_name=actor.get_username(),
        action=action,
        target=target or "",
        game=game,
        daily=challenge,
        reason=reason,
        details=details or {},
    )
