"""With DEBUG on (``bin/run``), the API still answers every error as JSON, and no error page
shows a game's hidden cards: Django's debug pages list routes and local variables."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from games.models import Game
from games.play import services as play_services
from tests.games.helpers import assert_error, client_for, crash_tolerant, new_game
from tests.web.urls_debug import HIDDEN

pytestmark = [pytest.mark.django_db, pytest.mark.urls("config.urls")]


@pytest.fixture(autouse=True)
def debug_on():
    with override_settings(DEBUG=True):
        yield


@pytest.mark.parametrize(
    "path",
    [
        "/api/games/-1/",
        "/api/games/abc/",
        "/api/nonexistent/",
        "/api/daily/2026-02-30/gold-mine/",
        "/api/players/a%2Fb/",
    ],
)
def test_a_path_no_route_takes_is_a_json_404(path: str) -> None:
    response = client_for().get(path)
    assert_error(response, 404, "not_found")


def test_a_path_without_its_final_slash_is_sent_on_for_a_read_and_named_for_a_write() -> None:
    client = client_for()
    response = client.get("/api/games?status=playing")
    assert response.status_code == 301
    assert response["Location"] == "/api/games/?status=playing"
    body = assert_error(client.post("/api/games", {"variant": "gold-mine"}, format="json"), 404)
    assert "/api/games/" in body["message"]


def test_a_server_error_is_json_and_shows_nothing_of_the_game(monkeypatch) -> None:
    client = crash_tolerant(client_for())
    game = new_game(client, "gold-mine", seed=77)
    seed = Game.objects.get(pk=game["id"]).deal.seed

    def fails(**kwargs):
        state = {"seed": seed}  # a local variable a debug page would have shown
        raise RuntimeError(f"the store went away ({len(state)})")

    monkeypatch.setattr(play_services, "play_move", fails)
    response = client.post(
        f"/api/games/{game['id']}/moves/", {"move": {"type": "deal"}}, format="json"
    )
    assert_error(response, 500, "server_error")
    assert str(seed) not in response.content.decode()


@pytest.mark.urls("tests.web.urls_debug")
def test_a_pages_debug_error_page_shows_no_local_variables() -> None:
    response = Client(raise_request_exception=False).get("/failing-page/")
    assert response.status_code == 500
    page = response.content.decode()
    assert "RuntimeError" in page  # Django's debug page, with its traceback
    assert HIDDEN not in page
