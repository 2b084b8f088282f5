"""Repeated failed sign-ins are throttled within 15 minutes: 5 per username from one address,
50 per username from all addresses, 20 per address."""

from __future__ import annotations

import hashlib
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client, override_settings
from pytest_django.fixtures import Settings

from accounts import throttling
from accounts.throttling import KEY_PREFIX, LoginGuard, LoginThrottled
from tests.accounts.helpers import PASSWORD, assert_error, login, post
from tests.support.clock import ManualClock

pytestmark = pytest.mark.django_db


def fail(client: Client, times: int, username: str = "ada", **extra: object) -> None:
    for _ in range(times):
        assert_error(login(client, username, "wrong-password", **extra), 400, "invalid_credentials")


def test_sixth_attempt_after_five_failures_is_throttled_even_with_the_right_password(
    client: Client, ada: User
) -> None:
    fail(client, 5)

    response = login(client)

    error = assert_error(response, 429, "throttled")
    assert "Try again in 15 minutes" in error["message"]
    assert 890 <= int(response["Retry-After"]) <= 900
    assert client.get("/api/auth/me/").status_code == 401


def test_failures_count_regardless_of_username_case(client: Client, ada: User) -> None:
    for username in ["ada", "ADA", "Ada", "aDa", "adA"]:
        fail(client, 1, username)

    assert_error(login(client, "ada"), 429, "throttled")


def test_other_usernames_are_not_throttled_by_one_usernames_failures(
    client: Client, ada: User, django_user_model: type[User]
) -> None:
    django_user_model.objects.create_user(username="grace", password=PASSWORD)
    fail(client, 5)

    assert login(client, "grace").status_code == 200


def test_twenty_failures_from_one_ip_throttle_every_username_from_it(
    client: Client, ada: User
) -> None:
    for n in range(20):
        fail(client, 1, f"guess{n}")

    assert_error(login(client), 429, "throttled")
    # Another address is unaffected.
    assert login(client, REMOTE_ADDR="192.0.2.7").status_code == 200


def test_a_successful_login_clears_the_usernames_failures(client: Client, ada: User) -> None:
    fail(client, 4)
    assert login(client).status_code == 200

    fail(client, 4)

    assert login(client).status_code == 200


def test_attempts_refused_by_the_throttle_do_not_count_toward_the_ip_limit(
    client: Client, ada: User, django_user_model: type[User]
) -> None:
    django_user_model.objects.create_user(username="grace", password=PASSWORD)
    fail(client, 5, "grace")
    for _ in range(30):
        assert_error(login(client, "grace", "wrong-password"), 429, "throttled")

    # 5 real failures from this IP so far, far below 20.
    assert login(client).status_code == 200


def test_the_token_endpoint_shares_the_throttle(client: Client, ada: User) -> None:
    fail(client, 3)
    for _ in range(2):
        response = post(client, "token", {"username": "ada", "password": "wrong-password"})
        assert_error(response, 400, "invalid_credentials")

    response = post(client, "token", {"username": "ada", "password": PASSWORD})

    assert_error(response, 429, "throttled")
    assert "Retry-After" in response
    assert_error(login(client), 429, "throttled")


def test_limits_come_from_settings(client: Client, ada: User, settings: Settings) -> None:
    settings.LOGIN_FAILURE_LIMIT = 2

    fail(client, 2)

    assert_error(login(client), 429, "throttled")


def test_ip_limit_comes_from_settings(client: Client, ada: User, settings: Settings) -> None:
    settings.LOGIN_FAILURE_IP_LIMIT = 3
    for n in range(3):
        fail(client, 1, f"guess{n}")

    assert_error(login(client), 429, "throttled")


def test_attempts_are_allowed_again_once_the_window_closes(
    client: Client, ada: User, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Retry-After is worked out on a clock that stands still (the answer does not depend on
    # the machine's speed); the window itself closes by the cache's own expiry, in real time.
    monkeypatch.setattr(throttling, "time", ManualClock())
    settings.LOGIN_FAILURE_WINDOW = 4
    fail(client, 5)
    response = login(client)
    assert_error(response, 429, "throttled")
    assert response["Retry-After"] == "4"
    assert "Try again in 4 seconds" in response.json()["error"]["message"]

    time.sleep(4.1)  # at least the window: the cache has let the count go

    assert login(client).status_code == 200


def test_the_window_opens_at_the_first_failure(
    client: Client, ada: User, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Later failures don't push the window's end back, so Retry-After only shrinks."""
    clock = ManualClock()
    monkeypatch.setattr(throttling, "time", clock)
    settings.LOGIN_FAILURE_WINDOW = 30
    fail(client, 1)
    clock.advance(11.2)
    fail(client, 4)

    response = login(client)

    assert_error(response, 429, "throttled")
    assert response["Retry-After"] == "19"


def test_failures_are_counted_in_djangos_cache(client: Client, ada: User) -> None:
    """The configured cache (Redis in production) is what every server process shares."""
    fail(client, 2, "Ada")

    username_digest = hashlib.sha256(b"ada").hexdigest()
    assert cache.get(f"{KEY_PREFIX}:user:{username_digest}") == 2


def test_wrong_old_passwords_count_toward_the_throttle(signed_in: Client) -> None:
    for _ in range(5):
        response = post(
            signed_in, "password", {"old_password": "guess", "new_password": "a-new-passphrase"}
        )
        assert_error(response, 400, "invalid")

    response = post(
        signed_in, "password", {"old_password": PASSWORD, "new_password": "a-new-passphrase"}
    )

    assert_error(response, 429, "throttled")


def parallel_guesses(addresses: list[str]) -> int:
    """How many of simultaneous guesses at "ada", one from each address, get as far as a
    password check."""
    barrier = threading.Barrier(len(addresses))

    def attempt(address: str) -> bool:
        guard = LoginGuard(username="ada", client_ip=address)
        barrier.wait()
        try:
            guard.reserve()
        except LoginThrottled:
            return False
        return True  # a wrong password: the reservation stands as the failure

    with ThreadPoolExecutor(max_workers=len(addresses)) as pool:
        return list(pool.map(attempt, addresses)).count(True)


def test_parallel_guesses_from_one_address_cannot_overtake_the_limit() -> None:
    """Each attempt is counted before its password is checked, so of 40 simultaneous guesses
    at one username from one address only 5 get as far as a password check."""
    assert parallel_guesses(["198.51.100.1"] * 40) == 5


def test_parallel_guesses_from_many_addresses_cannot_overtake_the_account_limit() -> None:
    assert parallel_guesses([f"198.51.100.{n}" for n in range(80)]) == 50


def test_a_strangers_failures_do_not_lock_the_owner_out_from_another_address(
    client: Client, ada: User
) -> None:
    fail(client, 5, REMOTE_ADDR="203.0.113.9")

    assert_error(login(client, REMOTE_ADDR="203.0.113.9"), 429, "throttled")
    assert login(client, REMOTE_ADDR="192.0.2.7").status_code == 200


def test_failures_spread_over_many_addresses_lock_the_account_everywhere(
    client: Client, ada: User, django_user_model: type[User]
) -> None:
    django_user_model.objects.create_user(username="grace", password=PASSWORD)
    for n in range(10):
        fail(client, 5, REMOTE_ADDR=f"203.0.113.{n}")

    response = login(client, REMOTE_ADDR="192.0.2.7")

    error = assert_error(response, 429, "throttled")
    assert "Try again in 15 minutes" in error["message"]
    # Only that account: the addresses' own allowances are not used up.
    assert login(client, "grace", REMOTE_ADDR="203.0.113.0").status_code == 200


def test_the_account_limit_comes_from_settings(
    client: Client, ada: User, settings: Settings
) -> None:
    settings.LOGIN_FAILURE_ACCOUNT_LIMIT = 3
    for n in range(3):
        fail(client, 1, REMOTE_ADDR=f"203.0.113.{n}")

    assert_error(login(client, REMOTE_ADDR="192.0.2.7"), 429, "throttled")


def test_a_successful_login_keeps_the_account_wide_failures(client: Client, ada: User) -> None:
    """Else a guesser spread over many addresses would get a fresh allowance whenever the owner
    signs in."""
    for n in range(9):
        fail(client, 5, REMOTE_ADDR=f"203.0.113.{n}")
    assert login(client, REMOTE_ADDR="192.0.2.7").status_code == 200

    fail(client, 5, REMOTE_ADDR="203.0.113.9")

    assert_error(login(client, REMOTE_ADDR="192.0.2.7"), 429, "throttled")


# Port 1 on this host: refused at once, as a Redis that is down.
UNREACHABLE_REDIS = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
    }
}


@pytest.mark.parametrize("name", ["login", "token", "register"])
def test_with_the_counts_store_unreachable_sign_in_is_refused_for_a_moment_not_a_500(
    client: Client, ada: User, name: str
) -> None:
    body = {"username": "ada" if name != "register" else "bea", "password": PASSWORD}
    with override_settings(CACHES=UNREACHABLE_REDIS):
        response = post(client, name, body)
    error = assert_error(response, 503, "service_unavailable")
    assert error["message"] == (
        "This part of the service is unavailable for a moment. Try again shortly."
    )
    assert response["Retry-After"] == "30"
    assert client.get("/api/auth/me/").status_code in (401, 403)
    assert not User.objects.filter(username="bea").exists()
