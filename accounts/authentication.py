"""API tokens: ``Authorization: Token <key>``, looked up in one plain query.

Every API call a script makes signs in this way. DRF's lookup builds its SQL through the ORM
on each call, which cost more server time than the rest of a simple request
(``bench/api_bench.py``); this is the same check, a join written once and read by a
``config.rows.RowReader``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from config.rows import RowReader

_KEY_LENGTH = Token._meta.get_field("key").max_length


@cache
def _user_reader() -> RowReader[Any]:
    return RowReader(get_user_model())


@cache
def _token_sql() -> str:
    user_model = get_user_model()
    user_table = user_model._meta.db_table
    token_table = Token._meta.db_table
    user_pk = user_model._meta.pk.column
    return (
        f'SELECT {_user_reader().columns("u")} FROM "{user_table}" u '
        f'JOIN "{token_table}" t ON t."user_id" = u."{user_pk}" WHERE t."key" = %s'
    )


def token_owner(key: str) -> tuple[Any, Token] | None:
    """The user and token for an API key, whether or not the user is active; None if unknown."""
    if not key or len(key) > _KEY_LENGTH or "\x00" in key:
        return None  # never a key; PostgreSQL would refuse the NUL outright
    with connection.cursor() as cursor:
        cursor.execute(_token_sql(), [key])
        row = cursor.fetchone()
    if row is None:
        return None
    user = _user_reader().build(row)
    # The token's creation time is left deferred: nothing reads it when signing in.
    token = Token.from_db(user._state.db, ["key", "user_id"], [key, user.pk])
    token.user = user
    return user, token


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication (same answers, same 401s) over ``token_owner``."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        found = token_owner(key)
        if found is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not found[0].is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return found
