"""The Content-Security-Policy every answer carries.

Pages take scripts, styles, fonts and images from this site only, talk only to it (HTTP and
its websockets), and may not be framed: a script injected into a page (a player's name, say)
would not run, and could not send what it read elsewhere. The pages, the admin and the API
docs have no inline script or style for this to break.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponseBase

POLICY = (
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
)


# Joined once: every answer (each move included) carries it.
_FIXED = "; ".join((*POLICY, "connect-src 'self'"))


def content_security_policy(request: HttpRequest) -> str:
    try:
        host = request.get_host()
    except DisallowedHost:
        return _FIXED
    # 'self' covers the site's websockets in current browsers; older ones need them named.
    return f"{_FIXED} ws://{host} wss://{host}" if host else _FIXED


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", content_security_policy(request))
        return response
