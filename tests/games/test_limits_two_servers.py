"""The limits counted in Redis across two server processes (as in production): requests spread
over both servers spend one budget per player and one per address, and one address's hint
searches at once are capped over both. Every other limits test uses a private in-memory cache;
here the servers' own cache (Redis whenever ``REDIS_URL`` is set) does the counting."""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Iterator
from itertools import cycle

import httpx
import pytest
import redis
from django.db import connection
from rest_framework.authtoken.models import Token

from tests.support.servers import production_env, servers

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        os.environ.get("PATIENCE_REQUIRE_POSTGRES") != "1"
        and (connection.vendor != "postgresql" or not os.environ.get("REDIS_URL")),
        reason="needs PostgreSQL and Redis (CI has both and fails without them)",
    ),
]

#: Every request of these tests comes from here: one address, whichever server takes it.
ADDRESS = "127.0.0.1"
PER_PLAYER, PER_ADDRESS = 4, 6


@pytest.fixture
def two_servers() -> Iterator[list[str]]:
    assert connection.vendor == "postgresql", "the servers share the test's PostgreSQL"
    env = production_env(
        connection.settings_dict,
        "limits-two-servers-key",
        GAMES_CREATED_PER_MINUTE=str(PER_PLAYER),
        GAMES_CREATED_PER_ADDRESS_PER_MINUTE=str(PER_ADDRESS),
        HINTS_PER_MINUTE="3",
        HINTS_PER_ADDRESS_PER_MINUTE="100",
        HINT_SECONDS="0",
        HINT_PROCESSES="0",
    )
    connection.close()  # the servers, not this process, hold the database while they run
    with servers(2, env) as urls:
        yield urls


def forget_counts(*idents: object) -> None:
    """Take this address's and these players' counts out of the servers' Redis: the test
    database's numbering starts again each run, and other tests' servers call from the same
    address within the same minute."""
    store = redis.Redis.from_url(os.environ["REDIS_URL"])
    address = hashlib.sha256(ADDRESS.encode()).hexdigest()[:32]
    for ident in (f"address_{address}", *idents):
        for key in store.scan_iter(match=f"*throttle_*_{ident}:*"):
            store.delete(key)


def a_fresh_window() -> None:
    """Wait, if need be, for a minute with time left: every budget of these tests is a
    minute's, counted in windows of the clock's minutes, and a window that closes mid-test
    would give its counts back."""
    left = 60 - time.time() % 60
    if left < 20:
        time.sleep(left + 0.5)


def player(username: str) -> tuple[int, dict[str, str]]:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(username, password="x")
    return user.pk, {"Authorization": f"Token {Token.objects.create(user=user).key}"}


def start(server: str, auth: dict[str, str]) -> httpx.Response:
    return httpx.post(f"{server}/api/games/", json={"variant": "gold-mine"}, headers=auth)


def test_games_started_on_two_servers_spend_one_budget_per_player_and_per_address(
    two_servers: list[str],
) -> None:
    alice, alice_auth = player("alice")
    bob, bob_auth = player("bob")
    forget_counts(alice, bob)
    a_fresh_window()
    servers_in_turn = cycle(two_servers)
    started = [start(next(servers_in_turn), alice_auth) for _ in range(PER_PLAYER)]
    assert [answer.status_code for answer in started] == [201] * PER_PLAYER
    for server in two_servers:  # her budget is spent on both servers, not on each
        refused = start(server, alice_auth)
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"]["code"] == "throttled"
        assert int(refused.headers["Retry-After"]) >= 1
    # Bob has his own budget of 4, but the address's 6 hold 2 more games, over both servers.
    statuses = [start(next(servers_in_turn), bob_auth).status_code for _ in range(4)]
    assert statuses == [201, 201, 429, 429]


def hint(server: str, auth: dict[str, str], game_id: int) -> httpx.Response:
    return httpx.post(f"{server}/api/games/{game_id}/hint/", json={}, headers=auth)


def test_hints_asked_on_two_servers_spend_one_budget(two_servers: list[str]) -> None:
    carol, auth = player("carol")
    forget_counts(carol)
    a_fresh_window()
    game = start(two_servers[0], auth).json()
    servers_in_turn = cycle(two_servers)
    statuses = [hint(next(servers_in_turn), auth, game["id"]).status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 429, 429]


def test_an_addresss_hint_searches_at_once_are_capped_over_both_servers(
    two_servers: list[str],
) -> None:
    """Two searches held for this address (as two players' searches in progress on either
    server would hold them): a hint asked of either server is refused until one ends."""
    dave, auth = player("dave")
    forget_counts(dave)
    game = start(two_servers[1], auth).json()
    store = redis.Redis.from_url(os.environ["REDIS_URL"])
    address = hashlib.sha256(ADDRESS.encode()).hexdigest()[:32]
    claims = [f":1:games:hint-search-address:{address}:{slot}" for slot in range(2)]
    try:
        for claim in claims:
            assert store.set(claim, 1, ex=60, nx=True), "a claim left over from another test"
        for server in two_servers:
            refused = hint(server, auth, game["id"])
            assert refused.status_code == 429, refused.text
            assert refused.json()["error"]["code"] == "hint_in_progress"
            assert "at your address" in refused.json()["error"]["message"]
        store.delete(claims[0])  # one search ends
        assert hint(two_servers[0], auth, game["id"]).status_code == 200
        assert store.exists(claims[1]) and not store.exists(claims[0])  # given back after
    finally:
        store.delete(*claims)
