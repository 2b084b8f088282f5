"""Staff who review a game of a race not over are told the race's reason, not a daily's: the
review API's 404 not_yet, the admin's review page, and the game's seed and snapshot in the
admin ("hidden until the race ends"). Once the race is over, the game shows."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.models import Game
from tests.games.helpers import assert_error, client_for
from tests.games.races.helpers import first_move, race, started

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_countdown(settings: Any) -> None:
    settings.RACE_COUNTDOWN_SECONDS = 0


@pytest.fixture
def racing() -> tuple[Game, dict[str, Any], list[Any]]:
    ada, bo = client_for(), client_for()
    body = started(ada, [bo])
    game_id = body["you"]["game"]
    first_move(ada, game_id)
    return Game.objects.select_related("deal").get(pk=game_id), body, [ada, bo]


def test_the_review_api_says_a_race_game_shows_once_the_race_ends(
    staff_client: Client, racing: Any
) -> None:
    game, _, _ = racing
    error = assert_error(staff_client.get(f"/api/staff/games/{game.pk}/review/"), 404, "not_yet")
    assert "race not over" in error["message"] and "day" not in error["message"]


def test_the_admin_pages_give_the_race_as_the_reason(staff_client: Client, racing: Any) -> None:
    game, _, _ = racing
    review = staff_client.get(f"/admin/games/game/{game.pk}/review/", follow=True).content
    assert "once the race ends" in review.decode() and "still open" not in review.decode()
    page = staff_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "hidden until the race ends" in page and "hidden until the day closes" not in page
    assert '"face_down"' not in page


def test_once_the_race_is_over_staff_review_it(staff_client: Client, racing: Any) -> None:
    game, body, clients = racing
    for client in clients:
        own = race(client, body["code"])["you"]["game"]
        client.post(f"/api/games/{own}/resign/", {}, format="json")
    assert race(clients[0], body["code"])["phase"] == "finished"
    reviewed = staff_client.get(f"/api/staff/games/{game.pk}/review/")
    assert reviewed.status_code == 200, reviewed.content
    page = staff_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "hidden until the race ends" not in page
