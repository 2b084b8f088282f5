"""Account models."""

from __future__ import annotations

from django.conf import settings
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models
from django.utils import timezone


class UserSession(AbstractBaseSession):
    """A browser session (Django's, stored as Django's database sessions store them) with the
    account it signs in, so that a player can end every session but the current one
    ("Sign out of other devices") without scanning everyone's sessions."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="browser_sessions",
    )

    @classmethod
    def get_session_store_class(cls) -> type:
        from accounts.sessions import SessionStore

        return SessionStore


class GuestProfile(models.Model):
    """Marks a user as a guest (``accounts.guests``): a player made for a visitor's browser
    session on its first game, with no password, who may become an account (signing up keeps
    the row's user, signing in moves its games) and is removed once untouched for
    ``GUEST_TTL_DAYS``."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="guest_profile",
    )
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    def __str__(self) -> str:
        return f"Guest {self.user_id}"
