"""Which pages may open the site's websockets: its own.

A websocket handshake carries the browser's cookies whatever page opens it, and browsers apply
no same-origin rule to websockets; the ``Origin`` header is what tells the site's own pages
from anyone else's. Channels' ``AllowedHostsOriginValidator`` compares only its host with
``ALLOWED_HOSTS``, so a page on another port or scheme of the same host (another service on
the machine, a plain-HTTP page) could read a signed-in player's game. Here, as Django's CSRF
check does for a form, the origin must be the scheme, host and port the connection itself
came to, or one of ``CSRF_TRUSTED_ORIGINS``.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import ParseResult, urlparse

from channels.security.websocket import OriginValidator, WebsocketDenier
from django.conf import settings

#: The scheme of the page that opens a websocket of each scheme.
PAGE_SCHEME = {"ws": "http", "wss": "https"}


class SameOriginValidator(OriginValidator):
    def __init__(self, application: Any) -> None:
        self.application = application

    @property
    def allowed_origins(self) -> list[str]:  # read when used, as Django reads it
        return settings.ALLOWED_HOSTS

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        origin, host = _header(scope, b"origin"), _header(scope, b"host")
        parsed = _parse(origin)
        if self.valid_origin(parsed) and self.same_site(scope, parsed, host):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)

    def same_site(
        self, scope: dict[str, Any], origin: ParseResult | None, host: str | None
    ) -> bool:
        if origin is None:
            return False
        if host is None:  # no browser leaves it out; the host check above is all there is
            return True
        trusted = settings.CSRF_TRUSTED_ORIGINS
        if any(self.match_allowed_origin(origin, pattern) for pattern in trusted):
            return True
        scheme = PAGE_SCHEME.get(scope.get("scheme", "ws"), "http")
        site = _parse(f"{scheme}://{host}")
        return (
            site is not None
            and origin.scheme == scheme
            and origin.hostname == site.hostname
            and self.get_origin_port(origin) == self.get_origin_port(site)
        )


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin-1")
    return None


def _parse(url: str | None) -> ParseResult | None:
    if url is None:
        return None
    try:
        parsed = urlparse(url.lower())
        parsed.port  # noqa: B018 (raises on a port that is not a number)
    except ValueError:
        return None
    return parsed
