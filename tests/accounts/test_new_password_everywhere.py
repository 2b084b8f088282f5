"""A new password, however it is set, ends every sign-in made with the old one.

The attack it closes: staff set a player's password in the admin; the API token the player
(or whoever had stolen it) held went on answering, could change the account's email without
any password, and a password reset to that address then handed the account over.
"""

from __future__ import annotations

from io import StringIO
from typing import Any
from unittest import mock

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from rest_framework.authtoken.models import Token

from accounts.models import UserSession
from tests.accounts.helpers import PASSWORD, assert_error, login, post, url

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-brand-new-passphrase"


@pytest.fixture
def staff_client(django_user_model: type[User]) -> Client:
    boss = django_user_model.objects.create_superuser("boss", "boss@example.org", "pw")
    client = Client()
    client.force_login(boss)
    return client


def token_of(ada: User) -> str:
    return post(Client(), "token", {"username": "ada", "password": PASSWORD}).json()["token"]


def me(key: str) -> Any:
    return Client().get(url("me"), HTTP_AUTHORIZATION=f"Token {key}")


def test_a_staff_password_reset_in_the_admin_ends_the_players_token_and_sessions(
    ada: User, staff_client: Client
) -> None:
    key = token_of(ada)
    browser = Client()
    assert login(browser).status_code == 200
    assert me(key).status_code == 200

    response = staff_client.post(
        f"/admin/auth/user/{ada.pk}/password/",
        {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"},
    )

    assert response.status_code == 302, response.content
    assert_error(me(key), 401, "authentication_failed")
    assert not Token.objects.filter(user=ada).exists()
    assert not UserSession.objects.filter(user=ada).exists()
    assert_error(browser.get(url("me")), 401, "not_authenticated")


def test_an_old_token_cannot_change_the_email_after_a_staff_reset(
    ada: User, staff_client: Client
) -> None:
    key = token_of(ada)
    staff_client.post(
        f"/admin/auth/user/{ada.pk}/password/",
        {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"},
    )

    response = Client().patch(
        url("me"),
        {"email": "thief@example.org", "password": PASSWORD},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {key}",
    )

    assert_error(response, 401, "authentication_failed")
    ada.refresh_from_db()
    assert ada.email == "ada@example.com"


def test_manage_py_changepassword_ends_the_token(ada: User) -> None:
    key = token_of(ada)

    with mock.patch("getpass.getpass", return_value=NEW_PASSWORD):
        call_command("changepassword", "ada", stdout=StringIO())

    assert_error(me(key), 401, "authentication_failed")


def test_set_password_and_save_anywhere_ends_the_token_and_sessions(ada: User) -> None:
    key = token_of(ada)
    browser = Client()
    assert login(browser).status_code == 200
    user = User.objects.get(pk=ada.pk)

    user.set_password(NEW_PASSWORD)
    user.save()

    assert_error(me(key), 401, "authentication_failed")
    assert not UserSession.objects.filter(user=ada).exists()


def test_an_unusable_password_set_by_staff_ends_the_token(ada: User) -> None:
    key = token_of(ada)
    user = User.objects.get(pk=ada.pk)

    user.set_unusable_password()
    user.save()

    assert_error(me(key), 401, "authentication_failed")


def test_the_apis_password_change_ends_the_token_and_keeps_this_session(
    signed_in: Client, ada: User
) -> None:
    key = token_of(ada)

    response = post(signed_in, "password", {"old_password": PASSWORD, "new_password": NEW_PASSWORD})

    assert response.status_code == 204
    assert_error(me(key), 401, "authentication_failed")
    assert signed_in.get(url("me")).status_code == 200
    assert UserSession.objects.filter(user=ada).count() == 1


def test_a_password_reset_ends_the_token(ada: User) -> None:
    from django.contrib.auth.tokens import default_token_generator
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    key = token_of(ada)
    ada.refresh_from_db()
    link = {
        "uid": urlsafe_base64_encode(force_bytes(ada.pk)),
        "token": default_token_generator.make_token(ada),
        "new_password": NEW_PASSWORD,
    }

    assert post(Client(), "password-reset-confirm", link).status_code == 204

    assert_error(me(key), 401, "authentication_failed")


def test_saving_the_user_without_a_new_password_keeps_the_token(ada: User) -> None:
    key = token_of(ada)
    user = User.objects.get(pk=ada.pk)

    user.first_name = "Ada"
    user.save()
    user.email = "lovelace@example.com"
    user.save(update_fields=["email"])

    assert me(key).status_code == 200


def test_a_stronger_hash_of_the_same_password_at_sign_in_keeps_the_token(
    ada: User, settings: Any
) -> None:
    """Django rehashes a password with a stronger hasher when it is next checked: the same
    password, so no sign-in ends (every Django upgrade raises the iterations)."""
    key = token_of(ada)
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
        "django.contrib.auth.hashers.MD5PasswordHasher",
    ]

    assert login(Client()).status_code == 200

    ada.refresh_from_db()
    assert ada.password.startswith("pbkdf2_sha256$")
    assert me(key).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_staff_password_reset_closes_the_players_websockets(
    ada: User, staff_client: Client
) -> None:
    from channels.testing import WebsocketCommunicator

    from config.asgi import application
    from games.play import services as play_services

    game = play_services.create_game(user=ada, variant_slug="gold-mine", seed=5).game.pk
    key = token_of(ada)
    headers = [(b"origin", b"http://testserver"), (b"authorization", f"Token {key}".encode())]

    async def scenario() -> None:
        ws = WebsocketCommunicator(application, f"/ws/games/{game}/", headers=headers)
        connected, _ = await ws.connect(timeout=5)
        assert connected
        assert (await ws.receive_json_from(timeout=5))["type"] == "sync"
        response = await sync_to_async(staff_client.post)(
            f"/admin/auth/user/{ada.pk}/password/",
            {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"},
        )
        assert response.status_code == 302
        assert (await ws.receive_json_from(timeout=5))["code"] == "signed_out"
        assert await ws.receive_output(timeout=5) == {"type": "websocket.close", "code": 4401}

    async_to_sync(scenario)()


# -- changing the email asks for the password --------------------------------------------


def patch_me(client: Client, data: dict[str, Any], **extra: Any) -> Any:
    return client.patch(url("me"), data, content_type="application/json", **extra)


def test_changing_the_email_without_the_password_is_refused(signed_in: Client, ada: User) -> None:
    error = assert_error(patch_me(signed_in, {"email": "new@example.com"}), 400, "invalid")

    assert list(error["fields"]) == ["password"]
    ada.refresh_from_db()
    assert ada.email == "ada@example.com"


def test_changing_the_email_with_a_wrong_password_is_refused(signed_in: Client, ada: User) -> None:
    response = patch_me(signed_in, {"email": "new@example.com", "password": "not-it"})

    error = assert_error(response, 400, "wrong_password")
    assert list(error["fields"]) == ["password"]
    ada.refresh_from_db()
    assert ada.email == "ada@example.com"


def test_changing_the_email_with_the_password_works(signed_in: Client, ada: User) -> None:
    response = patch_me(signed_in, {"email": "new@example.com", "password": PASSWORD})

    assert response.status_code == 200, response.content
    assert response.json()["email"] == "new@example.com"


def test_a_token_alone_cannot_change_the_email(ada: User) -> None:
    key = token_of(ada)

    response = patch_me(Client(), {"email": "thief@example.org"}, HTTP_AUTHORIZATION=f"Token {key}")

    assert_error(response, 400, "invalid")
    ada.refresh_from_db()
    assert ada.email == "ada@example.com"


def test_wrong_passwords_at_the_email_change_count_toward_the_sign_in_guard(
    signed_in: Client, settings: Any
) -> None:
    settings.LOGIN_FAILURE_LIMIT = 2
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "email_change": None,
        },
    }
    for _ in range(2):
        patch_me(signed_in, {"email": "new@example.com", "password": "not-it"})

    response = patch_me(signed_in, {"email": "new@example.com", "password": PASSWORD})

    assert_error(response, 429, "throttled")
