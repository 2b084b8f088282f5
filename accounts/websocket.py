"""Websocket sign-in for scripts: ``Authorization: Token <key>`` or ``?token=<key>``.

Browsers are signed in by their session cookie (Channels' AuthMiddlewareStack, which runs
first); this only fills in a user when the session gave none.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.middleware import BaseMiddleware

from accounts.authentication import token_owner


@database_sync_to_async
def _user_for(key: str) -> Any:
    found = token_owner(key)
    return found[0] if found and found[0].is_active else None


def _token_from(scope: dict[str, Any]) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            kind, _, key = value.decode("latin-1").partition(" ")
            if kind.lower() == "token" and key:
                return key.strip()
    keys = parse_qs(scope.get("query_string", b"").decode()).get("token")
    return keys[0] if keys else None


class TokenAuthMiddleware(BaseMiddleware):
    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        user = scope.get("user")
        if user is None or not user.is_authenticated:
            key = _token_from(scope)
            if key and (found := await _user_for(key)) is not None:
                # Kept, so the connection ends when the token is revoked (accounts.live).
                scope = dict(scope, user=found, auth_token=key)
        return await super().__call__(scope, receive, send)
