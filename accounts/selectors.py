"""Read-only queries about accounts."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.utils.crypto import constant_time_compare
from django.utils.http import urlsafe_base64_decode

from accounts.authentication import token_owner
from accounts.models import PlayerSettings
from accounts.preferences import DEFAULTS, NAMES

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractUser

#: The longest uid and token of a reset link the API reads (accounts.serializers).
MAX_RESET_UID_LENGTH = 64
MAX_RESET_TOKEN_LENGTH = 128


def username_is_taken(username: str) -> bool:
    """Whether an account has this username in any letter case ("Ada" takes "ada")."""
    return get_user_model().objects.filter(username__iexact=username).exists()


def email_is_taken(email: str, *, except_user_id: int | None = None) -> bool:
    """Whether another account has this email address, in any letter case and ignoring
    surrounding spaces ("Ada@Example.org " takes "ada@example.org"). A blank address is
    never taken: any number of accounts may have none."""
    email = email.strip()
    if not email:
        return False
    accounts = get_user_model().objects.filter(email__iexact=email)
    if except_user_id is not None:
        accounts = accounts.exclude(pk=except_user_id)
    return accounts.exists()


def reset_link_user(uid: str, token: str) -> AbstractUser | None:
    """The active account an emailed reset link is for, while the link holds: made for the
    account's password and last sign-in as they are now (so it works once), within
    PASSWORD_RESET_TIMEOUT. None for a used, expired, mistyped or made-up link alike. Reading
    it uses nothing up."""
    if len(uid) > MAX_RESET_UID_LENGTH or len(token) > MAX_RESET_TOKEN_LENGTH:
        return None
    try:
        pk = int(urlsafe_base64_decode(uid).decode())
    except (ValueError, UnicodeDecodeError):
        return None
    user = get_user_model().objects.filter(pk=pk, is_active=True).first()
    if user is None or not default_token_generator.check_token(user, token):
        return None
    return user


def still_signed_in(user_id: int, *, token_key: str | None, session_key: str | None) -> bool:
    """Whether the sign-in a connection was opened with still holds, read afresh: the token
    still exists and belongs to the active user, or the session still exists and still signs
    in that active user (not flushed, not outdated by a new password). Read only: unlike
    ``django.contrib.auth.get_user`` this never flushes or renews the session."""
    if token_key is not None:
        # Not the process's kept keys: this check follows the message of a sign-out, which
        # may arrive before the token cache hears of the same change.
        found = token_owner(token_key, fresh=True)
        return found is not None and found[0].pk == user_id and found[0].is_active
    if not session_key:
        return False
    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    signed_hash = session.get(HASH_SESSION_KEY)
    if user is None or not signed_hash or session.get(SESSION_KEY) != str(user.pk):
        return False
    hashes = [user.get_session_auth_hash(), *user.get_session_auth_fallback_hash()]
    return any(constant_time_compare(signed_hash, known) for known in hashes)


def settings_of(user: AbstractUser) -> dict[str, Any]:
    """The account's settings (``accounts.preferences``), the defaults for those never saved,
    and ``saved``: whether the account has saved any (a page then adopts the ones its browser
    kept locally, as a guest's, rather than show the defaults), and ``saved_at``: when they
    were last saved (ISO 8601, null when never), so that a page served just before a save
    reached the account can tell its settings older than the save's answer its browser kept."""
    row = PlayerSettings.objects.filter(user_id=user.pk).first()
    if row is None:
        return {**DEFAULTS, "saved": False, "saved_at": None}
    settings = {name: getattr(row, name) for name in NAMES}
    return {**settings, "saved": True, "saved_at": row.updated_at.isoformat()}
