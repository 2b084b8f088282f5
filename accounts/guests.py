"""Guests: a visitor plays at once, without an account.

A guest is a real user (``GuestProfile`` marks it), named ``guest-<random>``, with no usable
password, signed into the browser's session on the first action that needs a player (a
browser's anonymous "New deal", ``POST /api/games/``: ``PlayerOrNewGuest``). Its games, moves
and histories are stored, validated and hidden like anyone's; nothing on the path of a move
knows guests exist, so they cost signed-in players nothing per request.

- Making one is limited per client address (``GuestQuota``: ``GUESTS_PER_ADDRESS_PER_HOUR``).
- Signing up from a guest session turns the guest into the account (``sign_up``): the same
  user, renamed, with a password; its games and statistics stay.
- Signing in from a guest session to an existing account moves the guest's games to it and
  removes the guest (``merge_into``; the games app moves what it owns on ``guest_merging``).
- What needs an account (a ranked daily attempt, the account's settings) refuses a guest with
  403 ``account_required`` (``AccountRequired``); a guest has no public profile and, having no
  ranked game, is on no leaderboard.
- A guest untouched (no game started or moved) for ``GUEST_TTL_DAYS`` is removed with its
  games by the worker's ``guests`` job (``remove_stale_guests``, ``run``).
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets
import threading
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import get_user_model, login
from django.db import IntegrityError, close_old_connections, connections, transaction
from django.db.models import Q, QuerySet
from django.dispatch import Signal
from django.utils import timezone
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import SAFE_METHODS, IsAuthenticated
from rest_framework.request import Request

from accounts import credentials, services
from accounts.models import GuestProfile
from accounts.throttling import GuestQuota, client_ip
from accounts.usernames import GUEST_PREFIX
from web.errors import ServiceError

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractUser

logger = logging.getLogger("patience.guests")

#: Every guest's username starts so; sign-up refuses names that do.
USERNAME_PREFIX = GUEST_PREFIX
_BACKEND = "django.contrib.auth.backends.ModelBackend"
_IS_GUEST = "_patience_is_guest"

ACCOUNT_REQUIRED_MESSAGE = (
    "You are playing as a guest: ranked daily attempts, the leaderboards, a public profile and "
    "account settings are for accounts. Create an account (your games come with you) or sign "
    "in."
)
NOT_A_GUEST_MESSAGE = (
    "This guest has become an account already (in another tab?): reload the page to go on."
)


def is_guest(user: Any) -> bool:
    """Whether ``user`` is a guest: one query, then remembered on the instance."""
    if user is None or not user.is_authenticated:
        return False
    known = user.__dict__.get(_IS_GUEST)
    if known is None:
        known = GuestProfile.objects.filter(user_id=user.pk).exists()
        user.__dict__[_IS_GUEST] = known
    return known


def account_required() -> Exception:
    """403 ``account_required``: what the request asks is for accounts, not guests."""
    from web.http.errors import ApiError  # not at the top: it imports DRF's views

    return ApiError("account_required", ACCOUNT_REQUIRED_MESSAGE, status_code=403)


# -- making a guest --------------------------------------------------------------------------


def create_guest(*, client_ip: str) -> AbstractUser:
    """A new guest, counted against its address's quota first (429 ``throttled`` past it)."""
    GuestQuota(client_ip=client_ip).reserve()
    user_model = get_user_model()
    for _ in range(5):
        username = f"{USERNAME_PREFIX}{secrets.token_hex(5)}"
        try:
            with transaction.atomic():
                user = user_model(username=username)
                user.set_unusable_password()
                user.save()
                GuestProfile.objects.create(user=user)
        except IntegrityError:  # 40 random bits taken already: draw again
            continue
        user.__dict__[_IS_GUEST] = True
        return user
    raise RuntimeError("no free guest name in five draws")


def sign_in_new_guest(request: Request) -> AbstractUser:
    """Make a guest and sign this browser's session in as it. The request is a browser's
    (a session, the CSRF token checked: no other site can make a visitor a guest)."""
    from accounts.authentication import SessionAuthentication

    SessionAuthentication().enforce_csrf(request)
    guest = create_guest(client_ip=client_ip(request))
    login(request, guest, backend=_BACKEND)
    request.user = guest
    return guest


class PlayerOrNewGuest(IsAuthenticated):
    """Signed in, or a browser's anonymous write (``POST``), which signs in a new guest first:
    the permission of the actions that start a visitor's play ("New deal").

    A browser is a client holding the CSRF cookie (every page sets it): a script without a
    token or a cookie is still told 401 ``not_authenticated``, not made a guest."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if super().has_permission(request, view):
            return True
        if request.method in SAFE_METHODS or request.auth is not None:
            return False
        if getattr(request._request, "session", None) is None:
            return False
        if settings.CSRF_COOKIE_NAME not in request.COOKIES:
            return False
        sign_in_new_guest(request)
        return True


class AccountRequired(IsAuthenticated):
    """Signed in with an account: a guest is refused with 403 ``account_required``."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if not super().has_permission(request, view):
            return False
        if is_guest(request.user):
            raise account_required()
        return True


class AccountRequiredToWrite(IsAuthenticated):
    """Signed in; a guest may read but not write (403 ``account_required``)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if not super().has_permission(request, view):
            return False
        if request.method not in SAFE_METHODS and is_guest(request.user):
            raise account_required()
        return True


# -- becoming an account ----------------------------------------------------------------------


def sign_up(
    *,
    guest: AbstractUser,
    username: str,
    password: str,
    email: str = "",
    site_url: str = "",
    current_session: str | None = None,
) -> AbstractUser:
    """The guest becomes the account: the same user, renamed, with a password, no longer a
    guest, so its games, histories and statistics are the account's. Checked and emailed as a
    new account's sign-up (``services.register_user``); ``current_session`` stays signed in
    (the caller re-signs it with ``update_session_auth_hash``)."""
    username, email = services.checked_new_account(
        username=username, password=password, email=email
    )
    user_model = get_user_model()
    try:
        with transaction.atomic():
            user = user_model.objects.select_for_update().filter(pk=guest.pk).first()
            if user is None or not GuestProfile.objects.filter(user_id=guest.pk).delete()[0]:
                raise ServiceError("not_a_guest", NOT_A_GUEST_MESSAGE)
            user.username = username
            user.set_password(password)
            user.date_joined = timezone.now()
            credentials.keep_session(user, current_session)
            user.save()
            if email:
                transaction.on_commit(
                    lambda: services.email_the_new_address(user, email, site_url), robust=True
                )
    except IntegrityError:
        # Another account took the name between the check and the save (case-insensitive
        # unique index, migration 0001).
        raise ValidationError({"username": [services.USERNAME_TAKEN_MESSAGE]}) from None
    user.__dict__[_IS_GUEST] = False
    return user


#: Sent by ``merge_into`` in its transaction, with ``guest`` and ``account``, before the guest
#: is removed: the games app moves the guest's games to the account (``games.signals``).
guest_merging = Signal()


def merge_into(*, guest: AbstractUser, account: AbstractUser) -> bool:
    """Signing in to ``account`` from ``guest``'s session: what the guest played becomes the
    account's, then the guest is removed; one transaction. False when ``guest`` is no longer
    a guest (merged or removed already): nothing to do."""
    if guest.pk == account.pk:
        return False
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=guest.pk).first()
        if not GuestProfile.objects.filter(user_id=guest.pk).exists():
            return False
        guest_merging.send(sender=merge_into, guest=guest, account=account)
        services.remove_users([guest])
    return True


# -- removing the guests nobody plays ----------------------------------------------------------

#: Guests removed per transaction, and the time between two sweeps of the worker's job.
BATCH = 200
SWEEP_S = 3600.0


def stale_guests(now: dt.datetime | None = None) -> QuerySet:
    """Guests made more than ``GUEST_TTL_DAYS`` ago with no game started or moved since."""
    cutoff = (now or timezone.now()) - dt.timedelta(days=settings.GUEST_TTL_DAYS)
    # The games by their relation's name: accounts imports nothing of the games app.
    recent = Q(games__created_at__gte=cutoff) | Q(games__last_move_at__gte=cutoff)
    return (
        get_user_model()
        .objects.filter(guest_profile__created_at__lt=cutoff)
        .exclude(pk__in=get_user_model().objects.filter(recent).values("pk"))
    )


def remove_stale_guests(now: dt.datetime | None = None, *, batch: int = BATCH) -> int:
    """Remove the stale guests with their games and sessions (``services.remove_users``), a
    batch per transaction, each guest checked again under its row lock; how many."""
    removed = 0
    while True:
        with transaction.atomic():
            ids = list(stale_guests(now).values_list("pk", flat=True)[:batch])
            users = list(
                stale_guests(now).filter(pk__in=ids).select_for_update(of=("self",)).order_by("pk")
            )
            if users:
                services.remove_users(users)
        removed += len(users)
        if len(ids) < batch:
            return removed


def sweep_once(now: dt.datetime | None = None) -> int:
    """One sweep, this thread's connections closed afterwards; errors are logged (the next
    sweep tries again), never raised into the worker's thread."""
    try:
        close_old_connections()
        removed = remove_stale_guests(now)
    except Exception:
        logger.exception("removing stale guests failed")
        return 0
    finally:
        connections.close_all()
    if removed:
        logger.info("removed %d guests untouched for %s days", removed, settings.GUEST_TTL_DAYS)
    return removed


def run(stop: threading.Event) -> None:
    """The worker's ``guests`` job: a sweep as it starts, then every ``SWEEP_S``."""
    while not stop.is_set():
        sweep_once()
        stop.wait(SWEEP_S)
