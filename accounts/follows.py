"""Following players: an account follows another, with no approval asked (as lichess's follow),
to see them on its friends' boards. A follow is public information about nobody but the
follower, who alone sees their list; the followed player sees nothing of it, so it tells
nothing private either way.

Writes are one service function each, in one transaction, and after the commit tell the
follower's live connections (``accounts.live.account_group``) that the list changed, so an
open friends' board redraws with the new player at once. No HTTP here.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, TypedDict

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from accounts.guests import is_guest
from accounts.live import account_group
from accounts.models import Follow
from web.errors import ServiceError
from web.live.publish import publish

#: The message an account's connections hear when the players it follows change.
FOLLOWS_CHANGED = "account.follows_changed"


class Followed(TypedDict):
    username: str
    since: dt.datetime


def _account_named(username: str) -> AbstractBaseUser:
    """The active account of exactly this name, else ``not_found`` (a guest has no public
    name, so it is as unknown as a name nobody has)."""
    if "\x00" in username:  # PostgreSQL refuses NUL in a query: no username has one
        raise ServiceError("not_found", "There is no such player.")
    player = (
        get_user_model()
        .objects.filter(username=username, is_active=True, guest_profile__isnull=True)
        .first()
    )
    if player is None:
        raise ServiceError("not_found", "There is no such player.")
    return player


def _refuse_guest(user: Any) -> None:
    if is_guest(user):
        raise ServiceError(
            "account_required", "Following players is for accounts: sign up to follow them."
        )


def _schedule_follows_changed(user_id: int) -> None:
    transaction.on_commit(
        lambda: publish(account_group(user_id), {"type": FOLLOWS_CHANGED}), robust=True
    )


def follow(*, user: AbstractBaseUser, username: str) -> str:
    """``user`` follows the player ``username`` (already following: nothing changes). Returns
    the followed player's name as stored. Refused for a guest, oneself, an unknown player and
    past ``MAX_FOLLOWING`` players followed."""
    _refuse_guest(user)
    with transaction.atomic():
        player = _account_named(username)
        if player.pk == user.pk:
            raise ServiceError("cannot_follow_self", "You cannot follow yourself.")
        if Follow.objects.filter(follower=user, followed=player).exists():
            return player.get_username()
        if Follow.objects.filter(follower=user).count() >= settings.MAX_FOLLOWING:
            raise ServiceError(
                "too_many_follows",
                f"You follow {settings.MAX_FOLLOWING} players, the most one can: "
                "stop following someone first.",
            )
        try:
            with transaction.atomic():  # two requests at once: the second finds the first's row
                Follow.objects.create(follower=user, followed=player)
        except IntegrityError:
            return player.get_username()
        _schedule_follows_changed(user.pk)
    return player.get_username()


def unfollow(*, user: AbstractBaseUser, username: str) -> str:
    """``user`` stops following ``username`` (not following: nothing changes)."""
    _refuse_guest(user)
    with transaction.atomic():
        player = _account_named(username)
        deleted, _ = Follow.objects.filter(follower=user, followed=player).delete()
        if deleted:
            _schedule_follows_changed(user.pk)
    return player.get_username()


# -- reads ------------------------------------------------------------------------------------


def following(user: AbstractBaseUser) -> list[Followed]:
    """The active accounts ``user`` follows, by name."""
    rows = (
        Follow.objects.filter(follower=user, followed__is_active=True)
        .order_by("followed__username")
        .values_list("followed__username", "created_at")
    )
    return [{"username": name, "since": since} for name, since in rows]


def followed_ids(user_id: int) -> set[int]:
    """The ids of the players ``user_id`` follows: the friends' boards' filter."""
    return set(Follow.objects.filter(follower_id=user_id).values_list("followed_id", flat=True))
