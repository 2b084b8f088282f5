"""A player's profile lists their last races that are over, newest first: the game, their
place of how many, how their game ended, the date and the race's page; a race still running
is not listed, and the list costs one query however many races there were."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.races import selectors
from games.races.models import Race
from tests.games.helpers import client_for, make_user
from tests.games.races.helpers import SLUG, first_move, race, started, win

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_countdown(settings: Any) -> None:
    settings.RACE_COUNTDOWN_SECONDS = 0


def profile(name: str) -> dict[str, Any]:
    response = APIClient().get(f"/api/players/{name}/")
    assert response.status_code == 200, response.content
    return response.json()


def finish(clients: list[APIClient], code: str) -> None:
    for client in clients:
        game = race(client, code)["you"]["game"]
        client.post(f"/api/games/{game}/resign/", {}, format="json")
    assert race(clients[0], code)["phase"] == "finished"


def test_a_profile_lists_the_races_that_are_over_with_place_and_result() -> None:
    ada, bo = client_for(make_user("ada")), client_for(make_user("bo"))
    won = started(ada, [bo])
    assert win(ada, won["you"]["game"])["status"] == "won"
    bo_game = race(bo, won["code"])["you"]["game"]
    first_move(bo, bo_game)
    bo.post(f"/api/games/{bo_game}/resign/", {}, format="json")
    assert race(ada, won["code"])["phase"] == "finished"
    running = started(ada, [bo])

    listed = profile("ada")["races"]
    assert [r["code"] for r in listed] == [won["code"]]  # not the one still running
    assert running["code"] not in str(listed)
    entry = listed[0]
    assert entry == {
        "code": won["code"],
        "link": f"/races/{won['code']}/",
        "variant": SLUG,
        "name": "Gold Mine",
        "place": 1,
        "players": 2,
        "standing": "won",
        "ended_at": entry["ended_at"],
    }
    assert entry["ended_at"]
    assert profile("bo")["races"][0]["place"] == 2
    assert profile("bo")["races"][0]["standing"] == "resigned"


def test_the_newest_ten_are_listed_in_one_query(django_assert_max_num_queries: Any) -> None:
    ada, bo = client_for(make_user("ada")), client_for()
    codes = []
    for _ in range(11):
        body = started(ada, [bo])
        finish([ada, bo], body["code"])
        codes.append(body["code"])
    player = Race.objects.get(code=codes[0]).opener
    with django_assert_max_num_queries(1):
        listed = selectors.player_races(player)
    assert [r["code"] for r in listed] == codes[::-1][:10]
