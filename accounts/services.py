"""Account actions. Each write runs in one transaction.

Session sign-in and sign-out stay in the views: they are HTTP concerns, and these functions are
also usable from scripts and other apps. Field-level rule violations raise DRF's ValidationError
(so the API answers 400 "invalid" with ``fields``); other domain errors raise ``ApiError``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import authenticate, get_user_model, password_validation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import ValidationError

from accounts.selectors import username_is_taken
from accounts.throttling import LoginGuard
from config.api import ApiError

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractUser

# The same for an unknown username and a wrong password, so it tells no one which accounts exist.
INVALID_CREDENTIALS_MESSAGE = "Unable to sign in with that username and password."
USERNAME_TAKEN_MESSAGE = "A user with that username already exists."
WRONG_OLD_PASSWORD_MESSAGE = "Your old password was entered incorrectly. Please enter it again."


def register_user(*, username: str, password: str, email: str = "") -> AbstractUser:
    """Create an account; usernames are unique regardless of letter case."""
    user_model = get_user_model()
    username = user_model.normalize_username(username)
    email = user_model.objects.normalize_email(email)
    errors: dict[str, list[str]] = {}
    if username_is_taken(username):
        errors["username"] = [USERNAME_TAKEN_MESSAGE]
    try:
        # An unsaved instance, so UserAttributeSimilarityValidator can compare the password
        # with the username and email.
        password_validation.validate_password(password, user_model(username=username, email=email))
    except DjangoValidationError as exc:
        errors["password"] = list(exc.messages)
    if errors:
        raise ValidationError(errors)
    try:
        with transaction.atomic():
            return user_model.objects.create_user(username=username, email=email, password=password)
    except IntegrityError:
        # A concurrent registration took the name between the check and the insert (the
        # case-insensitive unique index, migration 0001, is what catches "Ada" against "ada").
        raise ValidationError({"username": [USERNAME_TAKEN_MESSAGE]}) from None


def authenticate_credentials(*, username: str, password: str, client_ip: str) -> AbstractUser:
    """The active user with these credentials; failures count toward the sign-in throttle.

    Raises LoginThrottled (429) once the username or the IP has failed too often, and ApiError
    "invalid_credentials" (400) for a wrong username or password.
    """
    guard = LoginGuard(username=username, client_ip=client_ip)
    guard.reserve()
    # Django's ModelBackend hashes the password even for an unknown username, so the answer's
    # timing doesn't reveal which usernames exist either.
    user = authenticate(None, username=username, password=password)
    if user is None:
        raise ApiError("invalid_credentials", INVALID_CREDENTIALS_MESSAGE)
    guard.succeeded()
    return user


def change_password(
    *, user: AbstractUser, old_password: str, new_password: str, client_ip: str
) -> None:
    """Set a new password after checking the old one, and revoke the user's API token.

    Wrong old passwords count toward the sign-in throttle: a stolen session mustn't become a way
    to guess the password. Other sessions end by themselves (Django checks each session's
    password hash); the caller keeps the current one with ``update_session_auth_hash``.
    """
    guard = LoginGuard(username=user.get_username(), client_ip=client_ip)
    guard.reserve()
    if not user.check_password(old_password):
        raise ValidationError({"old_password": [WRONG_OLD_PASSWORD_MESSAGE]})
    guard.succeeded()
    try:
        password_validation.validate_password(new_password, user)
    except DjangoValidationError as exc:
        raise ValidationError({"new_password": list(exc.messages)}) from None
    with transaction.atomic():
        user.set_password(new_password)
        user.save(update_fields=["password"])
        # Scripts holding the old token were given it for the old password.
        Token.objects.filter(user=user).delete()


def issue_token(*, user: AbstractUser) -> Token:
    """The user's API token, created on first request."""
    with transaction.atomic():
        token, _ = Token.objects.get_or_create(user=user)
    return token


def revoke_token(*, user: AbstractUser) -> None:
    """Delete the user's API token, if any; a new one can be issued afterwards."""
    with transaction.atomic():
        Token.objects.filter(user=user).delete()
