"""Websocket sign-in for scripts: ``Authorization: Token <key>``.

Browsers are signed in by their session cookie (Channels' AuthMiddlewareStack, which runs
first); this only fills in a user when the session gave none.

A key is never taken from the URL: URLs are written to access logs (the proxy's, the
server's), so ``?token=<key>`` there handed the key to whoever reads them. A connection whose
URL carries a ``token`` is refused at the handshake (close code 4400, HTTP 403), so a script
still sending it learns at once instead of silently watching as nobody.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.middleware import BaseMiddleware

from accounts.authentication import token_owner

#: The close code of a connection refused for a token in its URL.
TOKEN_IN_URL_CLOSE_CODE = 4400


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
    return None


def _token_in_url(scope: dict[str, Any]) -> bool:
    query = scope.get("query_string", b"").decode("latin-1")
    return "token" in parse_qs(query, keep_blank_values=True)


class TokenAuthMiddleware(BaseMiddleware):
    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope.get("type") == "websocket" and _token_in_url(scope):
            message = await receive()
            if message.get("type") == "websocket.connect":
                await send({"type": "websocket.close", "code": TOKEN_IN_URL_CLOSE_CODE})
            return None
        user = scope.get("user")
        if user is None or not user.is_authenticated:
            key = _token_from(scope)
            if key and (found := await _user_for(key)) is not None:
                # Kept, so the connection ends when the token is revoked (accounts.live).
                scope = dict(scope, user=found, auth_token=key)
        return await super().__call__(scope, receive, send)
