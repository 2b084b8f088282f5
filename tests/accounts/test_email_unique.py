"""One account per email address: sign-up and the email change refuse an address another
account has (in any letter case, whatever spaces surround it); a blank address stays allowed
for any number of accounts. The database backs the check (migration 0003), unless an older
database already held duplicates, which the migration then leaves alone."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from accounts import services
from tests.accounts.helpers import PASSWORD, assert_error, post, url

pytestmark = pytest.mark.django_db

TAKEN = "Another account already has this email address."
INDEX = "accounts_email_ci_uniq"


def sign_up(client: Client, username: str, email: str) -> Any:
    return post(client, "register", {"username": username, "password": PASSWORD, "email": email})


def save_email(client: Client, email: str) -> Any:
    return client.patch(
        url("me"), {"email": email, "password": PASSWORD}, content_type="application/json"
    )


@pytest.mark.parametrize("email", ["ada@example.com", "ADA@Example.COM", "  Ada@example.com "])
def test_a_sign_up_with_an_address_another_account_has_leaves_it_with_its_owner(
    client: Client, ada: User, email: str
) -> None:
    """Sign-up never says that another account has an address
    (tests/accounts/test_sign_up_tells_nothing.py): the account is made without it."""
    response = sign_up(client, "grace", email)

    assert response.status_code == 201
    assert User.objects.get(username="grace").email == ""
    assert User.objects.filter(email__iexact="ada@example.com").count() == 1


def test_a_taken_username_is_reported_and_a_taken_address_is_not(client: Client, ada: User) -> None:
    error = assert_error(sign_up(client, "Ada", "ada@example.com"), 400, "invalid")

    assert error["fields"] == {"username": [services.USERNAME_TAKEN_MESSAGE]}


def test_any_number_of_accounts_may_have_no_address(client: Client) -> None:
    for name in ("grace", "hopper", "lovelace"):
        assert sign_up(Client(), name, "").status_code == 201
    assert post(Client(), "register", {"username": "babbage", "password": PASSWORD}).status_code
    assert User.objects.filter(email="").count() == 4


def test_a_new_address_is_confirmed_without_its_surrounding_spaces(client: Client) -> None:
    answer = sign_up(client, "grace", "  grace@example.com ").json()
    assert answer["email_to_confirm"] == "grace@example.com"


@pytest.mark.parametrize("email", ["ada@example.com", "Ada@EXAMPLE.com ", " ADA@example.com"])
def test_changing_to_an_address_another_account_has_is_refused_and_changes_nothing(
    client: Client, ada: User, django_user_model: type[User], email: str
) -> None:
    grace = django_user_model.objects.create_user("grace", "grace@example.com", PASSWORD)
    client.force_login(grace)

    error = assert_error(save_email(client, email), 400, "invalid")

    assert error["fields"] == {"email": [TAKEN]}
    grace.refresh_from_db()
    assert grace.email == "grace@example.com"
    assert client.get(url("me")).json()["email"] == "grace@example.com"


def test_a_player_may_save_their_own_address_again_in_another_letter_case(
    signed_in: Client, ada: User
) -> None:
    assert save_email(signed_in, "ada@example.com").json()["email"] == "ada@example.com"
    assert save_email(signed_in, " Ada@Example.com ").json()["email"] == "Ada@example.com"
    ada.refresh_from_db()
    assert ada.email == "Ada@example.com"


def test_several_players_may_remove_their_address(
    signed_in: Client, ada: User, django_user_model: type[User]
) -> None:
    django_user_model.objects.create_user("grace", "", PASSWORD)
    assert save_email(signed_in, "").json()["email"] == ""
    assert User.objects.filter(email="").count() == 2


def test_the_database_refuses_an_address_differing_only_in_case(ada: User) -> None:
    """The unique index backs the services' checks against simultaneous sign-ups."""
    User.objects.create_user("nobody1", email="", password=PASSWORD)
    User.objects.create_user("nobody2", email="", password=PASSWORD)  # blank: never a clash
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("grace", email="ADA@example.com", password=PASSWORD)


def test_a_confirmation_that_loses_the_race_for_an_address_is_refused_on_its_field(
    client: Client, ada: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check passed (another account took the address just after it): the index refuses
    the save, and the answer names the address."""
    grace = User.objects.create_user("grace", password=PASSWORD)
    token = services.confirmation_token(grace, "ADA@example.com")
    monkeypatch.setattr(services, "email_is_taken", lambda email, **kw: False)

    error = assert_error(post(client, "email-confirm", {"token": token}), 400, "invalid")

    assert error["fields"] == {"email": [TAKEN]}
    grace.refresh_from_db()
    assert grace.email == ""


def test_an_email_change_that_loses_the_race_is_refused_on_its_field(
    client: Client, ada: User, django_user_model: type[User], monkeypatch: pytest.MonkeyPatch
) -> None:
    grace = django_user_model.objects.create_user("grace", "grace@example.com", PASSWORD)
    client.force_login(grace)
    monkeypatch.setattr(services, "email_is_taken", lambda email, **kw: False)

    error = assert_error(save_email(client, "ada@EXAMPLE.com"), 400, "invalid")

    assert error["fields"] == {"email": [TAKEN]}
    grace.refresh_from_db()
    assert grace.email == "grace@example.com"


def _indexes() -> set[str]:
    with connection.cursor() as cursor:
        return set(connection.introspection.get_constraints(cursor, "auth_user"))


@pytest.mark.django_db(transaction=True)
def test_the_migration_leaves_the_index_out_over_existing_duplicates_and_does_not_fail(
    capsys: pytest.CaptureFixture[str],
) -> None:
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes("accounts")
    executor.migrate([("accounts", "0002_user_sessions")])
    try:
        assert INDEX not in _indexes()
        # Made before one address per account was the rule.
        User.objects.create_user("ada", email="ada@example.com", password=PASSWORD)
        User.objects.create_user("ada2", email="ADA@example.com", password=PASSWORD)

        executor = MigrationExecutor(connection)
        executor.migrate(latest)

        assert INDEX not in _indexes()
        assert "1 email address(es) are on more than one account" in capsys.readouterr().err
        # The service still gives that address to no new account.
        assert sign_up(Client(), "grace", "ada@example.com").status_code == 201
        assert User.objects.get(username="grace").email == ""
    finally:
        User.objects.all().delete()
        executor = MigrationExecutor(connection)
        executor.migrate([("accounts", "0002_user_sessions")])
        executor = MigrationExecutor(connection)
        executor.migrate(latest)
    assert INDEX in _indexes()


def test_staff_cannot_give_a_player_an_address_another_account_has(
    client: Client, ada: User, django_user_model: type[User]
) -> None:
    boss = django_user_model.objects.create_superuser("boss", "boss@example.org", "pw")
    grace = django_user_model.objects.create_user("grace", "grace@example.com", PASSWORD)
    client.force_login(boss)
    form = {
        "username": "grace",
        "email": "ADA@example.com",
        "is_active": "on",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "00:00:00",
    }

    page = client.post(f"/admin/auth/user/{grace.pk}/change/", form)

    assert page.status_code == 200  # the form again, with its error; not a server error
    assert TAKEN in page.content.decode()
    grace.refresh_from_db()
    assert grace.email == "grace@example.com"
    form["email"] = "Grace@example.com"  # the player's own, in another case: fine
    assert client.post(f"/admin/auth/user/{grace.pk}/change/", form).status_code == 302
    grace.refresh_from_db()
    assert grace.email == "Grace@example.com"
