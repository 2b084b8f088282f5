"""Races for the tests: rooms opened, joined and started through the API, on a deal whose
winning line is known (tests/rules/winning_lines.json)."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from games.models import Game
from games.play import services as play_services
from games.races.models import Race
from tests.games.helpers import WINNING_LINES

SLUG = "gold-mine"


def open_race(client: APIClient, variant: str = SLUG, **fields: Any) -> dict[str, Any]:
    response = client.post("/api/races/", {"variant": variant, **fields}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def on_winning_deal(code: str, variant: str = SLUG) -> None:
    """The race's deal swapped for one whose winning line is known (before it starts)."""
    deal = play_services.deal_of(variant, WINNING_LINES[variant]["seed"])
    Race.objects.filter(code=code).update(deal=deal)


def post(client: APIClient, code: str, action: str, data: Any = None) -> Any:
    return client.post(f"/api/races/{code}/{action}/", data or {}, format="json")


def race(client: APIClient, code: str) -> dict[str, Any]:
    response = client.get(f"/api/races/{code}/")
    assert response.status_code == 200, response.content
    return response.json()


def started(opener: APIClient, others: list[APIClient], **fields: Any) -> dict[str, Any]:
    """A race of ``opener`` and ``others``, started (countdown as configured), on the winning
    deal."""
    code = open_race(opener, **fields)["code"]
    on_winning_deal(code, fields.get("variant", SLUG))
    for client in others:
        assert post(client, code, "join").status_code == 200
    response = post(opener, code, "start")
    assert response.status_code == 200, response.content
    return race(opener, code)


def win(client: APIClient, game_id: int, variant: str = SLUG) -> dict[str, Any]:
    """Play the known winning line in ``game_id``; its last answer."""
    answer: dict[str, Any] = {}
    for move in WINNING_LINES[variant]["moves"]:
        response = client.post(f"/api/games/{game_id}/moves/", {"move": move}, format="json")
        assert response.status_code == 201, response.content
        answer = response.json()
        if answer["status"] != Game.Status.PLAYING:
            break
    return answer


def first_move(client: APIClient, game_id: int) -> Any:
    game = client.get(f"/api/games/{game_id}/").json()
    return client.post(
        f"/api/games/{game_id}/moves/", {"move": game["legal_moves"][0]}, format="json"
    )
