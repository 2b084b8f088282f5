"""POST /api/auth/register/: create an account and sign in."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.test import Client

from tests.accounts.helpers import PASSWORD, assert_error, post, url

pytestmark = pytest.mark.django_db


def test_register_creates_the_account_and_signs_in(client: Client) -> None:
    response = post(
        client, "register", {"username": "grace", "password": PASSWORD, "email": "g@example.com"}
    )

    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"id", "username", "email", "date_joined", "email_to_confirm", "detail"}
    assert body["username"] == "grace"
    # The address is the account's once its emailed link is followed (test_sign_up_tells_nothing).
    assert (body["email"], body["email_to_confirm"]) == ("", "g@example.com")
    user = User.objects.get(username="grace")
    assert user.check_password(PASSWORD)
    me = client.get(url("me"))
    assert me.status_code == 200
    assert me.json()["id"] == user.pk


def test_register_without_email_is_fine(client: Client) -> None:
    response = post(client, "register", {"username": "grace", "password": PASSWORD})

    assert response.status_code == 201
    assert response.json()["email"] == ""


def test_weak_password_is_refused_with_the_validators_messages(client: Client) -> None:
    response = post(client, "register", {"username": "grace", "password": "12345"})

    error = assert_error(response, 400, "invalid")
    messages = error["fields"]["password"]
    assert any("too short" in m for m in messages)
    assert any("too common" in m for m in messages)
    assert any("entirely numeric" in m for m in messages)
    assert error["message"].startswith("password: ")
    assert not User.objects.filter(username="grace").exists()


def test_password_like_the_username_is_refused(client: Client) -> None:
    """The validators see the would-be user, so similarity to the username counts."""
    response = post(client, "register", {"username": "gracehopper", "password": "gracehopper1"})

    error = assert_error(response, 400, "invalid")
    assert any("too similar to the username" in m for m in error["fields"]["password"])


def test_username_taken_in_another_letter_case_is_refused(client: Client, ada: User) -> None:
    response = post(client, "register", {"username": "ADA", "password": PASSWORD})

    error = assert_error(response, 400, "invalid")
    assert error["fields"]["username"] == [
        "That username is taken, or one differing only in capitals: choose another."
    ]
    assert User.objects.filter(username__iexact="ada").count() == 1
    assert client.get(url("me")).status_code == 401


def test_username_and_password_errors_are_reported_together(client: Client, ada: User) -> None:
    response = post(client, "register", {"username": "Ada", "password": "x"})

    error = assert_error(response, 400, "invalid")
    assert set(error["fields"]) == {"username", "password"}


def test_a_weak_password_is_reported_with_a_malformed_username_and_email(
    client: Client,
) -> None:
    """Every field to fix in one answer: not the password's problems only once the others
    are right."""
    response = post(
        client, "register", {"username": "bad name!", "email": "notanemail", "password": "123"}
    )

    error = assert_error(response, 400, "invalid")
    assert set(error["fields"]) == {"username", "email", "password"}
    assert (
        "This password is too short. It must contain at least 8 characters."
        in (error["fields"]["password"])
    )
    assert User.objects.count() == 0


@pytest.mark.parametrize(
    "username",
    ["grace hopper", "grace!", "", "g" * 151],
    ids=["space", "punctuation", "empty", "too-long"],
)
def test_usernames_outside_djangos_rules_are_refused(client: Client, username: str) -> None:
    response = post(client, "register", {"username": username, "password": PASSWORD})

    error = assert_error(response, 400, "invalid")
    assert "username" in error["fields"]


@pytest.mark.parametrize("username", [".", "..", "._-", "__"])
def test_a_username_of_punctuation_alone_is_refused(client: Client, username: str) -> None:
    response = post(client, "register", {"username": username, "password": PASSWORD})

    error = assert_error(response, 400, "invalid")
    assert error["fields"]["username"] == ["A username needs at least one letter or digit."]
    assert not User.objects.exists()


def test_usernames_may_use_ascii_letters_digits_dot_dash_underscore(client: Client) -> None:
    response = post(client, "register", {"username": "Grace.h-1_navy", "password": PASSWORD})

    assert response.status_code == 201
    assert User.objects.filter(username="Grace.h-1_navy").exists()


CHARACTERS_MESSAGE = (
    "A username uses only the letters A to Z (no accents or other alphabets), digits, and "
    ". - _ (dot, hyphen, underscore)."
)


@pytest.mark.parametrize(
    "username",
    ["\u0430lice1", "al\u0131ce1", "\u00e9lodie", "grace+1", "grace@navy", "\uff41lice1", "ali ce"],
    ids=["cyrillic-a", "dotless-i", "accent", "plus", "at", "fullwidth-a", "space"],
)
def test_a_new_username_outside_ascii_letters_digits_dot_dash_underscore_is_refused(
    client: Client, ada: User, username: str
) -> None:
    """ "alice1" spelt with a Cyrillic a (U+0430) would pass for "alice1" on the
    leaderboards: new names keep to ASCII letters and digits, and the site's own words say
    so."""
    User.objects.create_user(username="alice1", password=PASSWORD)

    response = post(client, "register", {"username": username, "password": PASSWORD})

    error = assert_error(response, 400, "invalid")
    assert error["fields"]["username"] == [CHARACTERS_MESSAGE]
    assert sorted(User.objects.values_list("username", flat=True)) == ["ada", "alice1"]


def test_an_account_named_under_the_older_rule_still_signs_in(client: Client) -> None:
    User.objects.create_user(username="\u00e9lodie+1", password=PASSWORD)

    response = post(client, "login", {"username": "\u00e9lodie+1", "password": PASSWORD})

    assert response.status_code == 200


def test_missing_fields_and_bad_email_are_reported_per_field(client: Client) -> None:
    response = post(client, "register", {"email": "not-an-email"})

    error = assert_error(response, 400, "invalid")
    assert set(error["fields"]) == {"username", "password", "email"}


def test_database_refuses_a_username_differing_only_in_case(ada: User) -> None:
    """The unique index backs the service's check against concurrent registrations."""
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="Ada", password=PASSWORD)


def sign_up(name: str, address: str, password: str = PASSWORD, **extra: str) -> object:
    """A sign-up from a new browser at ``address``."""
    body = {"username": name, "password": password}
    return post(Client(), "register", body, REMOTE_ADDR=address, **extra)


def test_one_address_may_sign_up_thirty_times_an_hour_and_others_are_not_held_back() -> None:
    for n in range(30):
        assert sign_up(f"player{n}", "203.0.113.5").status_code == 201
    error = assert_error(sign_up("one-too-many", "203.0.113.5"), 429, "throttled")
    assert error["message"].startswith("Too many accounts have been created from this address.")
    assert "Try again in" in error["message"]
    assert not User.objects.filter(username="one-too-many").exists()
    assert sign_up("elsewhere", "198.51.100.7").status_code == 201


def test_a_made_up_forwarded_address_does_not_dodge_the_sign_up_limit() -> None:
    for n in range(30):
        assert (
            sign_up(f"player{n}", "203.0.113.5", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}").status_code
            == 201
        )
    refused = sign_up("one-too-many", "203.0.113.5", HTTP_X_FORWARDED_FOR="10.9.9.9")
    assert_error(refused, 429, "throttled")


def test_the_sign_up_refusal_says_when_to_try_again_in_minutes() -> None:
    for n in range(30):
        assert sign_up(f"player{n}", "203.0.113.5").status_code == 201
    refused = sign_up("one-too-many", "203.0.113.5")
    error = assert_error(refused, 429, "throttled")
    assert error["message"] == (
        "Too many accounts have been created from this address. Try again in 60 minutes."
    )
    assert 3590 <= int(refused["Retry-After"]) <= 3600


def test_refused_sign_ups_use_up_the_limit_too() -> None:
    """A refusal is an answer too (the name is taken): refusals were free probes.
    tests/accounts/test_sign_up_tells_nothing.py has the simultaneous sign-ups."""
    assert sign_up("taken", "198.51.100.7").status_code == 201
    for n in range(10):
        assert sign_up(f"weak{n}", "203.0.113.5", password="1").status_code == 400
        assert sign_up("taken", "203.0.113.5").status_code == 400
    for n in range(10):
        assert sign_up(f"player{n}", "203.0.113.5").status_code == 201
    assert_error(sign_up("one-too-many", "203.0.113.5"), 429, "throttled")
