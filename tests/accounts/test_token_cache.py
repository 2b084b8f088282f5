"""API keys kept by a server process (accounts.token_cache): a key signs in without a query
once seen, and every change of its user or token is seen at once, here and in every other
process."""

from __future__ import annotations

import os
import time
from typing import Any

import httpx
import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client, override_settings
from rest_framework.authtoken.models import Token

from accounts import services
from accounts.authentication import token_owner
from accounts.selectors import still_signed_in
from accounts.token_cache import TokenCache, cache
from tests.accounts.helpers import PASSWORD, assert_error, url
from tests.support.servers import production_env, servers

pytestmark = pytest.mark.django_db


@pytest.fixture
def key(ada: User) -> str:
    if settings.REDIS_URL:
        # The first lookup starts the process listening for other processes' changes; until
        # it listens, nothing is kept.
        token_owner("0" * 40)
        assert cache.listening.wait(10), "the token cache never listened to Redis"
    return Token.objects.create(user=ada).key


def me(key: str) -> Any:
    return Client().get(url("me"), HTTP_AUTHORIZATION=f"Token {key}")


def test_a_key_seen_once_signs_in_without_a_query(key: str, django_assert_num_queries: Any):
    with django_assert_num_queries(1):
        token_owner(key)
    with django_assert_num_queries(0):
        user, token = token_owner(key)

    assert (user.username, token.key, token.user_id) == ("ada", key, user.pk)


def test_a_fresh_lookup_reads_the_database(key: str, django_assert_num_queries: Any):
    token_owner(key)
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM authtoken_token WHERE key = %s", [key])  # no signal

    assert token_owner(key) is not None  # kept
    with django_assert_num_queries(1):
        assert token_owner(key, fresh=True) is None


def test_a_live_connection_checks_its_sign_in_afresh(key: str, ada: User):
    token_owner(key)
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM authtoken_token WHERE key = %s", [key])

    assert not still_signed_in(ada.pk, token_key=key, session_key=None)


def test_each_request_gets_a_user_of_its_own(key: str):
    first, _ = token_owner(key)
    first.email = "changed-in-memory@example.com"

    second, _ = token_owner(key)

    assert second is not first and second.email == "ada@example.com"


def test_a_revoked_token_is_refused_on_the_next_request(key: str):
    assert me(key).status_code == 200

    assert Client().delete(url("token"), HTTP_AUTHORIZATION=f"Token {key}").status_code == 204

    assert_error(me(key), 401, "authentication_failed")


def test_a_new_password_revokes_the_kept_key_at_once(key: str, ada: User):
    assert me(key).status_code == 200

    services.change_password(
        user=ada, old_password=PASSWORD, new_password="a-new-long-secret", client_ip="127.0.0.1"
    )

    assert_error(me(key), 401, "authentication_failed")


def test_a_deactivated_account_is_refused_on_the_next_request(key: str, ada: User):
    assert me(key).status_code == 200

    ada.is_active = False
    ada.save()

    assert_error(me(key), 401, "authentication_failed")


def test_a_changed_account_is_read_anew(key: str, ada: User):
    assert me(key).json()["email"] == "ada@example.com"

    services.change_email(
        user=ada, email="ada@elsewhere.example", password=PASSWORD, client_ip="127.0.0.1"
    )

    assert me(key).json()["email"] == "ada@elsewhere.example"


def test_a_removed_account_is_refused_on_the_next_request(key: str, ada: User):
    assert me(key).status_code == 200

    ada.delete()

    assert_error(me(key), 401, "authentication_failed")


def test_a_row_read_while_its_user_changed_is_not_kept(key: str, ada: User):
    generation = cache.generation
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")  # the read, meanwhile another request changes ada
    cache.forget_user(ada.pk)

    cache.keep(key, ada.pk, ("stale row",), generation)

    assert cache.row(key) is None


def test_a_key_is_looked_up_again_once_its_time_is_over(key: str, django_assert_num_queries: Any):
    with override_settings(API_TOKEN_CACHE_SECONDS=0.05):
        token_owner(key)
        time.sleep(0.1)
        with django_assert_num_queries(1):
            token_owner(key)


@override_settings(API_TOKEN_CACHE_SECONDS=0)
def test_no_cache_time_looks_every_key_up(key: str, django_assert_num_queries: Any):
    for _ in range(2):
        with django_assert_num_queries(1):
            token_owner(key)


@override_settings(REDIS_URL="redis://127.0.0.1:6379/0")
def test_a_process_not_listening_to_redis_keeps_nothing(monkeypatch: pytest.MonkeyPatch):
    deaf = TokenCache()
    monkeypatch.setattr(deaf, "_start_listening", lambda: None)  # as while Redis is away

    deaf.keep("k" * 40, 1, ("row",), deaf.generation)

    assert deaf.row("k" * 40) is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql" or not os.environ.get("REDIS_URL"),
    reason="needs PostgreSQL and Redis (CI has both and fails without them)",
)
def test_a_token_revoked_through_one_server_is_refused_by_the_other_at_once(ada: User):
    key = Token.objects.create(user=ada).key
    # A cache time far longer than the test: only the message can explain a refusal.
    env = production_env(
        connection.settings_dict, "token-cache-test-key", API_TOKEN_CACHE_SECONDS="600"
    )
    auth = {"Authorization": f"Token {key}"}
    connection.close()
    with servers(2, env) as (server_a, server_b):

        def me_on(server: str) -> httpx.Response:
            return httpx.get(f"{server}/api/auth/me/", headers=auth, timeout=10)

        # Server B keeps the key once it listens: a row deleted behind its back, with no
        # signal to report it, still signs in there (as it may for the cache time).
        attempts = 0
        while True:
            assert me_on(server_b).status_code == 200
            with connection.cursor() as cursor:
                cursor.execute("DELETE FROM authtoken_token WHERE key = %s", [key])
            kept = me_on(server_b).status_code == 200
            Token.objects.create(key=key, user=ada)
            if kept:
                break
            attempts += 1
            assert attempts < 50, "server B never kept the key"
            time.sleep(0.1)

        # Revoked through server A, the way a script or the site does it.
        assert httpx.delete(f"{server_a}/api/auth/token/", headers=auth).status_code == 204

        # Server B hears of it as soon as Redis delivers the message (a moment, not the
        # cache time).
        deadline = time.monotonic() + 2
        while (refused := me_on(server_b)).status_code == 200 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert refused.status_code == 401, refused.text
        assert refused.json()["error"]["code"] == "authentication_failed"
