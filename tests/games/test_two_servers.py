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

from games.core import days
from tests.support.servers import prepare_dailies_around_today, production_env, servers

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql" or not os.environ.get("REDIS_URL"),
        reason="needs PostgreSQL and Redis (CI has both and fails without them)",
    ),
]


@pytest.fixture
def two_servers():
    env = production_env(connection.settings_dict, "two-servers-test-key")
    prepare_dailies_around_today()  # as a server's day-closing thread does; these run none
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


def test_two_players_on_two_servers_see_each_other_on_every_daily_leaderboard(two_servers):
    """Alice plays on server A and watches on A; Bob plays on B and watches on B; each sees
    the other's progress without reloading, for today's challenge of each of the five games."""
    server_a, server_b = two_servers
    today = days.today().isoformat()
    tokens = {"alice": player("alice"), "bob": player("bob")}
    home = {"alice": server_a, "bob": server_b}

    async def play_one_move(client, name: str, game: dict) -> None:
        answer = await client.post(
            f"{home[name]}/api/games/{game['id']}/moves/",
            json={"move": game["legal_moves"][0], "expected_move_number": game["move_number"]},
            headers={"Authorization": f"Token {tokens[name]}"},
        )
        assert answer.status_code == 201, answer.text

    async def sees(ws, name: str, moves: int) -> dict:
        """Wait for a board on which ``name`` has made ``moves`` moves."""
        while True:
            board = await receive(ws, "leaderboard")
            entry = next((e for e in board["results"] if e["user"] == name), None)
            if entry and entry["moves"] == moves:
                return board

    async def scenario(slug: str):
        path = f"/ws/leaderboards/daily/{today}/{slug}/"
        async with httpx.AsyncClient() as client:
            games = {}
            for name in ("alice", "bob"):
                answer = await client.post(
                    f"{home[name]}/api/daily/{today}/{slug}/attempt/",
                    headers={"Authorization": f"Token {tokens[name]}"},
                )
                assert answer.status_code == 201, answer.text
                games[name] = answer.json()
            watchers = {}
            for name in ("alice", "bob"):
                watchers[name] = await websockets.connect(
                    home[name].replace("http", "ws") + path,
                    additional_headers={
                        "Authorization": f"Token {tokens[name]}",
                        "Origin": home[name],
                    },
                )
            try:
                await play_one_move(client, "alice", games["alice"])
                bob_sees = await sees(watchers["bob"], "alice", 1)
                assert bob_sees["me"]["user"] == "bob"
                await play_one_move(client, "bob", games["bob"])
                alice_sees = await sees(watchers["alice"], "bob", 1)
                assert {e["user"] for e in alice_sees["results"]} == {"alice", "bob"}
                assert alice_sees["me"]["user"] == "alice"
            finally:
                for ws in watchers.values():
                    await ws.close()

    for slug in ("grounds-for-divorce", "gold-mine", "selective-castle",
                 "grandfathers-clock", "blondes-and-brunettes"):  # fmt: skip
        asyncio.run(scenario(slug))
