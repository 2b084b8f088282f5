"""A page never writes as another account than the one it was opened as.

Every page of a browser shares its one session cookie. The site's pages send the account they
were opened as (``X-Patience-Account``, from ``<html data-user>``) with every unsafe request;
after the browser signed in as someone else (or out) in another tab, such a request is refused
with 409 ``account_changed`` and changes nothing. Scripts (no header, or a token) go on.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from games.core import days
from games.models import Game
from tests.accounts.helpers import PASSWORD, assert_error, login, post, url

pytestmark = pytest.mark.django_db

HEADER = "HTTP_X_PATIENCE_ACCOUNT"


def as_page_of(username: str) -> dict[str, str]:
    """What api.js adds to an unsafe request from a page opened as ``username``."""
    return {HEADER: quote(username, safe="")}


@pytest.fixture
def other(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("other", email="", password=PASSWORD)


@pytest.fixture
def switched(signed_in: Client, other: User) -> Client:
    """The audit's browser: pages opened as ada, then, in a new tab, signed in as other."""
    assert login(signed_in, "other").status_code == 200
    return signed_in


def save_email(client: Client, email: str, **extra: str):
    return client.patch(
        url("me"),
        {"email": email, "password": PASSWORD},
        content_type="application/json",
        **extra,
    )


def test_an_old_pages_email_save_is_refused_and_changes_no_account(
    switched: Client, ada: User, other: User
) -> None:
    response = save_email(switched, "x@example.org", **as_page_of("ada"))

    error = assert_error(response, 409, "account_changed")
    assert error["message"] == (
        "This page belongs to ada, but this browser is now signed in as other: nothing was "
        "changed. Reload the page to go on as other."
    )
    assert error["page_account"] == "ada" and error["signed_in_as"] == "other"
    other.refresh_from_db()
    ada.refresh_from_db()
    assert other.email == "" and ada.email == "ada@example.com"
    assert switched.get(url("me")).json()["username"] == "other"  # still signed in as other


def test_an_old_pages_ranked_start_is_refused_and_starts_nothing(
    switched: Client, other: User
) -> None:
    path = f"/api/daily/{days.today().isoformat()}/gold-mine/attempt/"

    response = switched.post(path, HTTP_IDEMPOTENCY_KEY="k1", **as_page_of("ada"))

    assert_error(response, 409, "account_changed")
    assert not Game.objects.exists()
    # A page opened as other starts other's attempt.
    assert switched.post(path, **as_page_of("other")).status_code == 201
    assert Game.objects.get().owner == other


def test_an_old_pages_sign_out_is_refused(switched: Client) -> None:
    assert_error(post(switched, "logout", **as_page_of("ada")), 409, "account_changed")
    assert switched.get(url("me")).json()["username"] == "other"


def test_a_page_of_the_signed_in_account_writes(signed_in: Client, ada: User) -> None:
    response = save_email(signed_in, "new@example.org", **as_page_of("ada"))

    assert response.status_code == 200
    ada.refresh_from_db()
    assert ada.email == "new@example.org"


def test_a_username_outside_ascii_travels_percent_encoded(
    client: Client, django_user_model: type[User]
) -> None:
    django_user_model.objects.create_user("zoë+1", password=PASSWORD)
    assert login(client, "zoë+1").status_code == 200

    assert save_email(client, "z@example.org", **as_page_of("zoë+1")).status_code == 200
    assert_error(save_email(client, "z@example.org", **as_page_of("zoe+1")), 409, "account_changed")


def test_a_page_opened_signed_out_cannot_sign_in_over_another_sign_in(
    signed_in: Client, other: User
) -> None:
    """A sign-in form left open while the browser signed in elsewhere: reloading it shows who
    is signed in (and how to sign out) rather than switching accounts unseen."""
    response = login(signed_in, "other", **as_page_of(""))

    error = assert_error(response, 409, "account_changed")
    assert error["message"].startswith("This page was opened signed out, but this browser is now")
    assert error["signed_in_as"] == "ada"
    assert signed_in.get(url("me")).json()["username"] == "ada"
    register = {"username": "newcomer", "password": PASSWORD}
    assert_error(post(signed_in, "register", register, **as_page_of("")), 409, "account_changed")
    assert not User.objects.filter(username="newcomer").exists()


def test_a_page_opened_signed_out_signs_in(client: Client, ada: User) -> None:
    assert login(client, **as_page_of("")).status_code == 200
    assert client.session[SESSION_KEY] == str(ada.pk)


def test_a_page_whose_browser_signed_out_since_is_told_so(client: Client, ada: User) -> None:
    error = assert_error(
        save_email(client, "x@example.org", **as_page_of("ada")), 409, "account_changed"
    )

    assert error["message"] == (
        "This page belongs to ada, but this browser is now signed out: nothing was changed. "
        "Reload the page."
    )
    assert error["signed_in_as"] is None


def test_reads_are_not_checked(switched: Client) -> None:
    response = switched.get(url("me"), **as_page_of("ada"))

    assert response.status_code == 200 and response.json()["username"] == "other"


def test_requests_without_the_header_are_not_checked(switched: Client, other: User) -> None:
    """Other clients of the session (scripts, the API docs page) name no page."""
    assert save_email(switched, "o@example.org").status_code == 200
    other.refresh_from_db()
    assert other.email == "o@example.org"


def test_token_requests_are_unaffected(ada: User, other: User) -> None:
    key = post(Client(), "token", {"username": "ada", "password": PASSWORD}).json()["token"]
    browser = Client()
    assert login(browser, "other").status_code == 200  # and a session of someone else

    response = save_email(
        browser, "t@example.org", HTTP_AUTHORIZATION=f"Token {key}", **as_page_of("whoever")
    )

    assert response.status_code == 200 and response.json()["username"] == "ada"


def test_csrf_is_still_checked_first(ada: User) -> None:
    browser = APIClient(enforce_csrf_checks=True)
    assert login(browser, **as_page_of("")).status_code == 200

    response = browser.patch(
        url("me"), {"email": "x@example.org"}, format="json", **as_page_of("x")
    )

    assert_error(response, 403, "csrf_failed")
