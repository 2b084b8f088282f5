"""POST /api/auth/password/: change the password."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.authtoken.models import Token

from tests.accounts.helpers import PASSWORD, assert_error, login, post, url

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-brand-new-passphrase"


def change(client: Client, old: str = PASSWORD, new: str = NEW_PASSWORD, **extra: Any) -> Any:
    return post(client, "password", {"old_password": old, "new_password": new}, **extra)


def test_password_change_keeps_this_session_signed_in(signed_in: Client, ada: User) -> None:
    response = change(signed_in)

    assert response.status_code == 204
    assert signed_in.get(url("me")).json()["username"] == "ada"
    ada.refresh_from_db()
    assert ada.check_password(NEW_PASSWORD)


def test_after_a_change_only_the_new_password_signs_in(signed_in: Client) -> None:
    change(signed_in)
    other = Client()

    assert_error(login(other), 400, "invalid_credentials")
    assert login(other, password=NEW_PASSWORD).status_code == 200


def test_password_change_signs_out_other_sessions(signed_in: Client) -> None:
    elsewhere = Client()
    assert login(elsewhere).status_code == 200

    change(signed_in)

    assert_error(elsewhere.get(url("me")), 401, "not_authenticated")


def test_wrong_old_password_is_refused_on_its_field(signed_in: Client, ada: User) -> None:
    error = assert_error(change(signed_in, old="not-my-password"), 400, "invalid")

    assert list(error["fields"]) == ["old_password"]
    ada.refresh_from_db()
    assert ada.check_password(PASSWORD)


def test_weak_new_password_is_refused_with_the_validators_messages(
    signed_in: Client, ada: User
) -> None:
    error = assert_error(change(signed_in, new="ada12"), 400, "invalid")

    messages = error["fields"]["new_password"]
    assert any("too short" in m for m in messages)
    ada.refresh_from_db()
    assert ada.check_password(PASSWORD)


def test_password_change_revokes_the_api_token(signed_in: Client, ada: User) -> None:
    token = Token.objects.create(user=ada)

    assert change(signed_in).status_code == 204

    assert not Token.objects.filter(user=ada).exists()
    response = Client().get(url("me"), HTTP_AUTHORIZATION=f"Token {token.key}")
    assert_error(response, 401, "authentication_failed")


def test_password_change_by_token_needs_no_session(client: Client, ada: User) -> None:
    token = Token.objects.create(user=ada)

    response = change(client, HTTP_AUTHORIZATION=f"Token {token.key}")

    assert response.status_code == 204
    assert "sessionid" not in response.cookies
    assert login(client, password=NEW_PASSWORD).status_code == 200


def test_password_change_needs_a_signed_in_user(client: Client, ada: User) -> None:
    assert_error(change(client), 401, "not_authenticated")


def test_the_same_password_again_is_refused_and_changes_nothing(
    signed_in: Client, ada: User
) -> None:
    """A "change" to the current password would still end every other session and revoke
    the API token: it is refused with its own code, on the new password's field."""
    key = Token.objects.create(user=ada).key
    elsewhere = Client()
    assert login(elsewhere).status_code == 200
    before = User.objects.get(pk=ada.pk).password

    error = assert_error(change(signed_in, new=PASSWORD), 400, "same_password")

    message = "The new password must differ from the current one."
    assert error["message"] == message
    assert error["fields"] == {"new_password": [message]}
    assert User.objects.get(pk=ada.pk).password == before
    assert Token.objects.filter(key=key).exists()
    assert elsewhere.get(url("me")).status_code == 200
    assert signed_in.get(url("me")).status_code == 200


def test_a_wrong_old_password_is_said_before_the_same_password(signed_in: Client) -> None:
    error = assert_error(change(signed_in, old="not-it", new="not-it"), 400, "invalid")

    assert list(error["fields"]) == ["old_password"]
