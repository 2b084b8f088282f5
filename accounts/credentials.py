"""A new password ends every sign-in made with the old one, however it was set.

Whatever changes a user's password hash — the API's password change, a password reset, the
admin's password form, ``manage.py changepassword``, ``set_password()`` and ``save()`` in a
shell or a script — the user's API token is revoked, their browser sessions end, the API keys
the server processes keep are forgotten (``accounts.token_cache``, through the token's and the
user's signals) and their live connections close (``accounts.live``). The receivers in
``accounts.signals`` call these two functions around every save of a user, so no path can
forget it. (A ``QuerySet.update`` of passwords sends no signal: nothing here uses one.)

One change of the hash is not a new password: Django rehashing the same password with a
stronger hasher when it checks it (``AbstractBaseUser.check_password``, at a sign-in after a
Django upgrade raised the iterations) ends nothing.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.hashers import get_hasher, identify_hasher
from django.db import transaction
from rest_framework.authtoken.models import Token

from accounts.live import SignOut, schedule_sign_out, sign_in_tag_of
from accounts.models import UserSession

_CHANGED = "_patience_password_changed"
_KEEP_SESSION = "_patience_keep_session"


def keep_session(user: Any, session_key: str | None) -> None:
    """The next save of ``user`` with a new password keeps this browser session (the one that
    changed the password: the caller re-signs it with ``update_session_auth_hash``)."""
    setattr(user, _KEEP_SESSION, session_key)


def before_save(user: Any, update_fields: Any) -> None:
    """``pre_save``: note whether this save stores a new password hash."""
    user.__dict__.pop(_CHANGED, None)
    if user._state.adding or user.pk is None:
        return
    if update_fields is not None and "password" not in update_fields:
        return
    if "password" in user.get_deferred_fields():
        return
    stored = type(user)._base_manager.filter(pk=user.pk).values_list("password", flat=True).first()
    if stored is None or stored == user.password or _is_rehash(user, stored, update_fields):
        return
    setattr(user, _CHANGED, True)


def _is_rehash(user: Any, stored: str, update_fields: Any) -> bool:
    """The same password hashed again by ``check_password``: it saves the password field
    alone, after forgetting the raw password (``_password``), and only when the stored hash's
    hasher is not the preferred one or is weaker than it now is."""
    if getattr(user, "_password", None) is not None or update_fields is None:
        return False
    if set(update_fields) != {"password"}:
        return False
    try:
        hasher = identify_hasher(stored)
    except ValueError:
        return False
    preferred = get_hasher("default")
    return hasher.algorithm != preferred.algorithm or preferred.must_update(stored)


def after_save(user: Any) -> None:
    """``post_save``: a new password hash revokes the token, ends the sessions (but the one
    ``keep_session`` named) and, after the commit, the live connections."""
    if not user.__dict__.pop(_CHANGED, False):
        user.__dict__.pop(_KEEP_SESSION, None)
        return
    keep = user.__dict__.pop(_KEEP_SESSION, None)
    with transaction.atomic():
        # Scripts holding the old token were given it for the old password.
        Token.objects.filter(user_id=user.pk).delete()
        kept = sign_in_tag_of(keep)
        UserSession.objects.filter(user_id=user.pk).exclude(session_key=keep or "").delete()
        schedule_sign_out(user.pk, SignOut(except_session=kept))
