"""What the games app does when something it does not own changes.

A player can be removed two ways, closing their own account (``accounts.services``) or by staff
in the admin; either way their games go with them (``Game.owner`` cascades), so their ranked
attempts leave the daily leaderboards and the boards' live watchers must be told. Staff
removing accounts is a staff action, written to the audit log like the others.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models.signals import pre_delete
from django.dispatch import receiver

from accounts.guests import guest_merging
from accounts.services import removed_by_staff, removing_accounts
from games.core.signals import ranked_game_finished
from games.daily import leaderboards
from games.models import Game, IdempotencyRecord, Race, RacePlayer
from games.moderation import services as moderation
from games.moderation.fair_play import record_automatic_flags
from web.live import games as live


@receiver(pre_delete, sender=settings.AUTH_USER_MODEL, dispatch_uid="games.player_removed")
def player_removed(sender: Any, instance: Any, **kwargs: Any) -> None:
    # Read before the cascade deletes the games; sent only if the deletion commits.
    for date, variant in leaderboards.daily_boards_entered(instance):
        live.schedule_leaderboard_update(date, variant)


@receiver(removed_by_staff, dispatch_uid="games.accounts_removed_by_staff")
def accounts_removed_by_staff(sender: Any, actor: Any, users: list[Any], **kwargs: Any) -> None:
    # In the removal's transaction: no account goes without its audit entry.
    moderation.audit_account_removals(actor=actor, users=users)


@receiver(removing_accounts, dispatch_uid="games.lock_games_of_removed_accounts")
def lock_games_of_removed_accounts(sender: Any, users: list[Any], **kwargs: Any) -> None:
    # A move takes its game's row lock (games.play.services): holding them all here, a move
    # under way finishes first and its row is deleted with the game; a later one finds none.
    owners = [user.pk for user in users]
    list(Game.objects.select_for_update().filter(owner_id__in=owners).values_list("pk", flat=True))


@receiver(guest_merging, dispatch_uid="games.move_guest_games")
def move_guest_games(sender: Any, guest: Any, account: Any, **kwargs: Any) -> None:
    # A guest signing in to an account (accounts.guests.merge_into), in its transaction: the
    # guest's games (casual only: a guest has no ranked attempt) become the account's. Under
    # their row locks, so a move under way lands first and moves with its game. The guest's
    # Idempotency-Key records go with the guest: the account's keys are its own.
    mine = Game.objects.filter(owner_id=guest.pk)
    list(mine.select_for_update().values_list("pk", flat=True))
    mine.update(owner_id=account.pk)
    IdempotencyRecord.objects.filter(user_id=guest.pk).delete()
    # Its places in races too (where the account is not in the same race: that place is the
    # account's already, and the guest's goes with the guest), and the rooms it opened.
    both = RacePlayer.objects.filter(player_id=account.pk).values("race_id")
    RacePlayer.objects.filter(player_id=guest.pk).exclude(race_id__in=both).update(
        player_id=account.pk
    )
    Race.objects.filter(opener_id=guest.pk).update(opener_id=account.pk)


@receiver(ranked_game_finished, dispatch_uid="games.fair_play_checks")
def check_finished_attempt(sender: Any, game: Game, **kwargs: Any) -> None:
    # In the transaction that finished the attempt, under its lock (games.core.signals).
    record_automatic_flags(game)
