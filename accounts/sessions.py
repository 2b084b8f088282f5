"""The session engine (``SESSION_ENGINE``): Django's database sessions, each row also noting
the account it signs in (``accounts.models.UserSession``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore


class SessionStore(DatabaseSessionStore):
    @classmethod
    def get_model_class(cls) -> type:
        from accounts.models import UserSession  # the apps are loaded by the time it is used

        return UserSession

    def create_model_instance(self, data: dict[str, Any]) -> Any:
        session = super().create_model_instance(data)
        user_id = data.get(SESSION_KEY)
        try:
            session.user_id = int(user_id) if user_id is not None else None
        except (TypeError, ValueError):
            session.user_id = None
        return session
