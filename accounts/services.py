"""Account actions. Each write runs in one transaction.

Session sign-in and sign-out stay in the views: they are HTTP concerns, and these functions are
also usable from scripts and other apps. Field-level rule violations raise DRF's ValidationError
(so the API answers 400 "invalid" with ``fields``); other refusals raise ``ServiceError``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model, password_validation
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.core.cache import cache
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.dispatch import Signal
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import ValidationError

from accounts import credentials, preferences
from accounts.live import SignOut, schedule_sign_out, sign_in_tag_of
from accounts.models import PlayerSettings, SpentConfirmationLink, UserSession
from accounts.selectors import (
    email_is_taken,
    reset_link_user,
    settings_of,
    username_is_taken,
)
from accounts.throttling import LoginGuard
from web.errors import ServiceError

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractUser

# The same for an unknown username and a wrong password, so it tells no one which accounts exist.
INVALID_CREDENTIALS_MESSAGE = "Unable to sign in with that username and password."
USERNAME_TAKEN_MESSAGE = (
    "That username is taken, or one differing only in capitals: choose another."
)
EMAIL_TAKEN_MESSAGE = "Another account already has this email address."
WRONG_OLD_PASSWORD_MESSAGE = "Your old password was entered incorrectly. Please enter it again."
RESET_REQUESTED_MESSAGE = (
    "If an account has this address, an email with a link to choose a new password is on its way."
)
WRONG_PASSWORD_MESSAGE = "Your password was entered incorrectly. Please enter it again."
STAFF_ACCOUNT_MESSAGE = (
    "A staff account cannot close itself: another administrator removes it in the admin."
)
OWN_ACCOUNT_MESSAGE = "Your own account is removed by another administrator."
INVALID_RESET_LINK_MESSAGE = (
    "This link to choose a new password is not valid: it is mistyped, has expired or was "
    "already used. Ask for a new one."
)


def register_user(
    *, username: str, password: str, email: str = "", site_url: str = ""
) -> AbstractUser:
    """Create an account; usernames are unique regardless of letter case.

    An email address is never set at sign-up: the answer would then tell whoever signs up
    whether another account has it. Each address given is emailed instead, after the commit:
    a link to confirm it (``confirm_email``) when no account has it, a note to its owner when
    one does. Both sign-ups answer alike.
    """
    user_model = get_user_model()
    username, email = checked_new_account(username=username, password=password, email=email)
    try:
        with transaction.atomic():
            user = user_model.objects.create_user(username=username, password=password)
            if email:
                transaction.on_commit(
                    lambda: email_the_new_address(user, email, site_url), robust=True
                )
    except IntegrityError:
        # A concurrent registration took the name between the check and the insert: the
        # case-insensitive unique index (migration 0001) catches "Ada" against "ada".
        raise ValidationError({"username": [USERNAME_TAKEN_MESSAGE]}) from None
    return user


def checked_new_account(*, username: str, password: str, email: str) -> tuple[str, str]:
    """A new account's username and email address, normalized, once the name is free and the
    password passes the rules (400 ``invalid`` naming every field to fix otherwise): for a
    sign-up and for a guest becoming an account (``accounts.guests.sign_up``) alike."""
    user_model = get_user_model()
    username = user_model.normalize_username(username)
    email = user_model.objects.normalize_email(email.strip())
    errors: dict[str, list[str]] = {}
    if username_is_taken(username):
        errors["username"] = [USERNAME_TAKEN_MESSAGE]
    if problems := new_password_problems(password, username=username, email=email):
        errors["password"] = problems
    if errors:
        raise ValidationError(errors)
    return username, email


EMAIL_TO_CONFIRM_MESSAGE = (
    "Check your inbox: we sent a link to confirm the address. Until it is followed, password "
    "reset links are not sent there."
)
INVALID_CONFIRMATION_LINK_MESSAGE = (
    "This link to confirm an email address is not valid: it is mistyped, has expired or was "
    "already used."
)
_CONFIRM_SALT = "accounts.email-confirmation"


def email_the_new_address(user: AbstractUser, email: str, site_url: str) -> None:
    """The link to confirm ``email`` for the new ``user``, or, when an account has the address
    already, a note to that account's owner (never the link: the address stays theirs)."""
    if not _address_email_allowed("sign-up", email):
        return
    site = site_url.rstrip("/")
    owner = (
        get_user_model().objects.filter(email__iexact=email, is_active=True).order_by("pk").first()
    )
    if owner is not None:
        body = render_to_string(
            "accounts/email_taken_email.txt",
            {"username": owner.get_username(), "forgot_link": f"{site}/password/forgot/"},
        )
        send_mail("Someone tried to sign up to Patience with your address", body, None, [email])
        return
    if email_is_taken(email):  # an inactive account's: it keeps it, and is told nothing
        return
    token = confirmation_token(user, email)
    body = render_to_string(
        "accounts/email_confirm_email.txt",
        {
            "username": user.get_username(),
            "link": f"{site}/email/confirm/{token}/",
            "valid_for": f"{settings.PASSWORD_RESET_TIMEOUT // 3600} hours",
        },
    )
    send_mail("Confirm your Patience email address", body, None, [email])


def confirmation_token(user: AbstractUser, email: str) -> str:
    """The signed token of the link that sets ``email`` on ``user``: bound to the account's
    password and address as they are now (``_account_state``)."""
    claim = {"u": user.pk, "e": email, "s": _account_state(user, email)}
    return signing.dumps(claim, salt=_CONFIRM_SALT, compress=True)


def _account_state(user: AbstractUser, email: str) -> str:
    """A digest of what a confirmation link needs unchanged (as Django's password reset tokens
    do): the password's hash, so a new password ends every link sent before it, and the
    account's current address (none) with the one to confirm."""
    value = f"{user.pk}\x00{user.password}\x00{user.email}\x00{email}"
    return salted_hmac(_CONFIRM_SALT, value, algorithm="sha256").hexdigest()[::2]


def confirm_email(*, token: str) -> AbstractUser:
    """Set the address a sign-up's emailed link confirms. The link works once, within
    ``PASSWORD_RESET_TIMEOUT``, while the account has no address and the password it was
    sent with: its digest is kept as spent, so removing the address later does not make the
    link work again."""
    try:
        claim = signing.loads(token, salt=_CONFIRM_SALT, max_age=settings.PASSWORD_RESET_TIMEOUT)
        user_id, email, state = int(claim["u"]), str(claim["e"]), str(claim["s"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise ServiceError("invalid_confirmation_link", INVALID_CONFIRMATION_LINK_MESSAGE) from None
    with transaction.atomic():
        user = (
            get_user_model()
            .objects.select_for_update()
            .filter(pk=user_id, is_active=True, email="")
            .first()
        )
        if user is None or not constant_time_compare(state, _account_state(user, email)):
            raise ServiceError("invalid_confirmation_link", INVALID_CONFIRMATION_LINK_MESSAGE)
        if email_is_taken(email, except_user_id=user.pk):
            raise ValidationError({"email": [EMAIL_TAKEN_MESSAGE]})
        _spend_confirmation_link(token)
        user.email = email
        try:
            with transaction.atomic():
                user.save(update_fields=["email"])
        except IntegrityError:
            raise ValidationError({"email": [EMAIL_TAKEN_MESSAGE]}) from None
    return user


def _spend_confirmation_link(token: str) -> None:
    """Mark the link spent (refused if it already is), and forget links too old to work."""
    oldest = timezone.now() - dt.timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT)
    SpentConfirmationLink.objects.filter(spent_at__lt=oldest).delete()
    digest = hashlib.sha256(token.encode()).hexdigest()
    try:
        with transaction.atomic():
            SpentConfirmationLink.objects.create(digest=digest)
    except IntegrityError:
        raise ServiceError("invalid_confirmation_link", INVALID_CONFIRMATION_LINK_MESSAGE) from None


def new_password_problems(password: str, *, username: str, email: str = "") -> list[str]:
    """What Django's password validators say against a new account's password (none: fine)."""
    user_model = get_user_model()
    # An unsaved instance, so UserAttributeSimilarityValidator can compare the password with
    # the username and email.
    candidate = user_model(username=user_model.normalize_username(username), email=email)
    try:
        password_validation.validate_password(password, candidate)
    except DjangoValidationError as exc:
        return list(exc.messages)
    return []


def authenticate_credentials(*, username: str, password: str, client_ip: str) -> AbstractUser:
    """The active user with these credentials; failures count toward the sign-in throttle.

    Raises LoginThrottled (429) once the username or the IP has failed too often, and ServiceError
    "invalid_credentials" (400) for a wrong username or password.
    """
    guard = LoginGuard(username=username, client_ip=client_ip)
    guard.reserve()
    # Django's ModelBackend hashes the password even for an unknown username, so the answer's
    # timing doesn't reveal which usernames exist either.
    user = authenticate(None, username=username, password=password)
    if user is None:
        raise ServiceError("invalid_credentials", INVALID_CREDENTIALS_MESSAGE)
    guard.succeeded()
    return user


def change_password(
    *,
    user: AbstractUser,
    old_password: str,
    new_password: str,
    client_ip: str,
    current_session: str | None = None,
) -> None:
    """Set a new password after checking the old one, and revoke the user's API token.

    Wrong old passwords count toward the sign-in throttle: a stolen session mustn't become a way
    to guess the password. Other sessions end by themselves (Django checks each session's
    password hash), and so do their live connections; the caller keeps the current session
    (key ``current_session``) with ``update_session_auth_hash``.
    """
    guard = LoginGuard(username=user.get_username(), client_ip=client_ip)
    guard.reserve()
    if not user.check_password(old_password):
        raise ValidationError({"old_password": [WRONG_OLD_PASSWORD_MESSAGE]})
    guard.succeeded()
    _refuse_the_same_password(old_password, new_password)
    _set_password(user, new_password, keep_session=current_session)


SAME_PASSWORD_MESSAGE = "The new password must differ from the current one."


def _refuse_the_same_password(old_password: str, new_password: str) -> None:
    """400 ``same_password`` (with the field, for the form): a "change" to the password the
    account has would still end every other session and revoke the API token."""
    if new_password == old_password:
        fields = {"new_password": [SAME_PASSWORD_MESSAGE]}
        raise ServiceError("same_password", SAME_PASSWORD_MESSAGE, fields=fields)


def delete_account(*, user: AbstractUser, password: str, client_ip: str) -> None:
    """A player closes their account for good (``_remove_accounts``).

    The password is asked again, so a session left open on a shared computer cannot close the
    account; wrong passwords count toward the sign-in throttle, as for a password change.
    Staff are refused: a last administrator could otherwise lock everyone out of the admin.
    """
    guard = LoginGuard(username=user.get_username(), client_ip=client_ip)
    guard.reserve()
    if not user.check_password(password):
        raise ValidationError({"password": [WRONG_PASSWORD_MESSAGE]})
    guard.succeeded()
    if user.is_staff or user.is_superuser:
        raise ServiceError("staff_account", STAFF_ACCOUNT_MESSAGE)
    _remove_accounts([user])


def remove_accounts(*, actor: AbstractUser, users: Iterable[AbstractUser]) -> int:
    """Staff remove accounts (the admin's delete, of one or of several): the same work as a
    player closing their own, without their password, all in one transaction; staff accounts
    included, but never the actor's own (another administrator removes it). How many."""
    users = list(users)
    if any(user.pk == actor.pk for user in users):
        raise ServiceError("own_account", OWN_ACCOUNT_MESSAGE)
    with transaction.atomic():
        # Before the deletion, while the accounts and what goes with them can still be read;
        # a receiver that fails leaves every account in place.
        removed_by_staff.send(sender=remove_accounts, actor=actor, users=users)
        _remove_accounts(users)
    return len(users)


#: Sent by ``remove_accounts`` in its transaction, just before the accounts go, with ``actor``
#: (the staff member) and ``users``: the games app writes each removal to the staff audit log
#: (``games.signals``), so this app needs nothing of that one. A player closing their own
#: account (``delete_account``) is not a staff action, and sends nothing.
removed_by_staff = Signal()

#: Sent by ``_remove_accounts`` in its transaction, before anything is deleted, with ``users``:
#: the games app locks their games there (``games.signals``).
removing_accounts = Signal()


def remove_users(users: list[AbstractUser]) -> None:
    """``_remove_accounts`` for the other modules of this app (guests removed or merged)."""
    _remove_accounts(users)


def _remove_accounts(users: list[AbstractUser]) -> None:
    """Delete the users, their games and histories, sessions and API tokens, in one
    transaction. After the commit their ranked attempts' daily leaderboards are pushed to
    their watchers (``games.signals``) and their live connections end (``accounts.signals``):
    the receivers of the deletion, so a user deleted any other way is covered too."""
    with transaction.atomic():
        # First, before Django collects what goes with the users: their games are locked there,
        # so a move played at this moment either lands before and goes with its game, or
        # finds no game; never a move row left pointing at a deleted game (a 500).
        removing_accounts.send(sender=_remove_accounts, users=users)
        for user in users:
            user.delete()


def change_email(*, user: AbstractUser, email: str, password: str, client_ip: str) -> AbstractUser:
    """Set (or, blank, remove) the address that password reset links are sent to; one that
    another account has is refused (the player's own, in any letter case, is fine).

    The password is asked again: the address is where a password reset goes, so whoever
    holds only a session or a token (stolen, or left open) must not be able to redirect it
    and take the account. Wrong passwords count toward the sign-in throttle.
    """
    guard = LoginGuard(username=user.get_username(), client_ip=client_ip)
    guard.reserve()
    if not user.check_password(password):
        fields = {"password": [WRONG_PASSWORD_MESSAGE]}
        raise ServiceError("wrong_password", WRONG_PASSWORD_MESSAGE, fields=fields)
    guard.succeeded()
    email = get_user_model().objects.normalize_email(email.strip())
    if email_is_taken(email, except_user_id=user.pk):
        raise ValidationError({"email": [EMAIL_TAKEN_MESSAGE]})
    previous, user.email = user.email, email
    try:
        with transaction.atomic():
            user.save(update_fields=["email"])
    except IntegrityError:
        # Another account took it between the check and the save (migration 0003's index).
        user.email = previous
        raise ValidationError({"email": [EMAIL_TAKEN_MESSAGE]}) from None
    return user


def request_password_reset(*, email: str, site_url: str) -> None:
    """Email every active account with this address a link to choose a new password.

    The caller answers the same whether or not any account has the address, so the answer
    tells no one which addresses are registered. An address gets at most
    ``PASSWORD_RESET_EMAIL_LIMIT`` emails per window, so the form cannot flood an inbox.
    """
    user_model = get_user_model()
    email = user_model.objects.normalize_email(email)
    if not _reset_email_allowed(email):
        return
    users = user_model.objects.filter(email__iexact=email, is_active=True)
    valid_for = f"{settings.PASSWORD_RESET_TIMEOUT // 3600} hours"
    for user in users:
        if not user.has_usable_password():
            continue
        uid = urlsafe_base64_encode(force_bytes(user.pk))
        token = default_token_generator.make_token(user)
        body = render_to_string(
            "accounts/password_reset_email.txt",
            {
                "username": user.get_username(),
                "link": f"{site_url.rstrip('/')}/password/reset/{uid}/{token}/",
                "valid_for": valid_for,
            },
        )
        send_mail("Choose a new Patience password", body, None, [user.email])


def reset_password(*, uid: str, token: str, new_password: str) -> AbstractUser:
    """Set the password of the account an emailed link names. The link works once: the new
    password changes what its token was made from. Revokes the API token; every session ends."""
    user = reset_link_user(uid, token)
    if user is None:
        raise ServiceError("invalid_reset_link", INVALID_RESET_LINK_MESSAGE)
    _set_password(user, new_password)
    return user


def _set_password(user: AbstractUser, new_password: str, keep_session: str | None = None) -> None:
    try:
        password_validation.validate_password(new_password, user)
    except DjangoValidationError as exc:
        raise ValidationError({"new_password": list(exc.messages)}) from None
    with transaction.atomic():
        user.set_password(new_password)
        # Saving a new password revokes the token and ends the other sign-ins, whatever path
        # set it (``accounts.credentials``).
        credentials.keep_session(user, keep_session)
        user.save(update_fields=["password"])


def _reset_email_allowed(email: str) -> bool:
    return _address_email_allowed("reset", email)


def _address_email_allowed(kind: str, email: str) -> bool:
    """At most ``PASSWORD_RESET_EMAIL_LIMIT`` emails of a kind to an address per window: no
    form can be used to flood an inbox."""
    digest = hashlib.sha256(email.lower().encode()).hexdigest()
    key = (
        "accounts:reset-emails:" + digest if kind == "reset" else f"accounts:{kind}-emails:{digest}"
    )
    cache.add(key, 0, timeout=settings.PASSWORD_RESET_EMAIL_WINDOW)
    try:
        sent = cache.incr(key)
    except ValueError:  # the window closed between add and incr
        sent = 1
        cache.set(key, sent, timeout=settings.PASSWORD_RESET_EMAIL_WINDOW)
    return sent <= settings.PASSWORD_RESET_EMAIL_LIMIT


def issue_token(*, user: AbstractUser) -> Token:
    """The user's API token, created on first request."""
    with transaction.atomic():
        token, _ = Token.objects.get_or_create(user=user)
    return token


def revoke_token(*, user: AbstractUser) -> None:
    """Delete the user's API token, if any, and end the connections opened with it; a new one
    can be issued afterwards."""
    with transaction.atomic():
        Token.objects.filter(user=user).delete()
        schedule_sign_out(user.pk, SignOut(sessions=False))


def sign_out_other_sessions(*, user: AbstractUser, current_session: str | None) -> int:
    """End every browser session of the account but ``current_session`` (all of them for a
    script), with their live connections: "Sign out of other devices". The API token stays
    (``revoke_token`` ends it). The number of sessions that were still signed in."""
    with transaction.atomic():
        others = UserSession.objects.filter(user=user).exclude(session_key=current_session or "")
        ended = others.filter(expire_date__gt=timezone.now()).count()
        others.delete()
        schedule_sign_out(
            user.pk, SignOut(tokens=False, except_session=sign_in_tag_of(current_session))
        )
    return ended


def save_settings(*, user: AbstractUser, changes: dict[str, Any]) -> dict[str, Any]:
    """Save some of the account's settings (``accounts.preferences``: ``changes`` maps a
    setting's name to its new value), the others kept, and answer them all as
    ``settings_of`` does. Every name and value is checked before anything is written: a name
    that is no setting is refused with ``unknown_field``, a value that is not one of its
    setting's choices with ``invalid`` (each with ``fields``), and nothing changes. The first
    save creates the account's row, from the defaults."""
    unknown = [str(name) for name in changes if name not in preferences.NAMES]
    if unknown:
        names = ", ".join(f'"{name}"' for name in unknown)
        takes = ", ".join(f'"{name}"' for name in preferences.NAMES)
        raise ServiceError(
            "unknown_field",
            f"{names}: no such setting; the settings are {takes}. Nothing was changed.",
            fields={name: ["No such setting."] for name in unknown},
        )
    refused = {
        name: [why] for name, value in changes.items() if (why := preferences.refusal(name, value))
    }
    if refused:
        raise ServiceError(
            "invalid",
            "A setting's value is not one of its choices. Nothing was changed.",
            fields=refused,
        )
    with transaction.atomic():
        row, _ = PlayerSettings.objects.select_for_update().get_or_create(user_id=user.pk)
        for name, value in changes.items():
            setattr(row, name, value)
        row.save()
    return settings_of(user)
