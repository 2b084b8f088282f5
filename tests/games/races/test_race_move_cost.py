"""What a race's move costs beyond a casual one: while the move leaves its game in play in a
running race, the room is told of that player's progress alone, without settling the race (no
lock on it), without reading the race or the other players again, and without any game's board
read; a move that ends a game settles it and the room is sent the whole race."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.races import live
from tests.games.helpers import client_for, make_user
from tests.games.races.helpers import first_move, started, win

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_countdown(settings: Any) -> None:
    settings.RACE_COUNTDOWN_SECONDS = 0


@pytest.fixture
def room(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """What the race's room is sent, in order."""
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(live, "publish", lambda group, message: sent.append(message))
    return sent


def move_captured(client: Any, game_id: int, capture: Any) -> list[str]:
    # The queries outside: the callbacks run after the commit, as capture's block ends.
    with CaptureQueriesContext(connection) as queries, capture(execute=True):
        assert first_move(client, game_id).status_code == 201
    return [query["sql"] for query in queries.captured_queries]


def test_a_move_in_play_tells_the_room_without_settling_or_reading_any_board(
    room: list[dict[str, Any]], django_capture_on_commit_callbacks: Any
) -> None:
    ada, bob = client_for(make_user("ada")), client_for(make_user("bob"))
    game = started(ada, [bob])["you"]["game"]
    move_captured(ada, game, django_capture_on_commit_callbacks)  # the first: countdown over

    sql = move_captured(ada, game, django_capture_on_commit_callbacks)

    race_locks = [q for q in sql if "FOR UPDATE" in q and 'FROM "games_race"' in q]
    boards_of_the_room = [q for q in sql if "games_raceplayer" in q and '"games_game"."state"' in q]
    assert race_locks == [] and boards_of_the_room == [], sql
    # After the move is written nothing reads the race or its players again: the room is
    # told from what the move's own check read (``rules.race_of``).
    written = max(i for i, q in enumerate(sql) if "UPDATE games_game" in q)
    assert [q for q in sql[written:] if 'FROM "games_raceplayer"' in q] == [], sql
    assert room[-1]["type"] == "race.progress"
    assert room[-1]["player"]["username"] == "ada" and room[-1]["player"]["moves"] == 2
    assert room[-1]["player"]["standing"] == "playing" and room[-1]["player"]["guest"] is False


def test_a_move_that_ends_a_game_settles_the_race(
    room: list[dict[str, Any]], django_capture_on_commit_callbacks: Any
) -> None:
    ada, bob = client_for(make_user("ada")), client_for(make_user("bob"))
    body = started(ada, [bob])
    bob_game = bob.get(f"/api/races/{body['code']}/").json()["you"]["game"]
    with django_capture_on_commit_callbacks(execute=True):
        win(bob, bob_game)
        assert ada.post(f"/api/games/{body['you']['game']}/resign/").status_code == 200
    assert room[-1]["type"] == "race.update" and room[-1]["race"]["phase"] == "finished"
    places = [(p["username"], p["place"]) for p in room[-1]["race"]["players"]]
    assert places == [("bob", 1), ("ada", 2)]
