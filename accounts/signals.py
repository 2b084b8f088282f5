"""Live connections end with the sign-in they were opened with (``accounts.live``).

Signing out, removing a user and setting a new password can happen outside this app's services
(Django's ``logout``, the admin, ``manage.py changepassword``), so those are caught here
(``accounts.credentials`` for a new password); token revocations schedule it in
``accounts.services``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.db.models.signals import post_delete, post_save, pre_delete, pre_save
from django.dispatch import receiver
from rest_framework.authtoken.models import Token

from accounts import credentials, token_cache
from accounts.live import SignOut, schedule_sign_out, sign_in_tag, start_sign_in


@receiver(user_logged_in, dispatch_uid="accounts.signed_in")
def signed_in(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    session = getattr(request, "session", None)
    if session is not None:
        start_sign_in(session)


@receiver(user_logged_out, dispatch_uid="accounts.signed_out")
def signed_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    # Sent before the session is flushed: it still names the sign-in the connections carry.
    tag = sign_in_tag(getattr(request, "session", None))
    if user is not None and user.pk is not None and tag is not None:
        schedule_sign_out(user.pk, SignOut(tokens=False, only_session=tag))


@receiver(pre_delete, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts.user_removed")
def user_removed(sender: Any, instance: Any, **kwargs: Any) -> None:
    schedule_sign_out(instance.pk, SignOut())


@receiver(pre_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts.password_saving")
def password_saving(sender: Any, instance: Any, update_fields: Any, **kwargs: Any) -> None:
    credentials.before_save(instance, update_fields)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts.password_saved")
def password_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    credentials.after_save(instance)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts.user_saved")
def user_saved(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    # A deactivated account (staff, in the admin) may no longer sign in anywhere.
    if not created and not instance.is_active:
        schedule_sign_out(instance.pk, SignOut())


# API keys kept by the server processes (accounts.token_cache) are forgotten when anything of
# their user or token changes, however it changed (a service, the admin, a shell).


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts.keys_user_saved")
def keys_user_saved(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    if not created:
        token_cache.user_changed(instance.pk)


@receiver(post_delete, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts.keys_user_gone")
def keys_user_gone(sender: Any, instance: Any, **kwargs: Any) -> None:
    token_cache.user_changed(instance.pk)


@receiver(post_delete, sender=Token, dispatch_uid="accounts.keys_token_gone")
def keys_token_gone(sender: Any, instance: Any, **kwargs: Any) -> None:
    token_cache.user_changed(instance.user_id)
