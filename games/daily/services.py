"""Writes of the daily challenges: attempts, replays, closing a day's unfinished attempts,
staff seeds."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from games.core import days
from games.core.locks import lock_any_game
from games.daily import challenges
from games.errors import GameError
from games.models import AuditLog, DailyChallenge, Game
from games.moderation.services import audit
from games.play.services import (
    Outcome,
    close_game,
    deal_of,
    past_its_day,
    start_game,
    variant_or_error,
)
from games.rules import get_variant

#: How long a player is asked to wait for a challenge still being prepared (seconds).
NOT_READY_RETRY_AFTER = 60


def daily_challenge(date: dt.date, variant_slug: str) -> DailyChallenge:
    """The day's challenge for a game, prepared ahead (``games.daily.challenges``). A request never
    waits on the solver: when the day's challenge is not there yet, ``challenge_not_ready``."""
    variant = variant_or_error(variant_slug)
    challenge = DailyChallenge.objects.select_related("deal").filter(
        date=date, variant=variant.slug
    )
    if found := challenge.first():
        return found
    return challenge_not_ready(date, variant.slug)


def challenge_not_ready(date: dt.date, variant_slug: str) -> DailyChallenge:
    """503 ``daily_not_ready`` with Retry-After: the worker's days job is preparing
    (or will prepare) the challenge; the player comes back in a minute. (The tests replace
    this with the preparation itself: tests/conftest.py.)"""
    name = get_variant(variant_slug).name
    day = "Today's" if date == days.today() else f"The {date}"
    raise GameError(
        "daily_not_ready",
        f"{day} {name} challenge is still being prepared; try again in a minute.",
        retry_after=NOT_READY_RETRY_AFTER,
    )


def start_daily_attempt(
    *,
    user: AbstractBaseUser,
    date: dt.date,
    variant_slug: str,
) -> Outcome:
    """The player's one ranked attempt at the day's challenge, on that UTC day only."""
    with transaction.atomic():
        return _start_daily_attempt(user, date, variant_slug)


def _start_daily_attempt(user: AbstractBaseUser, date: dt.date, variant_slug: str) -> Outcome:
    if date != days.today():
        word = "closed" if date < days.today() else "not open yet"
        raise GameError(
            "challenge_closed" if date < days.today() else "challenge_not_open",
            f"The challenge of {date} is {word}: a challenge is played on its own day (UTC).",
        )
    challenge = daily_challenge(date, variant_slug)
    variant = get_variant(challenge.variant)
    try:
        with transaction.atomic():
            outcome = start_game(
                user, variant, challenge.deal, ranked=True, daily_challenge=challenge
            )
    except IntegrityError:
        existing = Game.objects.get(owner=user, daily=challenge, ranked=True)
        raise GameError(
            "attempt_exists",
            "You have already started this challenge: each player has one ranked attempt.",
            game_id=existing.pk,
        ) from None
    return outcome


def start_daily_replay(
    *,
    user: AbstractBaseUser,
    date: dt.date,
    variant_slug: str,
) -> Outcome:
    """A casual game on a daily deal, once its day has closed: for everyone alike."""
    with transaction.atomic():
        return _start_daily_replay(user, date, variant_slug)


#: Why a day's deal is not dealt again while the day is open (the daily page says it too).
REPLAY_AFTER_DAY_MESSAGE = (
    "A day's deal can be replayed for fun once the day closes at midnight UTC: until then it "
    "is the deal every ranked attempt plays."
)


def _start_daily_replay(user: AbstractBaseUser, date: dt.date, variant_slug: str) -> Outcome:
    if date > days.today():
        raise GameError("challenge_not_open", f"The challenge of {date} is not open yet.")
    variant = variant_or_error(variant_slug)
    if not days.day_closed(date):
        # Not even after the player's own attempt: a replay deals the whole stock face up in
        # its order, and a second account would then play its ranked attempt knowing every
        # card. Refused before the day's challenge is looked up or made: this changes nothing.
        raise GameError("replay_after_day", REPLAY_AFTER_DAY_MESSAGE)
    challenge = daily_challenge(date, variant.slug)
    return start_game(
        user, get_variant(challenge.variant), challenge.deal, daily_challenge=challenge
    )


def close_unfinished_attempts() -> list[int]:
    """End every ranked daily attempt still in play whose day has closed: each stands as it
    was left (status ``closed``, ranked by its progress) and its open pages are told at once.
    Safe to run from several processes at once; the ids of the attempts this call closed."""
    candidates = Game.objects.filter(
        ranked=True, status=Game.Status.PLAYING, daily__date__lt=days.today()
    ).order_by("pk")
    return [pk for pk in candidates.values_list("pk", flat=True) if close_attempt(game_id=pk)]


def close_attempt(*, game_id: int) -> Outcome | None:
    """Close one ranked daily attempt whose day is over, as a ``close`` entry of its history;
    None when it is not one to close (any longer)."""
    with transaction.atomic():
        game = lock_any_game(game_id)
        if not past_its_day(game) or game.is_finished:
            return None
        return close_game(game)


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
    if challenge.date <= days.today():
        raise GameError("challenge_started", FUTURE_DAYS_ONLY_MESSAGE)
    answer = challenges.solve_seed(challenge.variant, seed, pool="admin")
    with transaction.atomic():
        before = (
            DailyChallenge.objects.filter(pk=challenge.pk)
            .values("date", "variant", "deal__seed", "seed_set_by_staff", "candidate")
            .first()
            if challenge.pk
            else None
        )
        challenge.deal = deal_of(challenge.variant, seed)
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
                **_audited_deal(
                    before["seed_set_by_staff"], before["deal__seed"], before["candidate"]
                ),
            }
        audit(actor, AuditLog.Action.SET_SEED, reason, challenge=challenge, details=details)
    return challenge


def _audited_deal(set_by_staff: bool, seed: int, candidate: int | None) -> dict[str, Any]:
    """How the audit log names a day's deal: a seed staff set by its number; the worker's by
    its candidate number only. The worker's seed is the day's own deal, sealed until the day
    closes (``games.core.sealing``), and once staff remove their seed the worker deals that
    same seed again: written here, any staff member could read it in the log."""
    if set_by_staff:
        return {"seed": seed}
    return {"seed": None, "candidate": candidate}


def remove_daily_challenge(
    *, actor: AbstractBaseUser, challenge: DailyChallenge, reason: str = ""
) -> None:
    """Staff drop a future day's chosen deal: the day deals its own secret seed again."""
    if challenge.date <= days.today():
        raise GameError("challenge_started", "A day that has started keeps its deal.")
    with transaction.atomic():
        details = {
            "date": challenge.date.isoformat(),
            "variant": challenge.variant,
            **_audited_deal(challenge.seed_set_by_staff, challenge.deal.seed, challenge.candidate),
        }
        audit(actor, AuditLog.Action.REMOVE_SEED, reason, challenge=challenge, details=details)
        challenge.delete()
