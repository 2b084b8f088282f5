"""A race's writes sent with an ``Idempotency-Key`` (open, quick, join, ready, start, leave,
rematch): a retry gets the first answer again, status included, and the write is applied once;
the same key on another request is 422 ``idempotency_key_reused``."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.races.models import Race, RacePlayer
from tests.games.helpers import client_for
from tests.games.races.helpers import SLUG, open_race, race
from tests.support.api import assert_error

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_countdown(settings: Any) -> None:
    settings.RACE_COUNTDOWN_SECONDS = 0


def keyed(client: APIClient, path: str, key: str, data: Any = None) -> Any:
    return client.post(path, data or {}, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_opening_a_race_retried_with_its_key_opens_one() -> None:
    client = client_for()
    first = keyed(client, "/api/races/", "open-1", {"variant": SLUG})
    again = keyed(client, "/api/races/", "open-1", {"variant": SLUG})
    assert first.status_code == again.status_code == 201
    assert first.json()["code"] == again.json()["code"]
    assert Race.objects.count() == 1
    other = keyed(client, "/api/races/", "open-1", {"variant": "gold-mine", "undo": False})
    assert_error(other, 422, "idempotency_key_reused")


def test_a_quick_race_retried_joins_or_opens_once() -> None:
    client = client_for()
    first = keyed(client, "/api/races/quick/", "quick-1", {"variant": SLUG})
    again = keyed(client, "/api/races/quick/", "quick-1", {"variant": SLUG})
    assert first.status_code == again.status_code == 201
    assert Race.objects.count() == 1


def test_join_ready_start_retried_are_applied_once() -> None:
    opener, other = client_for(), client_for()
    code = open_race(opener)["code"]
    base = f"/api/races/{code}"
    assert keyed(other, f"{base}/join/", "join-1").status_code == 200
    assert keyed(other, f"{base}/join/", "join-1").status_code == 200
    assert RacePlayer.objects.filter(race__code=code).count() == 2

    assert keyed(other, f"{base}/ready/", "ready-1", {"ready": True}).status_code == 200
    other.post(f"{base}/ready/", {"ready": False}, format="json")
    # The retry of "ready" is answered as it was, and does not make the player ready again.
    retried = keyed(other, f"{base}/ready/", "ready-1", {"ready": True})
    assert retried.status_code == 200
    assert [p["ready"] for p in race(opener, code)["players"]] == [False, False]

    started = keyed(opener, f"{base}/start/", "start-1")
    assert started.status_code == 200 and started.json()["phase"] == "running"
    # Without the key a second start is refused; with it, the first answer again.
    assert keyed(opener, f"{base}/start/", "start-1").json() == started.json()
    assert_error(opener.post(f"{base}/start/", {}, format="json"), 409, "race_started")


def test_leaving_retried_is_answered_as_the_first_time() -> None:
    opener, other = client_for(), client_for()
    code = open_race(opener)["code"]
    other.post(f"/api/races/{code}/join/", {}, format="json")
    first = keyed(other, f"/api/races/{code}/leave/", "leave-1")
    assert first.status_code == 200 and first.json()["you"]["joined"] is False
    again = keyed(other, f"/api/races/{code}/leave/", "leave-1")
    assert again.status_code == 200 and again.json() == first.json()
    assert_error(other.post(f"/api/races/{code}/leave/", {}, format="json"), 403, "not_in_race")


def test_a_rematch_retried_is_the_same_new_race_answered_201() -> None:
    opener, other = client_for(), client_for()
    code = open_race(opener)["code"]
    other.post(f"/api/races/{code}/join/", {}, format="json")
    body = opener.post(f"/api/races/{code}/start/", {}, format="json").json()
    for client in (opener, other):
        game = race(client, code)["you"]["game"]
        client.post(f"/api/games/{game}/resign/", {}, format="json")
    assert body["code"] == code
    first = keyed(other, f"/api/races/{code}/rematch/", "rematch-1")
    again = keyed(other, f"/api/races/{code}/rematch/", "rematch-1")
    assert first.status_code == again.status_code == 201
    assert first.json()["code"] == again.json()["code"] != code
    assert Race.objects.count() == 2
