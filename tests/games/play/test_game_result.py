"""The end of a game as the server reports it (``result`` in the representation, from
games/play/results.py): moves, time, hints, the player's best before it and whether it beat
it, the streak of wins, and a ranked daily attempt's rank. Never from what a page sends."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game
from tests.games.helpers import (
    DAY,
    DailyClock,
    client_for,
    detail,
    make_user,
    new_game,
    play,
    solve,
    staff_challenge,
    start_daily,
    started_game,
)

pytestmark = pytest.mark.django_db

CLOCK = "grandfathers-clock"


def win(client: Any, line: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    game = new_game(client, CLOCK, **fields)
    for move in line:
        game = play(client, game["id"], move)
    assert game["status"] == "won"
    return game


def test_a_game_in_play_has_no_result_and_a_first_win_says_so() -> None:
    line = solve(CLOCK, 0)
    client = client_for(make_user())
    game = new_game(client, CLOCK, seed=0)
    assert "result" not in game
    for move in line[:-1]:
        game = play(client, game["id"], move)
    assert "result" not in game
    game = play(client, game["id"], line[-1])

    result = game["result"]
    stored = Game.objects.get(pk=game["id"])
    assert result == {
        "moves": len(line),
        "time_seconds": stored.active_ms / 1000,
        "hints": 0,
        "undos": 0,
        "best_moves": None,
        "best_time_seconds": None,
        "first_win": True,
        "beat_moves": False,
        "beat_time": False,
        "streak": 1,
        "daily_rank": None,
    }
    # The same figures when the finished game is read again.
    assert detail(client, game["id"])["result"] == result
    # The game's time (games.core.clock): moves under a minute apart, so all of it.
    assert 0 < result["time_seconds"] <= (stored.finished_at - stored.created_at).total_seconds()


def test_a_win_compares_with_the_best_before_it_and_counts_the_wins_in_a_row() -> None:
    line = solve(CLOCK, 0)
    user = make_user()
    client = client_for(user)
    first = win(client, line, seed=0)
    # The first win as if it had taken 90 moves and an hour: the next one beats both.
    row = Game.objects.get(pk=first["id"])
    row.state = {**row.state, "move_number": 90}
    row.active_ms = 3_600_000
    row.save(update_fields=["state", "active_ms"])

    second = win(client, line, seed=0)["result"]
    assert (second["best_moves"], second["best_time_seconds"]) == (90, 3600.0)
    assert second["beat_moves"] and second["beat_time"] and not second["first_win"]
    assert second["streak"] == 2

    # A resignation ends the run; the next win starts it again and no longer beats the best.
    resigned = started_game(client, CLOCK)
    response = client.post(f"/api/games/{resigned['id']}/resign/", {}, format="json")
    assert response.json()["result"]["streak"] == 0
    third = win(client, line, seed=0)["result"]
    assert third["streak"] == 1
    assert third["best_moves"] == len(line)
    assert not third["beat_moves"] and not third["first_win"]

    # The stats' best time is the same figure as the result's.
    stats = {s["variant"]: s for s in client.get("/api/me/stats/").json()}
    times = [win["time_seconds"] for win in (second, third)]
    assert stats[CLOCK]["best_time_seconds"] == min(times)


def test_a_ranked_daily_win_gives_its_rank_on_the_day(monkeypatch: pytest.MonkeyPatch) -> None:
    DailyClock(monkeypatch, DAY)
    line = solve(CLOCK, 0)
    staff_challenge(DAY, CLOCK, 0)
    client = client_for(make_user())
    game = start_daily(client, DAY, CLOCK)
    for move in line:
        game = play(client, game["id"], move)
    assert game["result"]["daily_rank"] == {"rank": 1, "count": 1}

    # Someone else's win in less time ranks first, and ours moves down to second.
    row = Game.objects.get(pk=game["id"])
    row.active_ms += 600_000
    row.save(update_fields=["active_ms"])
    other = client_for(make_user())
    theirs = start_daily(other, DAY, CLOCK)
    for move in line:
        theirs = play(other, theirs["id"], move)
    assert theirs["result"]["daily_rank"] == {"rank": 1, "count": 2}
    assert detail(client, game["id"])["result"]["daily_rank"] == {"rank": 2, "count": 2}


def test_a_game_over_with_no_end_time_still_has_a_result() -> None:
    """Games written straight to the database (older rows, tests) may lack finished_at: the
    result has the game's time as stored all the same."""
    user = make_user()
    client = client_for(user)
    game = started_game(client, CLOCK)
    Game.objects.filter(pk=game["id"]).update(
        status=Game.Status.RESIGNED, finished_at=None, active_ms=1500
    )
    result = detail(client, game["id"])["result"]
    assert (result["time_seconds"], result["streak"], result["first_win"]) == (1.5, 0, False)
