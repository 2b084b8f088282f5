"""Many clients at once on one game: every acknowledged move is kept, each number once.

Runs on PostgreSQL (row locks are the point); on SQLite it is skipped, and under CI
(PATIENCE_REQUIRE_POSTGRES=1) the run fails before it gets here if PostgreSQL is missing.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games.core.history import line_of_play
from games.models import Game
from games.rules import get_variant
from tests.support.threads import answered, run_in_threads

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locking is tested on PostgreSQL"
    ),
]

THREADS = 24
TARGET_MOVES = 2 * THREADS


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_concurrent_moves_keep_every_acknowledged_move_once(django_user_model):
    user = django_user_model.objects.create_user("racer", password="x")
    game_id = (
        client_for(user)
        .post("/api/games/", {"variant": "grounds-for-divorce", "seed": 5}, format="json")
        .json()["id"]
    )
    acknowledged: list[tuple[int, dict]] = []
    failures: list[str] = []
    lock = threading.Lock()
    # The threads race until this many moves are acknowledged (most attempts lose the race
    # with a 409, so a fixed number of attempts each could end with fewer moves than threads).
    deadline = time.monotonic() + 90

    def player(index: int) -> int:
        """Plays until the target is reached; returns how many requests it had answered."""
        client = client_for(user)
        requests = 0
        while len(acknowledged) < TARGET_MOVES and time.monotonic() < deadline:
            status, game = answered(client.get(f"/api/games/{game_id}/"))
            requests += 1
            assert status == 200, game
            # Deals only when nothing else is legal: the stock lasts, and the game with it.
            moves = [m for m in game["legal_moves"] if m["type"] != "deal"]
            moves = moves or game["legal_moves"]
            if not moves:
                break
            move = moves[index % len(moves)]
            status, body = answered(
                client.post(
                    f"/api/games/{game_id}/moves/",
                    {"move": move, "expected_move_number": game["move_number"]},
                    format="json",
                )
            )
            requests += 1
            if status == 201:
                with lock:
                    acknowledged.append((body["move_number"], move))
            elif status != 409:
                failures.append(f"{status} {body!r}")
        return requests

    # Every thread returns (none raised, none hangs) and each had its requests answered.
    assert all(run_in_threads(player, THREADS))

    assert not failures
    game = Game.objects.select_related("deal").get(pk=game_id)
    history = list(game.moves.order_by("number").values_list("number", "payload"))
    assert [number for number, _ in history] == list(range(1, game.move_number + 1))
    assert len(acknowledged) == game.move_number >= TARGET_MOVES
    assert sorted(acknowledged, key=lambda a: a[0]) == history
    variant = get_variant("grounds-for-divorce")
    replayed = line_of_play(variant, game.deal, [payload for _, payload in history])[-1]
    assert variant.state_to_json(replayed) == game.state


def test_a_retried_request_racing_itself_is_applied_once(django_user_model):
    user = django_user_model.objects.create_user("retrier", password="x")
    game = client_for(user).post("/api/games/", {"variant": "gold-mine"}, format="json").json()

    def retry(_index: int) -> tuple[int, dict]:
        return answered(
            client_for(user).post(
                f"/api/games/{game['id']}/moves/",
                {"move": {"type": "deal"}},
                format="json",
                HTTP_IDEMPOTENCY_KEY="deal-once",
            )
        )

    responses = run_in_threads(retry, 8)

    assert len(responses) == 8
    assert {status for status, _ in responses} == {201}
    assert all(body == responses[0][1] for _, body in responses)
    assert Game.objects.get(pk=game["id"]).move_number == 1
