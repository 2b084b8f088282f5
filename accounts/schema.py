"""The OpenAPI schema's words for this app's authentication classes (loaded by ``AccountsConfig``;
not from ``accounts.authentication``, which DRF's settings import while drf-spectacular's
module imports them)."""

from __future__ import annotations

from drf_spectacular.authentication import SessionScheme


class PageSessionScheme(SessionScheme):
    """The cookie sign-in, for ``accounts.authentication.SessionAuthentication``."""

    target_class = "accounts.authentication.SessionAuthentication"
