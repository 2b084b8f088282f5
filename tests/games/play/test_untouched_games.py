"""A game where no move was ever made is never shown as in progress nor counted as played or
lost, and is cleaned up: abandoned (deleted at once) or left (deleted by the worker's
tidy-games job after UNTOUCHED_GAME_MINUTES). Abandoning a game with moves resigns it."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from games.background import tidy
from games.background.worker import JOBS
from games.models import Game
from tests.games.helpers import (
    DAY,
    DailyClock,
    assert_error,
    client_for,
    make_user,
    new_game,
    play,
    solve,
    staff_challenge,
    start_daily,
    started_game,
)

pytestmark = pytest.mark.django_db

SLUG = "grandfathers-clock"


def stats_of(client: Any, slug: str = SLUG) -> dict[str, Any]:
    return {s["variant"]: s for s in client.get("/api/me/stats/").json()}[slug]


def listed(client: Any, **params: str) -> list[int]:
    response = client.get("/api/games/", params)
    assert response.status_code == 200, response.content
    return [game["id"] for game in response.json()["results"]]


def abandon(client: Any, game_id: int) -> dict[str, Any]:
    response = client.post(f"/api/games/{game_id}/abandon/", {}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def test_an_untouched_game_is_in_no_list_and_a_game_with_a_move_is() -> None:
    client = client_for()
    untouched = new_game(client, SLUG)["id"]
    older = started_game(client, "gold-mine")["id"]
    newer = started_game(client, SLUG)["id"]
    assert listed(client, status="playing") == [newer, older], "newest first"
    assert untouched not in listed(client)
    assert client.get(f"/api/games/{untouched}/").status_code == 200, "still playable"


def test_a_resigned_untouched_game_counts_as_neither_played_nor_lost() -> None:
    """ "Resigning one untouched deal to tidy up halved the player's win rate.\""""
    line = solve(SLUG, 0)
    client = client_for()
    game = new_game(client, SLUG, seed=0)
    for move in line:
        game = play(client, game["id"], move)
    before = stats_of(client)
    assert (before["played"], before["won"], before["win_rate"]) == (1, 1, 1.0)

    tidied = new_game(client, SLUG)
    assert client.post(f"/api/games/{tidied['id']}/resign/", {}, format="json").status_code == 200
    after = stats_of(client)
    assert (after["played"], after["won"], after["win_rate"]) == (1, 1, 1.0)
    assert (after["current_streak"], after["best_streak"]) == (1, 1)
    assert tidied["id"] not in listed(client, status="finished")

    # The next win's streak runs on through it.
    again = new_game(client, SLUG, seed=0)
    for move in line:
        again = play(client, again["id"], move)
    assert again["result"]["streak"] == 2
    assert stats_of(client)["current_streak"] == 2


def test_abandoning_an_untouched_game_deletes_it_and_counts_nothing() -> None:
    client = client_for()
    game = new_game(client, SLUG)
    answer = abandon(client, game["id"])
    assert answer == {"id": game["id"], "abandoned": "deleted", "game": None}
    assert not Game.objects.filter(pk=game["id"]).exists()
    assert_error(client.get(f"/api/games/{game['id']}/"), 404, "not_found")
    assert stats_of(client)["played"] == 0


def test_abandoning_a_game_with_moves_resigns_it_and_counts_it() -> None:
    client = client_for()
    game = started_game(client, SLUG)
    answer = abandon(client, game["id"])
    assert answer["abandoned"] == "resigned"
    assert answer["game"]["status"] == "resigned"
    assert answer["game"]["events"] == [{"type": "resigned"}]
    assert stats_of(client)["played"] == 1
    assert listed(client, status="resigned") == [game["id"]]
    # Over: abandoning it again is refused like any action on a finished game.
    again = client.post(f"/api/games/{game['id']}/abandon/", {}, format="json")
    assert_error(again, 409, "game_finished")


def test_abandoning_an_untouched_game_after_a_move_taken_back_resigns_it() -> None:
    """A move made and undone is a move made: the game is not untouched."""
    client = client_for()
    game = new_game(client, SLUG, seed=0)
    undoable = next(m for m in game["legal_moves"])
    play(client, game["id"], undoable)
    undone = client.post(f"/api/games/{game['id']}/undo/", {}, format="json")
    assert undone.status_code == 200, undone.content
    assert abandon(client, game["id"])["abandoned"] == "resigned"


def test_an_untouched_ranked_attempt_is_resigned_never_deleted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its one try has shown the deal: a new attempt would start its clock again."""
    DailyClock(monkeypatch, DAY)
    staff_challenge(DAY, SLUG, 0)
    client = client_for(make_user())
    attempt = start_daily(client, DAY, SLUG)
    assert abandon(client, attempt["id"])["abandoned"] == "resigned"
    assert Game.objects.filter(pk=attempt["id"], status="resigned").exists()
    board = client.get(f"/api/leaderboards/daily/{DAY}/{SLUG}/").json()
    assert board["count"] == 0, "no move: not on the board"


def test_the_worker_deletes_games_left_untouched_for_the_set_time(settings: Any) -> None:
    settings.UNTOUCHED_GAME_MINUTES = 30
    assert "tidy-games" in JOBS
    client = client_for()
    old = new_game(client, SLUG)["id"]
    recent = new_game(client, SLUG)["id"]
    played = started_game(client, SLUG)["id"]
    resigned = new_game(client, "gold-mine")["id"]
    client.post(f"/api/games/{resigned}/resign/", {}, format="json")
    an_hour_ago = Game.objects.get(pk=old).created_at - dt.timedelta(hours=1)
    Game.objects.filter(pk__in=[old, played, resigned]).update(created_at=an_hour_ago)

    assert tidy.tidy_once() == 1
    assert set(Game.objects.values_list("pk", flat=True)) == {recent, played, resigned}

    settings.UNTOUCHED_GAME_MINUTES = 0  # never
    Game.objects.filter(pk=recent).update(created_at=an_hour_ago)
    assert tidy.tidy_once() == 0
    assert Game.objects.filter(pk=recent).exists()


def test_the_worker_leaves_an_untouched_ranked_attempt_to_its_day(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    DailyClock(monkeypatch, DAY)
    staff_challenge(DAY, SLUG, 0)
    attempt = start_daily(client_for(make_user()), DAY, SLUG)
    Game.objects.filter(pk=attempt["id"]).update(created_at=dt.datetime(2031, 5, 9, tzinfo=dt.UTC))
    assert tidy.tidy_once() == 0
    assert Game.objects.filter(pk=attempt["id"]).exists()
