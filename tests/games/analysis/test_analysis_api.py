"""POST/GET /api/games/<id>/analysis/ and the worker's job (games.analysis): a finished game
of the player's own is analysed once, off the web process; refusals change nothing; limits per
player and per address; nothing of an analysis before the game and its day are over."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.analysis import job, services
from games.analysis.models import Analysis
from games.analysis.search import Budgets, solve_position
from games.background.worker import JOBS
from games.models import Game
from games.rules import get_variant
from tests.games.analysis.lines import BIG, lost_at, winning_line
from tests.games.helpers import (
    DAY,
    DailyClock,
    client_for,
    make_user,
    new_game,
    play,
    staff_challenge,
    start_daily,
)
from tests.games.hidden_cards import assert_text_hides
from tests.games.play.test_limits import assert_throttled, limits

pytestmark = pytest.mark.django_db

ENOUGH = Budgets(BIG, seconds=120)


def url(game_id: int) -> str:
    return f"/api/games/{game_id}/analysis/"


def played(client: APIClient, slug: str, seed: int, moves: list[dict[str, Any]]) -> dict:
    """A casual game of deal ``seed`` played through ``moves``, then ended: lost at a dead end,
    resigned otherwise (or won)."""
    game = new_game(client, slug, seed)
    for move in moves:
        game = play(client, game["id"], move)
    if game["status"] == "playing":
        action = "end" if game["dead_end"] else "resign"
        response = client.post(f"/api/games/{game['id']}/{action}/", {}, format="json")
        assert response.status_code == 200, response.content
    return client.get(f"/api/games/{game['id']}/").json()


def analysed(client: APIClient, game_id: int) -> dict[str, Any]:
    asked = client.post(url(game_id), format="json")
    assert asked.status_code == 202, asked.content
    assert asked.json()["state"] == "queued"
    assert job.run_one(solve_position, ENOUGH) is not None
    response = client.get(url(game_id))
    assert response.status_code == 200
    return response.json()


def test_the_worker_has_an_analyses_job() -> None:
    assert "analyses" in JOBS


def test_a_lost_grandfathers_clock_game_shows_the_move_that_lost_it_and_how_to_win() -> None:
    slug = "grandfathers-clock"
    seed, line, k = lost_at(slug)
    client = client_for()
    game = played(client, slug, seed, line)
    body = analysed(client, game["id"])
    assert body["state"] == "done" and body["searched"] >= 2
    result = body["result"]
    assert result["kind"] == "lost_at" and result["losing_step"] == k + 1
    assert f"move {k + 1} lost it" in result["summary"]
    assert result["line_from"] == {"position": k, "step": k}
    assert len(result["said"]) == result["length"] == len(result["line"]) > 0
    # The line stepped through on the board ends won.
    end = client.get(url(game["id"]), {"step": result["length"]}).json()["board"]
    variant = get_variant(slug)
    assert variant.status(variant.state_from_json(end)) == "won"
    start = client.get(url(game["id"]), {"step": 0}).json()["board"]
    assert start == client.get(f"/api/games/{game['id']}/replay/", {"step": k}).json()["state"]


def test_selective_castle_with_undos_names_the_losing_move_by_its_step_in_the_move_list() -> None:
    slug = "selective-castle"
    seed, line, k = lost_at(slug)
    client = client_for()
    game = new_game(client, slug, seed)
    for move in line[:k]:
        play(client, game["id"], move)
    # The losing move made, taken back and made again: two entries more before it.
    play(client, game["id"], line[k])
    assert client.post(f"/api/games/{game['id']}/undo/", {}, format="json").status_code == 200
    for move in line[k : k + 5]:
        state = play(client, game["id"], move)
    assert client.post(f"/api/games/{game['id']}/resign/", {}, format="json").status_code == 200
    assert state
    result = analysed(client, game["id"])["result"]
    assert result["kind"] == "lost_at"
    assert result["winnable"] == {"position": k, "step": k}
    assert result["lost"] == {"position": k + 1, "step": k + 3}
    assert result["losing_step"] == k + 3


def test_a_won_game_shows_the_solvers_line_beside_the_players() -> None:
    slug = "grandfathers-clock"
    line = winning_line(slug, 0)
    client = client_for()
    game = played(client, slug, 0, line)
    assert game["status"] == "won"
    result = analysed(client, game["id"])["result"]
    assert result["kind"] == "won" and result["length"] > 0
    assert "not a proven shortest" in result["summary"]
    assert f"You won in {len(line)} moves" in result["summary"]


def test_a_game_lost_from_the_start_is_said_so() -> None:
    client = client_for()
    variant = get_variant("selective-castle")
    state, moves = variant.deal(68), []
    while variant.status(state) == "playing" and len(moves) < 10:
        move = variant.legal_moves(state)[0]
        state = variant.apply(state, move)
        moves.append(move.to_json())
    game = played(client, "selective-castle", 68, moves)
    result = analysed(client, game["id"])["result"]
    assert result["kind"] == "lost_from_start" and result["line"] == []
    assert "could not be won from the start" in result["summary"]


def test_a_tiny_budget_answers_an_honest_range() -> None:
    slug = "gold-mine"
    seed, line, k = lost_at(slug)
    client = client_for()
    game = played(client, slug, seed, line)
    client.post(url(game["id"]), format="json")
    from games.solver import Budget

    job.run_one(solve_position, Budgets(Budget(positions=20, seconds=1), seconds=30))
    result = client.get(url(game["id"])).json()["result"]
    assert result["kind"] == "range"
    assert result["lost"]["position"] >= k + 1
    assert "at the latest" in result["summary"]


def test_an_analysis_is_made_once() -> None:
    seed, line, _k = lost_at("grandfathers-clock")
    client = client_for()
    game = played(client, "grandfathers-clock", seed, line)
    analysed(client, game["id"])
    again = client.post(url(game["id"]), format="json")
    assert again.status_code == 200 and again.json()["state"] == "done"
    assert Analysis.objects.filter(game_id=game["id"]).count() == 1
    assert job.run_one(solve_position, ENOUGH) is None  # nothing queued


def test_a_game_in_play_is_not_analysed_and_nothing_is_made() -> None:
    client = client_for()
    game = new_game(client, "grandfathers-clock", 0)
    for method in (client.post, client.get):
        response = method(url(game["id"]), format="json")
        assert response.status_code == 409, response.content
        assert response.json()["error"]["code"] == "game_in_play"
    assert not Analysis.objects.exists()


def test_another_players_game_is_not_found() -> None:
    seed, line, _k = lost_at("grandfathers-clock")
    game = played(client_for(), "grandfathers-clock", seed, line)
    stranger = client_for()
    for method in (stranger.post, stranger.get):
        assert method(url(game["id"]), format="json").status_code == 404
    assert not Analysis.objects.exists()


def test_a_step_outside_the_line_is_a_400_and_no_analysis_is_a_404() -> None:
    seed, line, _k = lost_at("grandfathers-clock")
    client = client_for()
    game = played(client, "grandfathers-clock", seed, line)
    assert client.get(url(game["id"])).json()["state"] == "not_asked"
    assert client.get(url(game["id"]), {"step": 0}).status_code == 404
    result = analysed(client, game["id"])["result"]
    for step in (result["length"] + 1, -1, "x"):
        response = client.get(url(game["id"]), {"step": step})
        assert response.status_code == 400
        assert response.json()["error"]["code"] == "invalid_step"


def test_a_player_has_at_most_the_cap_of_analyses_waiting(settings: Any) -> None:
    settings.ANALYSES_QUEUED_PER_PLAYER = 1
    seed, line, _k = lost_at("grandfathers-clock")
    client = client_for()
    first = played(client, "grandfathers-clock", seed, line)
    second = played(client, "grandfathers-clock", seed, line)
    assert client.post(url(first["id"]), format="json").status_code == 202
    refused = client.post(url(second["id"]), format="json")
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "analyses_queued"
    assert Analysis.objects.count() == 1


def test_asking_is_limited_per_player_and_per_address(settings: Any) -> None:
    limits(settings, analysis="2/hour", analysis_address="3/hour")
    seed, line, _k = lost_at("grandfathers-clock")
    user = make_user()
    client = APIClient(REMOTE_ADDR="198.51.100.7")
    client.force_authenticate(user)
    game = played(client, "grandfathers-clock", seed, line)
    assert client.post(url(game["id"]), format="json").status_code == 202
    assert client.post(url(game["id"]), format="json").status_code == 200
    assert_throttled(client.post(url(game["id"]), format="json"), most_seconds=3600)
    # Another player at the same address has the address's one request left.
    other = APIClient(REMOTE_ADDR="198.51.100.7")
    other.force_authenticate(make_user())
    mine = played(other, "grandfathers-clock", seed, line)
    assert other.post(url(mine["id"]), format="json").status_code == 202
    assert_throttled(other.post(url(mine["id"]), format="json"), most_seconds=3600)


def test_nothing_of_an_analysis_before_the_daily_attempts_day_has_closed(clock: DailyClock) -> None:
    slug = "grandfathers-clock"
    seed, line, _k = lost_at(slug)
    staff_challenge(DAY, slug, seed)
    client = client_for()
    game = start_daily(client, DAY, slug)
    for move in line:
        game = play(client, game["id"], move)
    assert game["status"] == "lost"  # a ranked attempt is lost at its dead end
    full = Game.objects.get(pk=game["id"]).state
    for method in (client.post, client.get):
        for query in ({}, {"step": 0}):
            response = method(url(game["id"]), query, format="json")
            assert response.status_code == 404, response.content
            assert response.json()["error"]["code"] == "not_yet"
            assert "result" not in response.json()
            assert_text_hides(response.content.decode(), full, seed, "analysis before the day")
    assert not Analysis.objects.exists()
    assert job.run_one(solve_position, ENOUGH) is None
    clock.advance()
    assert analysed(client, game["id"])["result"]["kind"] == "lost_at"


def test_an_analysis_left_running_by_a_stopped_job_is_queued_again() -> None:
    seed, line, _k = lost_at("grandfathers-clock")
    client = client_for()
    game = played(client, "grandfathers-clock", seed, line)
    client.post(url(game["id"]), format="json")
    assert services.claim_next() is not None
    assert client.get(url(game["id"])).json()["state"] == "running"
    assert services.requeue_interrupted() == 1
    assert client.get(url(game["id"])).json()["state"] == "queued"
    assert job.run_one(solve_position, ENOUGH).state == Analysis.State.DONE
