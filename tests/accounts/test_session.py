"""Session sign-in: POST /api/auth/login/, POST /api/auth/logout/, GET /api/auth/me/."""

from __future__ import annotations

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.test import Client

from tests.accounts.helpers import PASSWORD, assert_error, login, post, url

pytestmark = pytest.mark.django_db


def test_login_answers_the_user_and_starts_a_session(client: Client, ada: User) -> None:
    response = login(client)

    assert response.status_code == 200
    assert response.json() == {
        "id": ada.pk,
        "username": "ada",
        "email": "ada@example.com",
        "date_joined": response.json()["date_joined"],
    }
    assert client.session[SESSION_KEY] == str(ada.pk)
    assert client.get(url("me")).json()["username"] == "ada"


def test_login_records_last_login(client: Client, ada: User) -> None:
    login(client)

    ada.refresh_from_db()
    assert ada.last_login is not None


def test_wrong_password_is_invalid_credentials_and_signs_nobody_in(
    client: Client, ada: User
) -> None:
    response = login(client, password="wrong-password")

    assert_error(response, 400, "invalid_credentials")
    assert SESSION_KEY not in client.session
    assert client.get(url("me")).status_code == 401


def test_unknown_username_gets_the_same_answer_as_a_wrong_password(
    client: Client, ada: User
) -> None:
    wrong_password = login(client, password="wrong-password")
    unknown_user = login(client, username="nobody")

    assert unknown_user.status_code == wrong_password.status_code == 400
    assert unknown_user.json() == wrong_password.json()


def test_inactive_user_cannot_sign_in(client: Client, ada: User) -> None:
    ada.is_active = False
    ada.save()

    assert_error(login(client), 400, "invalid_credentials")


def test_login_needs_both_fields(client: Client) -> None:
    error = assert_error(post(client, "login", {"username": "ada"}), 400, "invalid")

    assert set(error["fields"]) == {"password"}


def test_logout_ends_the_session(signed_in: Client) -> None:
    response = post(signed_in, "logout")

    assert response.status_code == 204
    assert response.content == b""
    assert SESSION_KEY not in signed_in.session
    assert_error(signed_in.get(url("me")), 401, "not_authenticated")


def test_logout_when_signed_out_is_fine(client: Client) -> None:
    assert post(client, "logout").status_code == 204


def test_me_when_signed_out_is_401(client: Client) -> None:
    response = client.get(url("me"))

    assert_error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Token"


def test_me_answers_the_signed_in_user(signed_in: Client, ada: User) -> None:
    body = signed_in.get(url("me")).json()

    assert body["id"] == ada.pk
    assert body["username"] == "ada"
    assert "password" not in body


def test_login_switches_the_session_to_the_new_user(
    signed_in: Client, django_user_model: type[User]
) -> None:
    django_user_model.objects.create_user(username="grace", password=PASSWORD)

    assert login(signed_in, username="grace").status_code == 200
    assert signed_in.get(url("me")).json()["username"] == "grace"


def test_signing_out_of_other_devices_ends_every_other_session_and_keeps_this_one(
    ada: User, django_user_model
) -> None:
    here, laptop, phone, someone_else = Client(), Client(), Client(), Client()
    for client in (here, laptop, phone):
        assert login(client).status_code == 200
    django_user_model.objects.create_user("bob", password=PASSWORD)
    assert login(someone_else, "bob").status_code == 200
    token = post(Client(), "token", {"username": "ada", "password": PASSWORD}).json()["token"]

    response = post(here, "logout-others")

    assert response.status_code == 200 and response.json() == {"ended": 2}
    assert here.get(url("me")).status_code == 200
    assert_error(laptop.get(url("me")), 401, "not_authenticated")
    assert_error(phone.get(url("me")), 401, "not_authenticated")
    assert someone_else.get(url("me")).json()["username"] == "bob"
    # The API token is not a device session: it has its own revoke.
    assert Client().get(url("me"), HTTP_AUTHORIZATION=f"Token {token}").status_code == 200
    assert post(here, "logout-others").json() == {"ended": 0}


def test_signing_out_of_other_devices_needs_a_sign_in(client: Client) -> None:
    assert_error(post(client, "logout-others"), 401, "not_authenticated")


def test_a_script_signing_out_of_other_devices_ends_every_browser_session(ada: User) -> None:
    browser = Client()
    assert login(browser).status_code == 200
    token = post(Client(), "token", {"username": "ada", "password": PASSWORD}).json()["token"]

    response = post(Client(), "logout-others", HTTP_AUTHORIZATION=f"Token {token}")

    assert response.json() == {"ended": 1}
    assert_error(browser.get(url("me")), 401, "not_authenticated")
