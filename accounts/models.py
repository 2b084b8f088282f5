"""Account models."""

from __future__ import annotations

from django.conf import settings
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models


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
