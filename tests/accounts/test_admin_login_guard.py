"""The admin's sign-in (/admin/login/) is guarded as the API's is: the same counts of failures,
per username and address, per username and per address, shared by both doors."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.test import Client

from tests.accounts.helpers import assert_error, login

pytestmark = pytest.mark.django_db

STAFF_PASSWORD = "the-staff-passphrase"


@pytest.fixture
def boss(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_superuser("boss", "boss@example.org", STAFF_PASSWORD)


def admin_login(client: Client, password: str, username: str = "boss") -> Any:
    return client.post(
        "/admin/login/?next=/admin/",
        {"username": username, "password": password, "next": "/admin/"},
    )


def test_wrong_passwords_at_the_admin_are_limited_then_even_the_right_one_is_refused(
    boss: User,
) -> None:
    client = Client()
    for _ in range(5):
        assert admin_login(client, "guess").status_code == 200

    refused = admin_login(client, STAFF_PASSWORD)

    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 900
    assert b"Too many failed sign-in attempts. Try again in 15 minutes." in refused.content
    assert SESSION_KEY not in client.session


def test_a_limited_admin_sign_in_hashes_no_password(boss: User, monkeypatch: Any) -> None:
    client = Client()
    for _ in range(5):
        admin_login(client, "guess")
    checked: list[str] = []
    monkeypatch.setattr(
        "django.contrib.auth.backends.ModelBackend.authenticate",
        lambda *args, **kwargs: checked.append("hashed"),
    )

    assert admin_login(client, STAFF_PASSWORD).status_code == 429
    assert checked == []


def test_failures_at_the_api_count_at_the_admin(boss: User) -> None:
    for _ in range(5):
        assert_error(login(Client(), "boss", "guess"), 400, "invalid_credentials")

    assert admin_login(Client(), STAFF_PASSWORD).status_code == 429


def test_failures_at_the_admin_count_at_the_api(boss: User) -> None:
    for _ in range(5):
        admin_login(Client(), "guess")

    assert_error(login(Client(), "boss", STAFF_PASSWORD), 429, "throttled")


def test_one_address_guessing_many_staff_names_is_limited(boss: User) -> None:
    client = Client()
    for n in range(20):
        assert admin_login(client, "guess", username=f"staff{n}").status_code == 200

    assert admin_login(client, STAFF_PASSWORD).status_code == 429


def test_the_right_password_at_the_admin_signs_in_and_forgets_the_addresss_failures(
    boss: User,
) -> None:
    client = Client()
    for _ in range(4):
        admin_login(client, "guess")

    assert admin_login(client, STAFF_PASSWORD).status_code == 302
    assert client.session[SESSION_KEY] == str(boss.pk)
    for _ in range(5):
        assert admin_login(Client(), "guess").status_code == 200
