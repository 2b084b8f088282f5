"""``GET /api/me/export/``: everything kept about a player, face-down cards still hidden."""

from __future__ import annotations

import random

import pytest

from tests.games.helpers import (
    anonymous_client,
    client_for,
    history,
    make_user,
    new_game,
    play,
)
from tests.games.test_privacy import Watcher

pytestmark = pytest.mark.django_db


def export(client) -> dict:
    response = client.get("/api/me/export/")
    assert response.status_code == 200, response.content
    return response.json()


def test_the_export_holds_the_account_statistics_and_every_game_with_its_history() -> None:
    user = make_user("exporter")
    user.email = "exporter@example.com"
    user.save()
    client = client_for(user)
    first = new_game(client, "gold-mine", seed=11)
    play(client, first["id"], {"type": "deal"})
    client.post(f"/api/games/{first['id']}/resign/", {}, format="json")
    second = new_game(client, "grandfathers-clock")
    new_game(client_for(), "gold-mine", seed=11)  # someone else's

    data = export(client)

    assert data["format"] == "patience-export/1"
    assert data["account"]["username"] == "exporter"
    assert data["account"]["email"] == "exporter@example.com"
    assert [g["id"] for g in data["games"]] == [first["id"], second["id"]]  # oldest first
    resigned, playing = data["games"]
    assert resigned["status"] == "resigned" and resigned["seed"] == 11
    assert resigned["history"] == history(client, first["id"])
    assert [entry["number"] for entry in resigned["history"]] == [1, 2]
    assert playing["status"] == "playing" and playing["history"] == []
    assert playing["seed"] is None  # a random deal in play: its seed would show the cards
    assert {row["variant"] for row in data["stats"]} >= {"gold-mine", "grandfathers-clock"}
    assert set(data["daily_streaks"]) == {"overall", "by_variant"}


def test_the_export_is_a_download_no_cache_keeps() -> None:
    response = client_for().get("/api/me/export/")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="patience-data-')
    assert response["Cache-Control"] == "no-store"


def test_the_export_needs_a_signed_in_player() -> None:
    response = anonymous_client().get("/api/me/export/")
    assert response.status_code in (401, 403)
    assert "error" in response.json()


def test_the_export_reads_a_fixed_number_of_queries(django_assert_max_num_queries) -> None:
    user = make_user()
    client = client_for(user)
    for seed in range(12):
        game = new_game(client, "gold-mine", seed=seed)
        play(client, game["id"], {"type": "deal"})
    with django_assert_max_num_queries(6):
        assert len(export(client)["games"]) == 12


@pytest.mark.parametrize("slug", ["gold-mine", "blondes-and-brunettes", "grounds-for-divorce"])
def test_the_export_of_a_game_in_play_names_no_face_down_card_nor_its_seed(slug: str) -> None:
    rng = random.Random(f"export-{slug}")
    client = client_for()
    game = new_game(client, slug)
    watcher = Watcher(client, slug, game["id"])
    for turn in range(60):
        if game["status"] != "playing" or not game["legal_moves"]:
            break
        if turn % 10 == 0:
            body = watcher.check(client.get("/api/me/export/"), f"export at move {turn}")
            assert body["games"][0]["seed"] is None
        game = play(client, game["id"], rng.choice(game["legal_moves"]))
    assert watcher.checked > 0
