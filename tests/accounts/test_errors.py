"""Every accounts error answers JSON ``{"error": {"code", "message"}}``; the schema documents
the endpoints."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import include, path
from drf_spectacular.generators import SchemaGenerator
from rest_framework.authtoken.models import Token

from tests.accounts.helpers import PASSWORD, assert_error, login, post, url

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", ["register", "login", "password", "token"])
def test_malformed_json_body_is_400_malformed_json(signed_in: Client, name: str) -> None:
    response = signed_in.post(url(name), '{"username": ', content_type="application/json")

    assert_error(response, 400, "malformed_json")


@pytest.mark.parametrize("name", ["register", "login", "logout", "password"])
def test_get_on_a_post_only_endpoint_is_405(signed_in: Client, name: str) -> None:
    error = assert_error(signed_in.get(url(name)), 405, "method_not_allowed")

    assert '"GET"' in error["message"]


def test_post_on_a_get_only_endpoint_is_405(signed_in: Client) -> None:
    assert_error(post(signed_in, "me"), 405, "method_not_allowed")
    assert_error(post(signed_in, "csrf"), 405, "method_not_allowed")


def test_every_error_is_json_with_code_and_message(client: Client, ada: User) -> None:
    cases: list[tuple[Any, int, str]] = [
        (post(client, "register", {"username": "ada", "password": "x"}), 400, "invalid"),
        (login(client, password="nope"), 400, "invalid_credentials"),
        (client.get(url("me")), 401, "not_authenticated"),
        (client.get(url("me"), HTTP_AUTHORIZATION="Token nope"), 401, "authentication_failed"),
        (client.delete(url("token")), 401, "not_authenticated"),
        (
            client.put(url("login"), "{}", content_type="application/json"),
            405,
            "method_not_allowed",
        ),
        (
            client.post(url("login"), "x", content_type="application/xml"),
            415,
            "unsupported_media_type",
        ),
        (client.get("/api/auth/nowhere/"), 404, "not_found"),
    ]
    for response, status, code in cases:
        assert_error(response, status, code)


LONG_EMAIL = "a@" + "b" * 260 + ".example"
LINK_MESSAGE = (
    "This link to choose a new password is not valid: it is mistyped, has expired or was "
    "already used. Ask for a new one."
)


@pytest.mark.parametrize(
    ("name", "data", "field", "message"),
    [
        ("register", {"username": "u" * 151, "password": PASSWORD}, "username",
         "A username has at most 150 characters."),
        ("register", {"username": "", "password": PASSWORD}, "username", "Choose a username."),
        ("register", {"password": PASSWORD}, "username", "Choose a username."),
        ("register", {"username": "grace", "password": "p" * 4097}, "password",
         "A password has at most 4096 characters."),
        ("register", {"username": "grace", "password": ""}, "password", "Choose a password."),
        ("register", {"username": "grace", "password": PASSWORD, "email": LONG_EMAIL}, "email",
         "An email address has at most 254 characters."),
        ("login", {"username": "u" * 151, "password": PASSWORD}, "username",
         "A username has at most 150 characters."),
        ("login", {"username": "", "password": PASSWORD}, "username", "Enter your username."),
        ("login", {"username": "ada", "password": ""}, "password", "Enter your password."),
        ("login", {"username": "ada", "password": None}, "password", "Enter your password."),
        ("password-reset", {"email": ""}, "email", "Enter your email address."),
        ("password-reset", {"email": LONG_EMAIL}, "email",
         "An email address has at most 254 characters."),
        ("password-reset-confirm", {"uid": "M" * 65, "token": "x", "new_password": PASSWORD},
         "uid", LINK_MESSAGE),
        ("password-reset-confirm", {"uid": "MQ", "token": "x" * 129, "new_password": PASSWORD},
         "token", LINK_MESSAGE),
        ("password-reset-confirm", {"token": "x", "new_password": PASSWORD}, "uid", LINK_MESSAGE),
        ("password-reset-confirm", {"uid": "MQ", "token": "x", "new_password": ""},
         "new_password", "Choose a new password."),
    ],
)  # fmt: skip
def test_a_refused_field_is_explained_in_the_forms_own_words(
    client: Client, ada: User, name: str, data: dict, field: str, message: str
) -> None:
    """What a player can get wrong (an empty field, too long a name, password or address, a
    broken link) reads as the site's forms say it, not as DRF's "Ensure this field has no more
    than 150 characters."; the code stays "invalid", and nothing changes."""
    error = assert_error(post(client, name, data), 400, "invalid")
    assert error["fields"][field][0] == message
    assert list(User.objects.values_list("username", flat=True)) == ["ada"]
    ada.refresh_from_db()
    assert ada.check_password(PASSWORD)


def test_a_signed_in_players_refused_fields_are_explained_too(signed_in: Client) -> None:
    too_long = "A password has at most 4096 characters."
    cases = [
        (post(signed_in, "password", {"old_password": "", "new_password": "x" * 12}),
         "old_password", "Enter your current password."),
        (post(signed_in, "password", {"old_password": PASSWORD, "new_password": "x" * 4097}),
         "new_password", too_long),
        (signed_in.delete(url("me"), {"password": ""}, content_type="application/json"),
         "password", "Enter your password to close the account."),
        (signed_in.patch(url("me"), {"email": LONG_EMAIL, "password": PASSWORD},
                         content_type="application/json"),
         "email", "An email address has at most 254 characters."),
    ]  # fmt: skip
    for response, field, message in cases:
        assert assert_error(response, 400, "invalid")["fields"][field][0] == message
    assert signed_in.get(url("me")).json()["email"] == "ada@example.com"


def test_a_json_array_body_is_a_validation_error(client: Client) -> None:
    response = client.post(url("login"), "[]", content_type="application/json")

    error = assert_error(response, 400, "invalid")
    assert "non_field_errors" in error["fields"]


def test_schema_documents_the_accounts_endpoints() -> None:
    generator = SchemaGenerator(patterns=[path("api/auth/", include("accounts.urls"))])
    schema = generator.get_schema(request=None, public=True)

    operations = {(route, method) for route, item in schema["paths"].items() for method in item}
    assert operations == {
        ("/api/auth/csrf/", "get"),
        ("/api/auth/register/", "post"),
        ("/api/auth/login/", "post"),
        ("/api/auth/logout/", "post"),
        ("/api/auth/logout/others/", "post"),
        ("/api/auth/me/", "get"),
        ("/api/auth/me/", "patch"),
        ("/api/auth/me/", "delete"),
        ("/api/auth/password/", "post"),
        ("/api/auth/password/reset/", "post"),
        ("/api/auth/password/reset/confirm/", "post"),
        ("/api/auth/email/confirm/", "post"),
        ("/api/auth/token/", "post"),
        ("/api/auth/token/", "delete"),
        ("/api/auth/settings/", "get"),
        ("/api/auth/settings/", "patch"),
    }
    login_op = schema["paths"]["/api/auth/login/"]["post"]
    assert login_op["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Login"
    }
    assert set(login_op["responses"]) == {"200", "400", "409", "429"}
    assert set(schema["components"]["schemas"]["User"]["properties"]) == {
        "id",
        "username",
        "email",
        "date_joined",
    }


def test_schema_documents_account_changed_on_every_write_a_session_may_make() -> None:
    """The session sign-in refuses a page's write as another account (409 account_changed)
    before any view runs: every such write documents it, with the error body, besides its
    own 409s; reads and writes no session signs in to (a reset link's, a confirmation
    link's) do not."""
    schema = SchemaGenerator().get_schema(request=None, public=True)

    writes, others = {}, {}
    for route, item in schema["paths"].items():
        for method, operation in item.items():
            target = writes if method in ("post", "put", "patch", "delete") else others
            target[(route, method)] = operation["responses"]
    assert ("/api/games/{game_id}/moves/", "post") in writes
    for (route, method), responses in writes.items():
        if route in ("/api/auth/password/reset/confirm/", "/api/auth/email/confirm/"):
            assert "409" not in responses
            continue
        conflict = responses.get("409")
        assert conflict, (route, method)
        assert '"account_changed"' in conflict["description"], (route, method)
        assert conflict["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/ApiError"
        }
    assert writes[("/api/auth/me/", "patch")]["409"]["description"].startswith(
        '"account_changed": the page that sent this (`X-Patience-Account`)'
    )
    # A move's own conflict (a stale expected_move_number) is still there.
    assert writes[("/api/games/{game_id}/moves/", "post")]["409"]["description"].startswith(
        "A conflict of this operation's own"
    )
    # A read may have a conflict of its own (an analysis of a game still in play), never the
    # session's account_changed.
    for responses in others.values():
        assert '"account_changed"' not in responses.get("409", {}).get("description", "")


def test_sign_in_refusals_say_what_to_send(client: Client, ada: User) -> None:
    """Not DRF's "Authentication credentials were not provided." or "Invalid token.": what
    happened and what to do, with the codes unchanged."""
    error = assert_error(client.get(url("me")), 401, "not_authenticated")
    assert error["message"] == (
        "Sign in first: send the session cookie of a signed-in browser, or an API token as "
        "Authorization: Token <key> (get one from POST /api/auth/token/)."
    )

    error = assert_error(
        client.get(url("me"), HTTP_AUTHORIZATION="Token nope"), 401, "authentication_failed"
    )
    assert error["message"] == (
        "That API token is not valid: mistyped, or revoked (a new password revokes it too). "
        "Get a new one from POST /api/auth/token/."
    )

    for header in ("Token", "Token two words"):
        error = assert_error(
            client.get(url("me"), HTTP_AUTHORIZATION=header), 401, "authentication_failed"
        )
        assert error["message"].startswith("Send the API token as the header Authorization:")


def test_a_deactivated_accounts_token_is_refused_in_words(client: Client, ada: User) -> None:
    key = post(client, "token", {"username": "ada", "password": PASSWORD}).json()["token"]
    User.objects.filter(pk=ada.pk).update(is_active=False)

    response = client.get(url("me"), HTTP_AUTHORIZATION=f"Token {key}")

    error = assert_error(response, 401, "authentication_failed")
    assert error["message"] == "The account of that API token is deactivated: it cannot sign in."


def test_a_wrong_method_names_the_ones_to_use(signed_in: Client) -> None:
    error = assert_error(signed_in.put(url("me"), {}, content_type="application/json"), 405,
                         "method_not_allowed")  # fmt: skip
    assert error["message"] == 'This address does not take "PUT": use GET or PATCH or DELETE.'
    error = assert_error(signed_in.get("/api/health/", REQUEST_METHOD="POST"), 405,
                         "method_not_allowed")  # fmt: skip
    assert error["message"] == 'This address does not take "POST": use GET.'


def test_a_field_that_cannot_be_changed_is_refused_not_ignored(
    signed_in: Client, ada: User
) -> None:
    """PATCH /api/auth/me/ with {"username": ...} answered 200 and changed nothing."""
    response = signed_in.patch(
        url("me"), {"username": "renamed", "email": "new@example.com"},
        content_type="application/json",
    )  # fmt: skip

    error = assert_error(response, 400, "unknown_field")
    assert error["message"] == (
        '"username" cannot be sent here: this request takes "email" and "password" only. '
        "Nothing was done."
    )
    assert list(error["fields"]) == ["username"]
    ada.refresh_from_db()
    assert (ada.username, ada.email) == ("ada", "ada@example.com")


@pytest.mark.parametrize(
    ("name", "data", "unknown"),
    [
        ("register", {"username": "grace", "password": PASSWORD, "is_staff": True}, ["is_staff"]),
        ("login", {"username": "ada", "password": PASSWORD, "remember": 1}, ["remember"]),
        ("token", {"username": "ada", "pasword": PASSWORD}, ["pasword"]),
        ("password", {"old_password": PASSWORD, "new_password": "a-new-passphrase", "x": 1,
                      "y": 2}, ["x", "y"]),
        ("password-reset", {"email": "ada@example.com", "username": "ada"}, ["username"]),
    ],
)  # fmt: skip
def test_every_account_write_refuses_fields_it_does_not_take(
    signed_in: Client, ada: User, name: str, data: dict, unknown: list[str]
) -> None:
    error = assert_error(post(signed_in, name, data), 400, "unknown_field")

    assert sorted(error["fields"]) == unknown
    for field in unknown:
        assert f'"{field}"' in error["message"]
    assert not User.objects.filter(username="grace").exists()
    ada.refresh_from_db()
    assert ada.check_password(PASSWORD)
    assert not Token.objects.exists()
