"""The journey of issue 3: sign up, play each game, leave, sign in elsewhere, resume."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.rules import VARIANTS, get_variant

pytestmark = pytest.mark.django_db

MOVES_BEFORE_LEAVING = 3


def lasting_seed(slug: str) -> int:
    """A deal on which always playing the first legal move leaves moves to make after three:
    about one random deal in fifteen of Selective Castle ends sooner, which would make this
    test fail by chance."""
    variant = get_variant(slug)
    for seed in range(1000):
        state = variant.deal(seed)
        for _ in range(MOVES_BEFORE_LEAVING):
            moves = variant.legal_moves(state)
            if not moves:
                break
            state, _ = variant.play(state, moves[0])
        else:
            if variant.legal_moves(state):
                return seed
    raise AssertionError(f"no lasting deal of {slug}")


def test_a_new_player_resumes_every_game_at_the_same_move_from_another_device():
    laptop = APIClient(enforce_csrf_checks=True)
    registered = laptop.post(
        "/api/auth/register/",
        {"username": "wanderer", "password": "correct horse battery"},
        format="json",
    )
    assert registered.status_code == 201, registered.content
    csrf = laptop.get("/api/auth/csrf/").json()["csrf_token"]
    left_at = {}
    for slug in VARIANTS:
        game = laptop.post(
            "/api/games/",
            {"variant": slug, "seed": lasting_seed(slug)},
            format="json",
            HTTP_X_CSRFTOKEN=csrf,
        )
        assert game.status_code == 201, game.content
        game = game.json()
        for _ in range(MOVES_BEFORE_LEAVING):
            answer = laptop.post(
                f"/api/games/{game['id']}/moves/",
                {"move": game["legal_moves"][0], "expected_move_number": game["move_number"]},
                format="json",
                HTTP_X_CSRFTOKEN=csrf,
            )
            assert answer.status_code == 201, answer.content
            game = answer.json()
        left_at[game["id"]] = game
    laptop.post("/api/auth/logout/", HTTP_X_CSRFTOKEN=csrf)
    assert laptop.get("/api/games/").status_code in (401, 403)

    phone = APIClient(enforce_csrf_checks=True)
    signed_in = phone.post(
        "/api/auth/login/",
        {"username": "wanderer", "password": "correct horse battery"},
        format="json",
    )
    assert signed_in.status_code == 200, signed_in.content
    listed = phone.get("/api/games/?status=playing").json()
    assert {g["id"] for g in listed["results"]} == set(left_at)
    for game_id, before in left_at.items():
        resumed = phone.get(f"/api/games/{game_id}/").json()
        assert resumed["move_number"] == before["move_number"] == MOVES_BEFORE_LEAVING
        assert resumed["state"] == before["state"]
        assert resumed["legal_moves"] == before["legal_moves"]
