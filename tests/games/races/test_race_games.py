"""A race's game as its player's API answers it: it names its race (code, link, rules) and
nothing of the other players; undo as the room says; and a game over before the race is keeps
its deal's number and its replay's hidden cards until the race ends."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.races.models import Race
from tests.games.helpers import client_for, make_user
from tests.games.hidden_cards import named_cards
from tests.games.races.helpers import first_move, race, started

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_countdown(settings: Any) -> None:
    settings.RACE_COUNTDOWN_SECONDS = 0


def test_a_race_game_names_its_race_and_nothing_of_the_others() -> None:
    ada, bo = client_for(make_user("ada")), client_for(make_user("bo"))
    body = started(ada, [bo])
    game = ada.get(f"/api/games/{body['you']['game']}/").json()
    code = body["code"]
    assert game["race"] == {"code": code, "link": f"/races/{code}/", "undo": True, "hints": False}
    assert "bo" not in json.dumps(game["race"])
    moved = first_move(ada, game["id"]).json()
    assert moved["race"]["code"] == code and moved["can_undo"] is True


def test_a_game_in_no_race_says_so() -> None:
    client = client_for()
    game = client.post("/api/games/", {"variant": "gold-mine"}, format="json").json()
    assert game["race"] is None


def test_a_game_of_a_room_without_undo_never_offers_it() -> None:
    ada, bo = client_for(), client_for()
    body = started(ada, [bo], undo=False)
    moved = first_move(ada, body["you"]["game"]).json()
    assert moved["race"]["undo"] is False and moved["can_undo"] is False
    assert ada.get(f"/api/games/{moved['id']}/").json()["can_undo"] is False


def test_a_game_over_before_its_race_keeps_the_deal_hidden_until_the_race_ends() -> None:
    ada, bo = client_for(make_user("ada")), client_for(make_user("bo"))
    body = started(ada, [bo])
    ada_game = body["you"]["game"]
    bo_game = race(bo, body["code"])["you"]["game"]
    assert first_move(ada, ada_game).status_code == 201
    resigned = ada.post(f"/api/games/{ada_game}/resign/", {}, format="json").json()
    assert resigned["status"] == "resigned" and resigned["seed"] is None
    assert ada.get(f"/api/games/{ada_game}/").json()["seed"] is None
    listed = ada.get("/api/games/?status=finished").json()["results"]
    assert [g["seed"] for g in listed if g["id"] == ada_game] == [None]
    # Its replay shows no more than the player saw: the face-down cards stay down.
    before = ada.get(f"/api/games/{ada_game}/replay/?step=0").json()
    seed = Race.objects.select_related("deal").get(code=body["code"]).deal.seed
    # Once the race is over, the deal is everyone's.
    assert bo.post(f"/api/games/{bo_game}/resign/", {}, format="json").status_code == 200
    assert race(ada, body["code"])["phase"] == "finished"
    assert ada.get(f"/api/games/{ada_game}/").json()["seed"] == seed
    after = ada.get(f"/api/games/{ada_game}/replay/?step=0").json()
    shown = sum(named_cards(json.dumps(after["state"])).values())
    assert sum(named_cards(json.dumps(before["state"])).values()) < shown == 52
