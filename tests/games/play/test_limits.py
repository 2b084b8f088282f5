"""Limits on the costly requests: hints (a search of up to HINT_SECONDS of a worker's CPU) and
game creation, per player, with 429, a stable code and Retry-After; one hint search per player
at a time."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connection
from django.test import override_settings
from rest_framework.test import APIClient

from games.models import Game
from games.play import hint_service as play_hints
from tests.games.helpers import client_for, make_user, new_game
from tests.support.threads import answered, run_in_threads

pytestmark = pytest.mark.django_db(transaction=True)


def limits(settings: Any, **rates: str | None) -> None:
    """Set some of the throttle rates (the others stay as configured)."""
    framework = dict(settings.REST_FRAMEWORK)
    framework["DEFAULT_THROTTLE_RATES"] = {**framework["DEFAULT_THROTTLE_RATES"], **rates}
    settings.REST_FRAMEWORK = framework


def create(client: APIClient) -> Any:
    return client.post("/api/games/", {"variant": "gold-mine", "seed": 3}, format="json")


def hint(client: APIClient, game_id: int) -> Any:
    return client.post(f"/api/games/{game_id}/hint/", {}, format="json")


def assert_throttled(response: Any, code: str = "throttled", most_seconds: int = 60) -> None:
    assert response.status_code == 429, response.content
    assert response.json()["error"]["code"] == code
    assert response["Content-Type"].startswith("application/json")
    assert 1 <= int(response["Retry-After"]) <= most_seconds


def test_the_limits_are_settings_with_defaults() -> None:
    from django.conf import settings

    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    assert rates["game_create"] == f"{settings.GAMES_CREATED_PER_MINUTE}/min"
    assert rates["hint"] == f"{settings.HINTS_PER_MINUTE}/min"
    assert (settings.GAMES_CREATED_PER_MINUTE, settings.HINTS_PER_MINUTE) == (30, 20)


def test_games_created_past_the_limit_are_refused_with_429_and_retry_after(settings) -> None:
    limits(settings, game_create="3/min")
    client = client_for()
    assert [create(client).status_code for _ in range(3)] == [201] * 3
    refused = create(client)
    assert_throttled(refused)
    assert "Try again in" in refused.json()["error"]["message"]
    assert Game.objects.count() == 3
    # Per player: another one still starts games, and reading one's own games is not counted.
    assert create(client_for()).status_code == 201
    assert client.get("/api/games/").status_code == 200


def test_hints_past_the_limit_are_refused_with_429_and_retry_after(settings) -> None:
    limits(settings, hint="2/min")
    settings.HINT_SECONDS = 0  # today's heuristic hint: these tests are about counting
    client = client_for()
    game = new_game(client, "gold-mine", seed=11)
    assert [hint(client, game["id"]).status_code for _ in range(2)] == [200, 200]
    assert_throttled(hint(client, game["id"]))
    assert Game.objects.get(pk=game["id"]).hint_count == 2  # the refused one counts nothing
    other = client_for()
    assert hint(other, new_game(other, "gold-mine", seed=11)["id"]).status_code == 200


def test_a_limit_of_none_turns_it_off(settings) -> None:
    limits(settings, game_create=None)
    client = client_for()
    assert {create(client).status_code for _ in range(40)} == {201}


def test_the_counts_are_kept_per_address_for_callers_without_an_account() -> None:
    """No anonymous caller reaches these views yet (401 first); the throttles count them by
    address, so guests, once they exist, are limited too."""
    from django.contrib.auth.models import AnonymousUser
    from rest_framework.test import APIRequestFactory

    from games.play.throttling import GameCreationThrottle
    from games.play.views import GameListView

    throttle = GameCreationThrottle()
    throttle.scope = GameListView.throttle_scope  # as allow_request sets it
    request = APIRequestFactory().post("/api/games/", REMOTE_ADDR="203.0.113.7")
    request.user = AnonymousUser()
    view = GameListView()
    key = throttle.get_cache_key(request, view)
    assert key is not None and "203.0.113.7" in key
    user = make_user()
    request.user = user
    assert throttle.get_cache_key(request, view) == f"throttle_game_create_{user.pk}"


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="threads on the in-memory SQLite test database lock each other's tables: PostgreSQL",
)
def test_one_hint_search_per_player_at_a_time(settings, monkeypatch) -> None:
    """Eight hints of one player at once: one search runs, the others are refused at once
    with 429 hint_in_progress; every request is answered, none fails."""
    limits(settings, hint=None)
    searching = 0
    most = 0
    lock = threading.Lock()
    real_search = play_hints.lookahead_hint

    def slow_search(*args: Any, **kwargs: Any) -> Any:
        nonlocal searching, most
        with lock:
            searching += 1
            most = max(most, searching)
        try:
            time.sleep(0.5)
            return real_search(*args, **kwargs)
        finally:
            with lock:
                searching -= 1

    monkeypatch.setattr(play_hints, "lookahead_hint", slow_search)
    settings.HINT_SECONDS = 0
    user = make_user()
    game = new_game(client_for(user), "gold-mine", seed=11)
    other = make_user()
    other_game = new_game(client_for(other), "gold-mine", seed=11)

    def ask(index: int) -> tuple[int, Any]:
        if index == 8:  # another player is not held up by the first one's search
            return answered(hint(client_for(other), other_game["id"]))
        return answered(hint(client_for(user), game["id"]))

    answers = run_in_threads(ask, 9, timeout=60)
    statuses = [status for status, _ in answers[:8]]
    assert answers[8][0] == 200
    assert statuses.count(200) >= 1
    refused = [body for status, body in answers[:8] if status != 200]
    assert all(status in (200, 429) for status in statuses), answers
    assert all(body["error"]["code"] == "hint_in_progress" for body in refused), refused
    assert most <= 2  # this player's one search, and the other player's
    # Once the search is over, the next hint is answered.
    assert hint(client_for(user), game["id"]).status_code == 200


def test_a_refused_concurrent_hint_says_when_to_retry(settings) -> None:
    limits(settings, hint=None)
    user = make_user()
    game = new_game(client_for(user), "gold-mine", seed=11)
    with play_hints.one_search_at_a_time(user):
        response = hint(client_for(user), game["id"])
    assert_throttled(response, code="hint_in_progress", most_seconds=5)
    assert hint(client_for(user), game["id"]).status_code == 200  # released


@override_settings(HINT_SECONDS=0)
def test_the_claim_on_a_players_search_is_given_back_when_the_hint_is_refused() -> None:
    client = client_for()
    game = new_game(client, "gold-mine", seed=11)
    assert client.post(f"/api/games/{game['id']}/resign/", format="json").status_code == 200
    assert hint(client, game["id"]).status_code == 409  # finished: no hint
    other = new_game(client, "gold-mine", seed=11)
    assert hint(client, other["id"]).status_code == 200
