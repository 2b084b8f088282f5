"""CSRF: signed-in browser sessions must send the token; token clients and anonymous JSON
sign-ins need none (see accounts/views.py for why)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.accounts.helpers import PASSWORD, assert_error, url

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-brand-new-passphrase"
CHANGE = {"old_password": PASSWORD, "new_password": NEW_PASSWORD}


@pytest.fixture
def browser() -> APIClient:
    """A client that, like a browser, gets no exemption from CSRF checks."""
    return APIClient(enforce_csrf_checks=True)


def sign_in(browser: APIClient) -> None:
    response = browser.post(url("login"), {"username": "ada", "password": PASSWORD}, format="json")
    assert response.status_code == 200


def cookie_token(browser: APIClient) -> str:
    return browser.cookies[settings.CSRF_COOKIE_NAME].value


def test_csrf_endpoint_sets_the_cookie_and_answers_a_token(browser: APIClient) -> None:
    response = browser.get(url("csrf"))

    assert response.status_code == 200
    assert response.json()["csrf_token"]
    assert settings.CSRF_COOKIE_NAME in response.cookies


def test_csrf_endpoint_works_with_a_stale_token_header(browser: APIClient) -> None:
    response = browser.get(url("csrf"), HTTP_AUTHORIZATION="Token stale")

    assert response.status_code == 200


def test_anonymous_json_login_needs_no_csrf_token(browser: APIClient, ada: User) -> None:
    sign_in(browser)

    assert browser.get(url("me")).status_code == 200


def test_a_cross_site_form_cannot_sign_in(browser: APIClient, ada: User) -> None:
    """HTML forms can't send JSON: their encodings are refused, so login CSRF needs a preflight."""
    response = browser.post(url("login"), {"username": "ada", "password": PASSWORD})

    assert_error(response, 415, "unsupported_media_type")
    response = browser.post(
        url("login"), '{"username": "ada", "password": "x"}', content_type="text/plain"
    )
    assert_error(response, 415, "unsupported_media_type")


def test_session_post_without_csrf_token_is_refused(browser: APIClient, ada: User) -> None:
    sign_in(browser)

    response = browser.post(url("password"), CHANGE, format="json")

    error = assert_error(response, 403, "csrf_failed")
    assert "CSRF" in error["message"]
    ada.refresh_from_db()
    assert ada.check_password(PASSWORD)


def test_session_post_with_csrf_token_works(browser: APIClient, ada: User) -> None:
    sign_in(browser)

    response = browser.post(
        url("password"), CHANGE, format="json", HTTP_X_CSRFTOKEN=cookie_token(browser)
    )

    assert response.status_code == 204
    assert browser.get(url("me")).status_code == 200


def test_sign_in_rotates_the_csrf_token(browser: APIClient, ada: User) -> None:
    before = browser.get(url("csrf")).json()["csrf_token"]
    sign_in(browser)

    stale = browser.post(url("password"), CHANGE, format="json", HTTP_X_CSRFTOKEN=before)
    assert_error(stale, 403, "csrf_failed")
    fresh = browser.get(url("csrf")).json()["csrf_token"]
    response = browser.post(url("password"), CHANGE, format="json", HTTP_X_CSRFTOKEN=fresh)
    assert response.status_code == 204


def test_a_cross_site_post_cannot_sign_a_session_out(browser: APIClient, ada: User) -> None:
    sign_in(browser)

    assert_error(browser.post(url("logout")), 403, "csrf_failed")
    assert browser.get(url("me")).status_code == 200
    token = cookie_token(browser)
    assert browser.post(url("logout"), HTTP_X_CSRFTOKEN=token).status_code == 204


def test_token_requests_need_no_csrf_token(browser: APIClient, ada: User) -> None:
    key = Token.objects.create(user=ada).key

    response = browser.delete(url("token"), HTTP_AUTHORIZATION=f"Token {key}")

    assert response.status_code == 204


def register(browser: APIClient, username: str = "grace") -> None:
    response = browser.post(
        url("register"), {"username": username, "password": PASSWORD}, format="json"
    )
    assert response.status_code == 201


def test_a_script_that_registers_then_asks_for_a_token_gets_one(browser: APIClient) -> None:
    """Registering leaves a session cookie in the client; asking for a token signs in with the
    body alone, so that cookie brings no CSRF check."""
    register(browser)

    response = browser.post(
        url("token"), {"username": "grace", "password": PASSWORD}, format="json"
    )

    assert response.status_code == 200, response.content
    key = response.json()["token"]
    assert Token.objects.get(user__username="grace").key == key


def test_asking_for_a_token_with_a_session_cookie_checks_only_the_body(
    browser: APIClient, ada: User
) -> None:
    register(browser)

    wrong = browser.post(url("token"), {"username": "ada", "password": "nope"}, format="json")

    assert_error(wrong, 400, "invalid_credentials")
    assert not Token.objects.exists()


def test_revoking_the_token_over_a_session_still_needs_the_csrf_token(
    browser: APIClient, ada: User
) -> None:
    sign_in(browser)
    Token.objects.create(user=ada)

    assert_error(browser.delete(url("token")), 403, "csrf_failed")
    assert Token.objects.filter(user=ada).exists()
    response = browser.delete(url("token"), HTTP_X_CSRFTOKEN=cookie_token(browser))
    assert response.status_code == 204
    assert not Token.objects.filter(user=ada).exists()


@pytest.mark.parametrize("name", ["login", "register"])
def test_a_session_write_without_the_csrf_token_says_what_to_send(
    browser: APIClient, ada: User, name: str
) -> None:
    """Signing in or up over a signed-in session keeps its CSRF check, refused with a stable
    code and words saying what to send, not DRF's "CSRF Failed: CSRF token missing."."""
    register(browser)

    data = {"username": "ada" if name == "login" else "hopper", "password": PASSWORD}
    error = assert_error(browser.post(url(name), data, format="json"), 403, "csrf_failed")

    assert "CSRF Failed" not in error["message"]
    assert "GET /api/auth/csrf/" in error["message"]
    assert "X-CSRFToken" in error["message"] and "Authorization: Token" in error["message"]
    assert error["reason"] == "CSRF token missing."
    assert not User.objects.filter(username="hopper").exists()
    assert browser.get(url("me")).json()["username"] == "grace"


def test_a_session_write_from_another_sites_page_says_so(browser: APIClient, ada: User) -> None:
    sign_in(browser)

    response = browser.post(
        url("logout"),
        HTTP_X_CSRFTOKEN=cookie_token(browser),
        HTTP_ORIGIN="https://elsewhere.example",
    )

    error = assert_error(response, 403, "csrf_failed")
    assert "does not come from this site's own pages" in error["message"]
    assert error["reason"].startswith("Origin checking failed")
    assert browser.get(url("me")).status_code == 200
