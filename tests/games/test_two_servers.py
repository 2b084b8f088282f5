"""End to end across processes: a move posted to one server reaches a websocket client
connected to another, through the shared PostgreSQL and Redis (as in production)."""

from __future__ import annotations

import asyncio
import json
import os

import httpx
import pytest
import websockets
from django.db import connection
from rest_framework.authtoken.models import Token

from games import daily
from tests.support.servers import database_url, servers

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql" or not os.environ.get("REDIS_URL"),
        reason="needs PostgreSQL and Redis (CI has both and fails without them)",
    ),
]


@pytest.fixture
def two_servers():
    env = {
        "DATABASE_URL": database_url(connection.settings_dict),
        "REDIS_URL": os.environ["REDIS_URL"],
        "DEBUG": "0",
        "SECRET_KEY": "two-servers-test-key",
        "ALLOWED_HOSTS": "127.0.0.1",
    }
    connection.close()  # the servers, not this process, hold the database while they run
    with servers(2, env) as urls:
        yield urls


def player(username: str) -> str:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(username, password="x")
    return Token.objects.create(user=user).key


async def receive(ws, kind: str, timeout: float = 10) -> dict:
    """The next message of ``kind``, skipping others."""
    async with asyncio.timeout(timeout):
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == kind:
                return message


def test_a_move_posted_to_one_server_reaches_a_websocket_on_the_other(two_servers):
    server_a, server_b = two_servers
    token = player("traveller")
    auth = {"Authorization": f"Token {token}"}
    game = httpx.post(
        f"{server_a}/api/games/", json={"variant": "selective-castle"}, headers=auth
    ).json()

    async def scenario():
        ws_url = server_b.replace("http", "ws") + f"/ws/games/{game['id']}/"
        async with websockets.connect(
            ws_url, additional_headers={**auth, "Origin": server_b}
        ) as ws:
            assert (await receive(ws, "sync"))["game"]["move_number"] == 0
            async with httpx.AsyncClient() as client:
                answer = await client.post(
                    f"{server_a}/api/games/{game['id']}/moves/",
                    json={"move": game["legal_moves"][0], "expected_move_number": 0},
                    headers=auth,
                )
            assert answer.status_code == 201, answer.text
            update = await receive(ws, "update")
            assert update["game"]["move_number"] == 1
            assert update["game"]["state"] == answer.json()["state"]

    asyncio.run(scenario())


def test_two_players_on_two_servers_see_each_other_on_the_daily_leaderboard(two_servers):
    server_a, server_b = two_servers
    today = daily.today().isoformat()
    alice, bob = player("alice"), player("bob")

    async def scenario():
        board_url = server_b.replace("http", "ws") + f"/ws/leaderboards/daily/{today}/gold-mine/"
        async with (
            websockets.connect(
                board_url, additional_headers={"Authorization": f"Token {bob}", "Origin": server_b}
            ) as ws,
            httpx.AsyncClient() as client,
        ):
            assert (await receive(ws, "leaderboard"))["count"] == 0
            attempt = await client.post(
                f"{server_a}/api/daily/{today}/gold-mine/attempt/",
                headers={"Authorization": f"Token {alice}"},
            )
            assert attempt.status_code == 201, attempt.text
            board = await receive(ws, "leaderboard")
            assert [entry["user"] for entry in board["results"]] == ["alice"]
            assert board["me"] is None
            await client.post(
                f"{server_a}/api/games/{attempt.json()['id']}/moves/",
                json={"move": {"type": "deal"}},
                headers={"Authorization": f"Token {alice}"},
            )
            while (board := await receive(ws, "leaderboard"))["results"][0]["moves"] != 1:
                pass

    asyncio.run(scenario())
