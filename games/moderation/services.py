"""Staff actions on games (flags, exclusions) and the audit log that records each one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from games.core.locks import lock_any_game
from games.errors import GameError
from games.models import AuditLog, DailyChallenge, Game, GameFlag
from web.live import games as live


def flag_game(*, actor: AbstractBaseUser, game_id: int, reason: str) -> GameFlag:
    reason = _reason(reason)
    with transaction.atomic():
        game = lock_any_game(game_id)
        flag = GameFlag.objects.create(
            game=game, reason=GameFlag.Reason.STAFF, detail=reason, created_by=actor
        )
        audit(actor, AuditLog.Action.FLAG, reason, game=game, details={"flag": flag.pk})
    return flag


def unflag_game(*, actor: AbstractBaseUser, game_id: int, reason: str) -> list[GameFlag]:
    """Clear every open flag of the game."""
    reason = _reason(reason)
    with transaction.atomic():
        game = lock_any_game(game_id)
        flags = list(game.flags.filter(cleared_at__isnull=True).order_by("pk"))
        if not flags:
            raise GameError("not_flagged", "This game has no open flag.")
        now = timezone.now()
        for flag in flags:
            flag.cleared_at, flag.cleared_by, flag.cleared_reason = now, actor, reason
        GameFlag.objects.bulk_update(flags, ["cleared_at", "cleared_by", "cleared_reason"])
        details = {"flags": [{"id": f.pk, "reason": f.reason} for f in flags]}
        audit(actor, AuditLog.Action.UNFLAG, reason, game=game, details=details)
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
        game = lock_any_game(game_id)
        if not game.ranked:
            raise GameError("not_ranked", "Only a ranked attempt is on the leaderboards.")
        if game.excluded == excluded:
            word = "excluded" if excluded else "on the leaderboards"
            raise GameError(
                "already_excluded" if excluded else "not_excluded",
                f"This attempt is already {word}.",
            )
        game.excluded = excluded
        game.save(update_fields=["excluded"])
        action = AuditLog.Action.EXCLUDE if excluded else AuditLog.Action.REINSTATE
        audit(actor, action, reason, game=game)
        if game.daily_id:
            live.schedule_leaderboard_update(game.daily.date, game.daily.variant)
    return game


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
        audit(
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


def _reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise GameError("reason_required", "Say why: the reason goes into the audit log.")
    return reason


def audit(
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
