"""PostgreSQL dropping a server's connections (a restart, a failover, ``pg_terminate_backend``)
while players move: never a 500, every acknowledged move kept, every game's snapshot the replay
of its history (web.http.db_outage; the clients retry a 503 with the same Idempotency-Key, as the
play page does)."""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections import Counter

import httpx
import psycopg
import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from rest_framework.authtoken.models import Token

from games.models import IdempotencyRecord, Move
from tests.games.helpers import client_for, new_game, post_move
from tests.support.servers import production_env, servers

pytestmark = [
    pytest.mark.django_db(transaction=True),
    # Under CI (PATIENCE_REQUIRE_POSTGRES=1) they run, and fail without PostgreSQL or Redis.
    pytest.mark.skipif(
        os.environ.get("PATIENCE_REQUIRE_POSTGRES") != "1"
        and (connection.vendor != "postgresql" or not os.environ.get("REDIS_URL")),
        reason="needs PostgreSQL and Redis (CI has both and fails without them)",
    ),
]

#: The server's connections are told apart from everyone else's by this (libpq's PGAPPNAME).
SERVER_APP = f"patience-outage-{os.getpid()}"


def admin_connection(settings_dict: dict) -> psycopg.Connection:
    """A connection of the test's own to the server's PostgreSQL, outside any pool."""
    return psycopg.connect(
        host=settings_dict.get("HOST") or "127.0.0.1",
        port=settings_dict.get("PORT") or 5432,
        user=settings_dict.get("USER") or "postgres",
        dbname="postgres",
        autocommit=True,
    )


def terminate_server_connections(settings_dict: dict) -> int:
    """``pg_terminate_backend`` on every connection the test's server holds; how many."""
    with admin_connection(settings_dict) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE application_name = %s AND datname = %s",
            [SERVER_APP, settings_dict["NAME"]],
        ).fetchall()
    return len(rows)


def terminate(pid: int) -> None:
    with admin_connection(connection.settings_dict) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])


def terminate_own_connection() -> None:
    """Terminate this thread's database connection, as a database restart would."""
    connection.ensure_connection()
    terminate(connection.connection.info.backend_pid)


# -- in this process: what is run again, what is answered 503 ---------------------------------


def test_a_request_on_a_dead_connection_runs_again_on_a_fresh_one(caplog):
    client = client_for()
    game = new_game(client, "selective-castle")
    terminate_own_connection()  # the connection the next request starts on is dead
    answer = post_move(client, game["id"], game["legal_moves"][0], HTTP_IDEMPOTENCY_KEY="k1")
    assert answer.status_code == 201, answer.content
    assert answer.json()["move_number"] == 1
    assert Move.objects.filter(game_id=game["id"]).count() == 1
    assert any("running the request again" in r.getMessage() for r in caplog.records)


def test_a_connection_lost_as_the_move_commits_is_a_503_and_the_same_key_gets_the_answer(
    monkeypatch,
):
    """COMMIT sent, the connection lost before its answer: the move may or may not be in. The
    request is not run again (it could act twice): 503. Here the COMMIT did go through, so
    the client's retry with the same key is answered what the move was answered."""
    client = client_for()
    game = new_game(client, "selective-castle")
    move = game["legal_moves"][0]
    real_commit = connection._commit

    def commit_then_lose_the_connection() -> None:
        real_commit()
        terminate(connection.connection.info.backend_pid)
        with connection.wrap_database_errors:
            connection.connection.execute("SELECT 1")  # fails as COMMIT's answer would

    monkeypatch.setattr(connection, "_commit", commit_then_lose_the_connection)
    unknown = post_move(client, game["id"], move, 0, HTTP_IDEMPOTENCY_KEY="k2")
    monkeypatch.undo()
    assert unknown.status_code == 503, unknown.content
    assert unknown.json()["error"]["code"] == "service_unavailable"
    assert int(unknown["Retry-After"]) > 0
    assert Move.objects.filter(game_id=game["id"]).count() == 1  # it was committed

    again = post_move(client, game["id"], move, 0, HTTP_IDEMPOTENCY_KEY="k2")
    assert again.status_code == 201, again.content
    assert again.json()["move_number"] == 1
    assert Move.objects.filter(game_id=game["id"]).count() == 1  # not played twice
    assert IdempotencyRecord.objects.get(key="k2").status_code == 201


def test_a_connection_lost_before_commit_was_sent_is_run_again_once(monkeypatch):
    """The COMMIT never left: nothing of the move is in, and the request runs again."""
    client = client_for()
    game = new_game(client, "selective-castle")
    real_commit = connection._commit
    failures = []

    def lose_the_connection_once() -> None:
        if not failures:
            failures.append(1)
            terminate(connection.connection.info.backend_pid)
            with connection.wrap_database_errors:
                connection.connection.execute("SELECT 1")
        real_commit()

    monkeypatch.setattr(connection, "_commit", lose_the_connection_once)
    # Lost at COMMIT: not a statement, so the outcome counts as unknown (503) even though
    # this COMMIT was never sent; the same key then acts once.
    answer = post_move(client, game["id"], game["legal_moves"][0], 0, HTTP_IDEMPOTENCY_KEY="k3")
    assert answer.status_code == 503
    monkeypatch.undo()
    assert Move.objects.filter(game_id=game["id"]).count() == 0
    again = post_move(client, game["id"], game["legal_moves"][0], 0, HTTP_IDEMPOTENCY_KEY="k3")
    assert again.status_code == 201, again.content
    assert Move.objects.filter(game_id=game["id"]).count() == 1


def test_a_read_on_a_dead_connection_is_answered(client):
    user_client = client_for()
    game = new_game(user_client, "selective-castle")
    terminate_own_connection()
    answer = user_client.get(f"/api/games/{game['id']}/")
    assert answer.status_code == 200, answer.content


def test_with_no_database_to_connect_to_the_answer_is_503_not_500(monkeypatch):
    client = client_for()
    game = new_game(client, "selective-castle")

    def no_database(params):
        raise psycopg.OperationalError("connection refused")  # as a database down would

    connection.close()
    monkeypatch.setattr(connection, "get_new_connection", no_database)
    answer = client.get(f"/api/games/{game['id']}/")
    monkeypatch.undo()
    assert answer.status_code == 503, answer.content
    assert answer.json()["error"]["code"] == "service_unavailable"


def test_a_websocket_whose_database_read_fails_is_closed_to_reconnect_not_crashed(
    monkeypatch, caplog
):
    """The game socket's first read meets a lost connection: closed with 4503 (the page
    reconnects with ?since= and catches up), one line in the log, no traceback."""
    from asgiref.sync import async_to_sync
    from django.db import OperationalError

    from games.play import selectors as play_selectors
    from games.play import services as play_services
    from tests.support.websockets import connect, session_headers
    from web.http import db_outage

    user = get_user_model().objects.create_user("socket-outage", password="x")
    castle = play_services.create_game(user=user, variant_slug="selective-castle", seed=21)

    def lost(*args, **kwargs):
        raise OperationalError("consuming input failed") from psycopg.OperationalError()

    monkeypatch.setattr(play_selectors, "watchable_game", lost)
    _, refused = async_to_sync(connect)(f"/ws/games/{castle.game.pk}/", session_headers(user))
    assert refused == db_outage.SERVICE_INTERRUPTED
    assert not [r for r in caplog.records if r.exc_info], "no traceback"
    monkeypatch.undo()
    _, sync = async_to_sync(connect)(f"/ws/games/{castle.game.pk}/?since=0", session_headers(user))
    assert sync["type"] in ("sync", "catch_up"), sync


# -- a real server, its connections terminated again and again ------------------------------


@pytest.fixture
def server():
    env = production_env(connection.settings_dict, "db-outage-test-key", PGAPPNAME=SERVER_APP)
    connection.close()  # the server, not this process, holds the database while it runs
    with servers(1, env) as (url,):
        yield url


def player(username: str) -> str:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(username, password="x")
    return Token.objects.create(user=user).key


class Client:
    """A player sending moves as the play page does: each with an Idempotency-Key, sent again
    with the same key after a 503 or a network failure."""

    def __init__(self, url: str, token: str, statuses: Counter) -> None:
        self.url, self.statuses = url, statuses
        self.http = httpx.Client(
            base_url=url, headers={"Authorization": f"Token {token}"}, timeout=30
        )
        self.acknowledged: list[tuple[int, int, dict]] = []  # (game, move number, move)
        self.games: list[int] = []

    def send(self, method: str, path: str, body: dict | None = None) -> httpx.Response:
        headers = {"Idempotency-Key": uuid.uuid4().hex} if method == "POST" else {}
        for _ in range(50):
            try:
                answer = self.http.request(method, path, json=body, headers=headers)
            except httpx.TransportError:
                self.statuses["network"] += 1
                time.sleep(0.1)
                continue
            self.statuses[answer.status_code] += 1
            if answer.status_code != 503:
                return answer
            assert answer.json()["error"]["code"] == "service_unavailable", answer.text
            assert answer.headers["Retry-After"]
            time.sleep(0.1)
        raise AssertionError(f"{method} {path}: no answer but 503s")

    def new_game(self) -> dict:
        answer = self.send("POST", "/api/games/", {"variant": "selective-castle"})
        assert answer.status_code == 201, answer.text
        self.games.append(answer.json()["id"])
        return answer.json()

    def play(self, until: float) -> None:
        game = self.new_game()
        while time.monotonic() < until:
            if game["status"] != "playing" or not game["legal_moves"]:
                game = self.new_game()
                continue
            moves = [m for m in game["legal_moves"] if m["type"] != "deal"] or game["legal_moves"]
            move = moves[0]
            answer = self.send(
                "POST",
                f"/api/games/{game['id']}/moves/",
                {"move": move, "expected_move_number": game["move_number"]},
            )
            assert answer.status_code == 201, answer.text
            game = answer.json()
            self.acknowledged.append((game["id"], game["move_number"], move))
            if game["move_number"] % 5 == 0:
                read = self.send("GET", f"/api/games/{game['id']}/")
                assert read.status_code == 200, read.text
                assert read.json()["move_number"] == game["move_number"]


def test_terminated_connections_mid_play_give_no_500_and_lose_no_move(server):
    settings_dict = dict(connection.settings_dict)
    statuses: Counter = Counter()
    clients = [Client(server, player(f"outage{n}"), statuses) for n in range(4)]
    until = time.monotonic() + 8
    failures: list[BaseException] = []

    def run(client: Client) -> None:
        try:
            client.play(until)
        except BaseException as error:  # reported below, with the statuses seen
            failures.append(error)

    threads = [threading.Thread(target=run, args=(c,)) for c in clients]
    for thread in threads:
        thread.start()
    terminated = 0
    while time.monotonic() < until:
        time.sleep(0.25)
        terminated += terminate_server_connections(settings_dict)
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads), "a client never finished"
    print(f"\nstatuses {dict(statuses)}, connections terminated {terminated}")
    assert not failures, (failures, statuses)
    assert statuses[500] == 0, statuses
    assert terminated >= 10, "the outage did not happen"
    moves = sum(len(c.acknowledged) for c in clients)
    assert moves >= 20, statuses

    # Every acknowledged move is in its game's history, once, as it was sent.
    for client in clients:
        for game_id, number, move in client.acknowledged:
            assert Move.objects.get(game_id=game_id, number=number).payload == move
        for game_id in client.games:
            numbers = list(Move.objects.filter(game_id=game_id).values_list("number", flat=True))
            assert numbers == list(range(1, len(numbers) + 1))
    # Every stored snapshot is the replay of its history.
    call_command("verify_games")
