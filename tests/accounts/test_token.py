"""POST and DELETE /api/auth/token/: API tokens for scripts."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.authtoken.models import Token

from accounts.authentication import token_owner
from tests.accounts.helpers import PASSWORD, assert_error, post, url

pytestmark = pytest.mark.django_db


def obtain(client: Client, password: str = PASSWORD) -> Any:
    return post(client, "token", {"username": "ada", "password": password})


def test_token_is_issued_for_the_right_credentials(client: Client, ada: User) -> None:
    response = obtain(client)

    assert response.status_code == 200
    assert response.json() == {"token": Token.objects.get(user=ada).key}


def test_asking_again_gives_the_same_token(client: Client, ada: User) -> None:
    assert obtain(client).json() == obtain(client).json()


def test_getting_a_token_does_not_start_a_session(client: Client, ada: User) -> None:
    obtain(client)

    assert client.get(url("me")).status_code == 401


def test_token_authenticates_any_endpoint(client: Client, ada: User) -> None:
    key = obtain(client).json()["token"]

    response = Client().get(url("me"), HTTP_AUTHORIZATION=f"Token {key}")

    assert response.status_code == 200
    assert response.json()["username"] == "ada"


def test_wrong_credentials_get_no_token(client: Client, ada: User) -> None:
    assert_error(obtain(client, password="wrong-password"), 400, "invalid_credentials")
    assert not Token.objects.exists()


def test_revoking_the_token_stops_it_working(client: Client, ada: User) -> None:
    key = obtain(client).json()["token"]
    script = Client(HTTP_AUTHORIZATION=f"Token {key}")

    response = script.delete(url("token"))

    assert response.status_code == 204
    assert not Token.objects.exists()
    assert_error(script.get(url("me")), 401, "authentication_failed")


def test_a_new_token_after_revoking_differs(client: Client, ada: User) -> None:
    key = obtain(client).json()["token"]
    Client(HTTP_AUTHORIZATION=f"Token {key}").delete(url("token"))

    assert obtain(client).json()["token"] != key


def test_a_session_can_revoke_its_users_token(signed_in: Client, ada: User) -> None:
    Token.objects.create(user=ada)

    assert signed_in.delete(url("token")).status_code == 204
    assert not Token.objects.exists()


def test_revoking_needs_a_signed_in_user(client: Client) -> None:
    assert_error(client.delete(url("token")), 401, "not_authenticated")


def test_a_malformed_authorization_header_is_refused(client: Client) -> None:
    response = client.get(url("me"), HTTP_AUTHORIZATION="Token not a token")

    assert_error(response, 401, "authentication_failed")


def test_a_token_of_an_inactive_user_is_refused(client: Client, ada: User) -> None:
    key = obtain(client).json()["token"]
    User.objects.filter(pk=ada.pk).update(is_active=False)

    response = Client().get(url("me"), HTTP_AUTHORIZATION=f"Token {key}")

    assert_error(response, 401, "authentication_failed")


def test_an_unknown_token_is_refused(ada: User) -> None:
    response = Client().get(url("me"), HTTP_AUTHORIZATION="Token " + "0" * 40)

    assert_error(response, 401, "authentication_failed")


def test_signing_in_by_token_costs_one_query(
    client: Client, ada: User, django_assert_num_queries: Any
) -> None:
    key = obtain(client).json()["token"]

    with django_assert_num_queries(1):
        user, token = token_owner(key)

    assert (user, token.key, token.user) == (ada, key, ada)
    assert token_owner("nope") is None


@pytest.mark.parametrize("key", ["a\x00b", "0" * 41, ""])
def test_what_cannot_be_a_key_is_unknown_without_asking_the_database(
    key: str, django_assert_num_queries: Any
) -> None:
    with django_assert_num_queries(0):
        assert token_owner(key) is None
