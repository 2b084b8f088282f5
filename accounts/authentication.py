"""How API requests sign in: API tokens (``Authorization: Token <key>``, through the process's
``token_cache``) and the browser's session, with the check that a page writes as the account it
was opened as.
"""

from __future__ import annotations

from functools import cache
from typing import Any
from urllib.parse import unquote

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request

from accounts import token_cache

_KEY_LENGTH = Token._meta.get_field("key").max_length


@cache
def _user_attnames() -> tuple[str, ...]:
    """The user model's concrete fields, in order: what the token cache keeps of a user."""
    return tuple(field.attname for field in get_user_model()._meta.concrete_fields)


def token_owner(key: str, *, fresh: bool = False) -> tuple[Any, Token] | None:
    """The user and token for an API key, whether or not the user is active; None if unknown.
    Read from the process's ``token_cache`` when it has the key, unless ``fresh``: from the
    database, as a check that must not trail a revocation by even a moment does."""
    if not key or len(key) > _KEY_LENGTH or "\x00" in key:
        return None  # never a key; PostgreSQL would refuse the NUL outright
    attnames = _user_attnames()
    kept = None if fresh else token_cache.cache.row(key)
    if kept is None:
        generation = token_cache.cache.generation
        token = Token.objects.select_related("user").filter(key=key).first()
        if token is None:
            return None
        user = token.user
        token_cache.cache.keep(key, user.pk, [getattr(user, name) for name in attnames], generation)
    else:
        # Each request gets an instance of its own, as if read from the database.
        user = get_user_model().from_db(DEFAULT_DB_ALIAS, attnames, kept)
    # The token's creation time is left deferred: nothing reads it when signing in.
    token = Token.from_db(DEFAULT_DB_ALIAS, ["key", "user_id"], [key, user.pk])
    token.user = user
    return user, token


INVALID_TOKEN_MESSAGE = (
    "That API token is not valid: mistyped, or revoked (a new password revokes it too). "
    "Get a new one from POST /api/auth/token/."
)
INACTIVE_TOKEN_MESSAGE = "The account of that API token is deactivated: it cannot sign in."
TOKEN_HEADER_MESSAGE = (
    "Send the API token as the header Authorization: Token <key>, the key alone after "
    '"Token " (get one from POST /api/auth/token/).'
)


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication (same 401s, in the site's words) over ``token_owner``."""

    def authenticate(self, request: Request) -> tuple[Any, Token] | None:
        try:
            return super().authenticate(request)
        except exceptions.AuthenticationFailed as refused:
            # DRF's "Invalid token header. No credentials provided." and the like.
            if str(refused.detail).startswith("Invalid token header."):
                raise exceptions.AuthenticationFailed(TOKEN_HEADER_MESSAGE) from None
            raise

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        found = token_owner(key)
        if found is None:
            raise exceptions.AuthenticationFailed(INVALID_TOKEN_MESSAGE)
        if not found[0].is_active:
            raise exceptions.AuthenticationFailed(INACTIVE_TOKEN_MESSAGE)
        return found


#: The account the site's page making a request was opened as: its ``<html data-user>``,
#: percent-encoded (empty: the page was opened signed out). ``api.js`` sends it with every
#: unsafe request.
PAGE_ACCOUNT_HEADER = "X-Patience-Account"


def account_changed(page_account: str, signed_in_as: str) -> Exception:
    """409 ``account_changed``: the page was opened as another account than the session's."""
    # Not at the top: web.http.errors imports DRF's views, whose settings import this module.
    from web.http.errors import ApiError

    page = (
        f"This page belongs to {page_account}"
        if page_account
        else "This page was opened signed out"
    )
    now = f"signed in as {signed_in_as}" if signed_in_as else "signed out"
    go_on = f" to go on as {signed_in_as}" if signed_in_as else ""
    return ApiError(
        "account_changed",
        f"{page}, but this browser is now {now}: nothing was changed. Reload the page{go_on}.",
        status_code=409,
        page_account=page_account,
        signed_in_as=signed_in_as or None,
    )


class SessionAuthentication(authentication.SessionAuthentication):
    """DRF's session sign-in (CSRF checked on unsafe requests), and the one check that a page
    never writes as another account than the one it was opened as.

    Every open page of a browser shares its one session cookie: after signing in as another
    account (or out) in one tab, a page opened before would act as whoever is signed in now.
    An unsafe request that names its page's account (``PAGE_ACCOUNT_HEADER``) is refused
    when the session's account is another (409 ``account_changed``), before the view runs, so
    nothing changes. Requests without the header (scripts, other clients) are not checked,
    and requests with ``Authorization: Token`` are signed in before this is reached."""

    def enforce_csrf(self, request: Request) -> None:
        """DRF's check, refused as 403 ``csrf_failed`` saying what to send (not DRF's
        "CSRF Failed: CSRF token missing." as a ``permission_denied``)."""
        from web.http.errors import csrf_refused  # see account_changed

        try:
            super().enforce_csrf(request)
        except exceptions.PermissionDenied as refused:
            reason = str(refused.detail).removeprefix("CSRF Failed: ")
            raise csrf_refused(reason) from None

    def authenticate(self, request: Request) -> tuple[Any, None] | None:
        found = super().authenticate(request)
        page_account = request.headers.get(PAGE_ACCOUNT_HEADER)
        if page_account is not None and request.method not in SAFE_METHODS:
            page_account = unquote(page_account)
            signed_in_as = found[0].get_username() if found else ""
            if page_account != signed_in_as:
                raise account_changed(page_account, signed_in_as)
        return found
