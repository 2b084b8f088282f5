"""Forgotten passwords: POST /api/auth/password/reset/ emails a one-time link, whose uid and
token choose a new password at /api/auth/password/reset/confirm/; PATCH /api/auth/me/ sets the
address the link goes to."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from rest_framework.authtoken.models import Token

from tests.accounts.helpers import PASSWORD, assert_error, login, post, url

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-brand-new-passphrase"
LINK = re.compile(r"http://testserver/password/reset/(?P<uid>[^/\s]+)/(?P<token>[^/\s]+)/")


def ask(client: Client, email: str = "ada@example.com", **extra: Any) -> Any:
    return post(client, "password-reset", {"email": email}, **extra)


def emailed_link(index: int = -1) -> dict[str, str]:
    found = LINK.search(mail.outbox[index].body)
    assert found, mail.outbox[index].body
    return found.groupdict()


def set_email(client: Client, email: str) -> Any:
    return client.patch(
        url("me"), {"email": email, "password": PASSWORD}, content_type="application/json"
    )


def confirm(client: Client, link: dict[str, str], password: str = NEW_PASSWORD) -> Any:
    return post(client, "password-reset-confirm", {**link, "new_password": password})


def test_a_reset_link_is_emailed_and_sets_a_new_password_once(client: Client, ada: User) -> None:
    Token.objects.create(user=ada)
    response = ask(client)
    assert response.status_code == 202
    assert "on its way" in response.json()["detail"]
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["ada@example.com"]
    assert "ada" in mail.outbox[0].body

    link = emailed_link()
    assert confirm(Client(), link).status_code == 204
    assert_error(login(Client()), 400, "invalid_credentials")
    assert login(Client(), password=NEW_PASSWORD).status_code == 200
    assert not Token.objects.filter(user=ada).exists(), "scripts need a new token"

    assert_error(confirm(Client(), link, "yet-another-passphrase"), 400, "invalid_reset_link")
    ada.refresh_from_db()
    assert ada.check_password(NEW_PASSWORD)


def test_a_reset_ends_every_session_of_the_account(
    signed_in: Client, client: Client, ada: User
) -> None:
    ask(Client())
    assert confirm(Client(), emailed_link()).status_code == 204
    assert signed_in.get(url("me")).status_code in (401, 403)


def test_an_unknown_address_gets_the_same_answer_and_no_email(client: Client, ada: User) -> None:
    known, unknown = ask(client), ask(client, "nobody@example.com")
    assert (known.status_code, known.json()) == (unknown.status_code, unknown.json())
    assert len(mail.outbox) == 1


def test_the_address_matches_whatever_its_letter_case(client: Client, ada: User) -> None:
    assert ask(client, "ADA@Example.COM").status_code == 202
    assert mail.outbox[0].to == ["ada@example.com"]


@pytest.mark.parametrize(
    "link",
    [
        {"uid": "MQ", "token": "not-a-token"},
        {"uid": "%%%", "token": "x"},
        {"uid": "bm90LWEtbnVtYmVy", "token": "x"},  # "not-a-number"
        {"uid": "OTk5OTk5OTk5", "token": "x"},  # a user that does not exist
    ],
)
def test_a_wrong_or_made_up_link_is_refused_and_changes_nothing(
    client: Client, ada: User, link: dict[str, str]
) -> None:
    assert_error(confirm(client, link), 400, "invalid_reset_link")
    ada.refresh_from_db()
    assert ada.check_password(PASSWORD)


def test_a_refused_new_password_leaves_the_link_usable(client: Client, ada: User) -> None:
    ask(client)
    link = emailed_link()
    error = assert_error(confirm(client, link, "12345678"), 400, "invalid")
    assert "new_password" in error["fields"]
    assert confirm(client, link).status_code == 204


def test_one_address_gets_a_few_emails_an_hour_whatever_is_asked(client: Client, ada: User) -> None:
    answers = {ask(client).status_code for _ in range(5)}
    assert answers == {202}
    assert len(mail.outbox) == 3


def test_one_client_may_ask_ten_times_an_hour(client: Client, ada: User) -> None:
    for n in range(10):
        assert ask(client, f"someone{n}@example.com").status_code == 202
    assert_error(ask(client), 429, "throttled")
    assert not mail.outbox


def test_a_made_up_forwarded_address_does_not_dodge_the_request_limit(
    client: Client, ada: User
) -> None:
    for n in range(10):
        assert (
            ask(client, f"someone{n}@example.com", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}").status_code
            == 202
        )
    assert_error(ask(client, HTTP_X_FORWARDED_FOR="10.9.9.9"), 429, "throttled")
    assert not mail.outbox


def test_an_account_without_an_address_sets_one_and_can_then_be_recovered(
    client: Client, django_user_model: type[User]
) -> None:
    django_user_model.objects.create_user(username="bob", password=PASSWORD)
    assert login(client, "bob").status_code == 200
    ask(Client(), "bob@example.com")
    assert not mail.outbox

    response = set_email(client, "Bob@EXAMPLE.com")
    assert response.status_code == 200, response.content
    assert response.json()["email"] == "Bob@example.com"
    ask(Client(), "bob@example.com")
    assert mail.outbox[0].to == ["Bob@example.com"]

    assert "email" in assert_error(set_email(client, "not an address"), 400, "invalid")["fields"]
    assert set_email(client, "").json()["email"] == ""


def test_the_request_limit_says_when_to_try_again_in_minutes(client: Client, ada: User) -> None:
    for n in range(10):
        assert ask(client, f"someone{n}@example.com").status_code == 202
    refused = ask(client)
    error = assert_error(refused, 429, "throttled")
    assert error["message"] == (
        "Too many new passwords have been asked for from this address. Try again in 60 minutes."
    )
    assert 3590 <= int(refused["Retry-After"]) <= 3600
