"""Email changes are limited per account: a refusal says another account has an address, so
unlimited tries would test a list of addresses one by one."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from pytest_django.fixtures import Settings

from tests.accounts.helpers import PASSWORD, assert_error, login, url

pytestmark = pytest.mark.django_db


def save_email(client: Client, email: str) -> Any:
    return client.patch(
        url("me"), {"email": email, "password": PASSWORD}, content_type="application/json"
    )


def test_ten_changes_an_hour_then_429_with_when_to_try_again(
    signed_in: Client, ada: User, django_user_model: type[User]
) -> None:
    django_user_model.objects.create_user("grace", "grace@example.com", PASSWORD)
    for n in range(9):
        assert save_email(signed_in, f"ada{n}@example.com").status_code == 200
    assert save_email(signed_in, "grace@example.com").status_code == 400  # refused ones count

    refused = save_email(signed_in, "ada-final@example.com")

    error = assert_error(refused, 429, "throttled")
    assert error["message"] == (
        "Too many changes of email address from this account. Try again in 60 minutes."
    )
    assert 3590 <= int(refused["Retry-After"]) <= 3600
    ada.refresh_from_db()
    assert ada.email == "ada8@example.com"  # the refused request changed nothing


def test_the_limit_is_the_accounts_not_the_addresss(
    signed_in: Client, django_user_model: type[User]
) -> None:
    for n in range(10):
        assert save_email(signed_in, f"ada{n}@example.com").status_code == 200
    assert_error(save_email(signed_in, "more@example.com"), 429, "throttled")

    django_user_model.objects.create_user("grace", "", PASSWORD)
    grace = Client()  # same client address, another account
    assert login(grace, "grace").status_code == 200
    assert save_email(grace, "grace@example.com").status_code == 200


def test_reading_the_account_and_closing_it_are_not_held_back(signed_in: Client) -> None:
    for n in range(10):
        assert save_email(signed_in, f"ada{n}@example.com").status_code == 200
    assert_error(save_email(signed_in, "more@example.com"), 429, "throttled")

    assert signed_in.get(url("me")).status_code == 200
    closed = signed_in.delete(url("me"), {"password": PASSWORD}, content_type="application/json")
    assert closed.status_code == 204


def test_the_limit_comes_from_settings(signed_in: Client, settings: Settings) -> None:
    rest = {**settings.REST_FRAMEWORK}
    rest["DEFAULT_THROTTLE_RATES"] = {**rest["DEFAULT_THROTTLE_RATES"], "email_change": "2/hour"}
    settings.REST_FRAMEWORK = rest
    assert save_email(signed_in, "a1@example.com").status_code == 200
    assert save_email(signed_in, "a2@example.com").status_code == 200
    assert_error(save_email(signed_in, "a3@example.com"), 429, "throttled")
