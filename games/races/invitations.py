"""Race invitations: an account in a waiting race asks a player it follows (its Friends list)
to join; the invited player's live connections (their account's group, ``accounts.live.
account_group``: the lobby's ``/ws/account/``) hear it after the commit, and their lobby
shows it until the race starts or they join, or they decline it ("Not now": ``decline``),
each of which their connections hear too (``live.schedule_invitations_gone``). A declined
invitation is kept, so that the race does not ask them again, and its sender's room shows it
declined. Guests neither invite nor are invited. A pending invitation tells its race's code,
game and inviter: nothing of the deal."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from accounts.follows import followed_ids
from accounts.guests import is_guest
from accounts.live import account_group
from games.errors import GameError
from games.play.selectors import json_time
from games.races import live, responses, selectors
from games.races.models import Race, RaceInvitation
from games.races.services import RaceOutcome, entry_of, lock_race, refuse_unless_waiting
from games.rules import VARIANTS
from web.live.publish import publish

#: What an invited player's connections hear.
INVITED = "account.race_invitation"
#: What an inviter's connections hear when the player they invited declines.
DECLINED = "account.race_invitation_declined"


def invite(*, user: AbstractBaseUser, code: str, username: str) -> RaceOutcome:
    """``user`` (an account in the waiting race ``code``) invites ``username``, a player it
    follows (already invited, by anyone, declined or not, or in the race already: nothing
    changes: a player who said "Not now" is not asked again). 403
    ``account_required`` for a guest, ``not_in_race``; 404 ``not_found`` for anyone who is not
    an account ``user`` follows; 409 ``race_started``; 409 ``too_many_invitations`` past
    ``RACE_MAX_PLAYERS`` invitations out for the race."""
    if is_guest(user):
        raise GameError("account_required", "Inviting friends is for accounts: sign up first.")
    with transaction.atomic():
        race = lock_race(code)
        if entry_of(race, user) is None:
            raise GameError("not_in_race", "You are not in this race: join it first.")
        refuse_unless_waiting(race)
        friend = _followed_account(user, username)
        invited = race.invitations.filter(recipient=friend).exists()
        if entry_of(race, friend) is None and not invited:
            if race.invitations.count() >= settings.RACE_MAX_PLAYERS:
                raise GameError(
                    "too_many_invitations",
                    "This race has invited as many players as it has places.",
                )
            made = RaceInvitation.objects.create(race=race, sender=user, recipient=friend)
            message = {"type": INVITED, "invitation": invitation_view(made)}
            transaction.on_commit(lambda: publish(account_group(friend.pk), message), robust=True)
    return RaceOutcome(race, user)


def decline(*, user: AbstractBaseUser, code: str) -> None:
    """``user`` declines their pending invitation to the race ``code`` ("Not now"): it leaves
    their lobbies, its sender's room shows it declined, and it is not sent again. 404
    ``not_found`` when they have none pending (none, declined already, the race no longer
    waiting, or joined)."""
    with transaction.atomic():
        invitation = (
            RaceInvitation.objects.select_for_update(of=("self",))
            .select_related("race", "recipient")
            .filter(
                race__code=code,
                recipient_id=user.pk,
                race__state=Race.State.WAITING,
                declined_at__isnull=True,
            )
            .exclude(race__players__player_id=user.pk)
            .first()
        )
        if invitation is None:
            raise GameError("not_found", "You have no invitation to this race.")
        invitation.declined_at = timezone.now()
        invitation.save(update_fields=["declined_at"])
        sender_id, name = invitation.sender_id, invitation.recipient.get_username()
        told = {"type": DECLINED, "code": code, "username": name}

        def tell() -> None:
            live.invitations_gone(code, [user.pk])
            publish(account_group(sender_id), told)

        transaction.on_commit(tell, robust=True)


def _followed_account(user: AbstractBaseUser, username: str) -> AbstractBaseUser:
    """The account ``username`` if ``user`` follows it, else 404 (a guest, a stranger and a
    name nobody has are alike: whom one may invite is one's Friends list)."""
    friend = (
        get_user_model()
        .objects.filter(username=username, is_active=True, guest_profile__isnull=True)
        .first()
        if "\x00" not in username
        else None
    )
    if friend is None or friend.pk not in followed_ids(user.pk):
        raise GameError("not_found", "You can invite the players you follow only.")
    return friend


def invitation_view(invitation: RaceInvitation) -> responses.RaceInvitation:
    race = invitation.race
    return {
        "code": race.code,
        "link": selectors.link(race),
        "variant": race.variant,
        "name": VARIANTS[race.variant].name,
        "sender": invitation.sender.get_username(),
        "created_at": json_time(invitation.created_at),
    }


def pending(user: Any) -> responses.RaceInvitations:
    """The invitations ``user`` may still take: their race waiting, not joined yet, not
    declined; the newest first (none for a visitor or a guest)."""
    if user is None or not user.is_authenticated or is_guest(user):
        return {"results": []}
    rows = (
        RaceInvitation.objects.filter(
            recipient_id=user.pk, race__state=Race.State.WAITING, declined_at__isnull=True
        )
        .exclude(race__players__player_id=user.pk)
        .select_related("race", "sender")
        .order_by("-created_at", "-pk")[:20]
    )
    return {"results": [invitation_view(row) for row in rows]}
