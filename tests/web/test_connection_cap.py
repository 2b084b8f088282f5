"""At most so many websockets per account and per address, counted in this process's memory or,
with ``REDIS_URL``, in Redis over every server process (``web.live.connection_cap``).

The counting tests run on both counters: in memory always, on Redis when ``REDIS_URL`` is set
(CI). A process that dies is shown by slots that are never renewed nor released.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from typing import Any

import pytest
import redis
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.test import Client
from rest_framework.authtoken.models import Token

from config.asgi import application
from games.core import days
from games.play import services as play_services
from tests.support.waiting import until
from web.live import connection_cap

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = (b"origin", b"http://testserver")
HOME, OFFICE = "203.0.113.7", "198.51.100.20"


@pytest.fixture(params=["memory", "redis"])
def counters(request, settings) -> str:
    """The counters under test, empty."""
    connection_cap.memory_store.counters.clear()
    if request.param == "redis":
        url = os.environ.get("REDIS_URL")
        if not url:
            pytest.skip("needs Redis (CI has it)")
        settings.REDIS_URL = url
        clear_redis_counters(url)
    else:
        settings.REDIS_URL = None
    return request.param


def clear_redis_counters(url: str) -> None:
    client = redis.Redis.from_url(url)
    try:
        keys = list(client.scan_iter(connection_cap.redis_prefix(url) + "*"))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


def session_headers(user) -> list[tuple[bytes, bytes]]:
    client = Client()
    client.force_login(user)
    return [ORIGIN, (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())]


async def open_socket(path: str, headers: list, address: str) -> tuple[Any, Any]:
    """The communicator and its first message, or the close code it was refused with (and
    the refusal's error message before it, as ``(code, message)``)."""
    communicator = WebsocketCommunicator(application, path, headers=headers)
    communicator.scope["client"] = (address, 50000)
    connected, code = await communicator.connect(timeout=5)
    assert connected, code
    output = await communicator.receive_output(timeout=5)
    if output["type"] == "websocket.close":
        return communicator, (output["code"], None)
    first = json.loads(output["text"])
    if first.get("type") == "error":
        closing = await communicator.receive_output(timeout=5)
        assert closing["type"] == "websocket.close"
        return communicator, (closing["code"], first)
    return communicator, first


def board_path() -> str:
    return f"/ws/leaderboards/daily/{days.today().isoformat()}/gold-mine/"


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("many-tabs", password="x")


def test_an_account_at_its_cap_is_refused_one_more_connection_until_one_closes(
    counters, settings, player
):
    settings.WEBSOCKET_CONNECTIONS_PER_ACCOUNT = 2
    game = play_services.create_game(user=player, variant_slug="gold-mine", seed=4).game
    headers = session_headers(player)
    path = f"/ws/games/{game.pk}/"

    @async_to_sync
    async def scenario():
        # From two addresses: it is the account that is counted.
        first, sync = await open_socket(path, headers, HOME)
        assert sync["type"] == "sync"
        second, sync = await open_socket(board_path(), headers, OFFICE)
        assert sync["type"] == "leaderboard"
        third, (code, error) = await open_socket(path, headers, "192.0.2.1")
        assert code == 4430
        assert error["code"] == "too_many_connections"
        await third.wait()

        await first.disconnect()
        await first.wait()
        again, sync = await open_socket(path, headers, HOME)
        assert sync["type"] == "sync"
        for ws in (second, again):
            await ws.disconnect()

    scenario()


def test_anonymous_watchers_count_by_address_and_a_refusal_is_logged(counters, settings, caplog):
    settings.WEBSOCKET_CONNECTIONS_PER_ADDRESS = 2
    caplog.set_level(logging.WARNING, logger="patience.websockets")

    @async_to_sync
    async def scenario():
        watchers = []
        for _ in range(2):
            ws, board = await open_socket(board_path(), [ORIGIN], HOME)
            assert board["type"] == "leaderboard"
            watchers.append(ws)
        _, (code, error) = await open_socket(board_path(), [ORIGIN], HOME)
        assert code == 4430 and error["code"] == "too_many_connections"
        elsewhere, board = await open_socket(board_path(), [ORIGIN], OFFICE)
        assert board["type"] == "leaderboard"
        for ws in (*watchers, elsewhere):
            await ws.disconnect()

    scenario()
    refusals = [r.getMessage() for r in caplog.records if r.name == "patience.websockets"]
    assert len(refusals) == 1
    assert f"address:{HOME}" in refusals[0]
    assert "WEBSOCKET_CONNECTIONS_PER_ADDRESS" in refusals[0]


def test_a_signed_in_connection_counts_for_its_address_too(counters, settings, player):
    settings.WEBSOCKET_CONNECTIONS_PER_ADDRESS = 1
    headers = session_headers(player)

    @async_to_sync
    async def scenario():
        mine, board = await open_socket(board_path(), headers, HOME)
        assert board["type"] == "leaderboard"
        _, (code, _) = await open_socket(board_path(), [ORIGIN], HOME)
        assert code == 4430
        await mine.disconnect()

    scenario()


def test_connections_that_ended_or_were_refused_give_their_slots_back(counters, settings):
    settings.WEBSOCKET_CONNECTIONS_PER_ADDRESS = 1

    @async_to_sync
    async def scenario():
        for _ in range(3):  # each refused (no such path), then the next gets the slot
            ws, (code, _) = await open_socket("/ws/nowhere/", [ORIGIN], HOME)
            assert code == 4404
            await ws.wait()
        for _ in range(3):
            ws, board = await open_socket(board_path(), [ORIGIN], HOME)
            assert board["type"] == "leaderboard"
            await ws.disconnect()
            await ws.wait()

    scenario()


def test_a_live_connection_keeps_its_slot_past_the_expiry(counters, settings):
    settings.WEBSOCKET_CONNECTIONS_PER_ADDRESS = 1
    # Renewed every 1 s: a renewal may come up to 2 s late (a loaded machine) and still hold.
    settings.WEBSOCKET_CONNECTION_TTL = 3

    @async_to_sync
    async def scenario():
        holder, board = await open_socket(board_path(), [ORIGIN], HOME)
        assert board["type"] == "leaderboard"
        # Past the first expiry, the behaviour under test (a time must pass, nothing to wait
        # for): only renewals kept the slot.
        await asyncio.sleep(4)
        _, (code, _) = await open_socket(board_path(), [ORIGIN], HOME)
        assert code == 4430
        await holder.disconnect()
        await holder.wait()
        again, board = await open_socket(board_path(), [ORIGIN], HOME)
        assert board["type"] == "leaderboard"
        await again.disconnect()

    scenario()


def test_the_slots_of_a_process_that_died_expire(counters):
    """A dead process neither renews nor releases its slots: they free themselves."""
    counter = connection_cap.Counter(f"address:{HOME}", 1, "WEBSOCKET_CONNECTIONS_PER_ADDRESS")

    @async_to_sync
    async def scenario():
        store = connection_cap._registry().store
        assert await store.take([counter], "of-the-dead-process", 0.5) is None
        assert await store.take([counter], "another", 0.5) == counter

        # Freed by its expiry, however late this looks (no fixed time it must fit in).
        async def another_takes_it() -> bool:
            return await store.take([counter], "another", 0.5) is None

        await until(another_takes_it, "the dead process's slot expired", timeout=10)

    scenario()


def test_an_ipv6_address_counts_with_its_slash_64():
    def address(host: str) -> str | None:
        return connection_cap.address_of({"client": (host, 1)})

    assert address("2001:db8:1:2::1") == address("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert address("2001:db8:1:3::1") != address("2001:db8:1:2::1")
    assert address("::ffff:203.0.113.7") == address("203.0.113.7") == "203.0.113.7"
    assert connection_cap.address_of({}) is None


def test_a_cap_of_zero_counts_nothing(settings, player):
    settings.WEBSOCKET_CONNECTIONS_PER_ACCOUNT = 0
    settings.WEBSOCKET_CONNECTIONS_PER_ADDRESS = 0
    scope = {"user": player, "client": (HOME, 1)}
    assert connection_cap.counters_for(scope) == []


# -- across server processes ----------------------------------------------------------------


@pytest.mark.skipif(
    connection.vendor != "postgresql" or not os.environ.get("REDIS_URL"),
    reason="needs PostgreSQL and Redis (CI has both and fails without them)",
)
def test_the_cap_holds_over_two_server_processes(player):
    import websockets

    from tests.support.servers import production_env, servers

    clear_redis_counters(os.environ["REDIS_URL"])
    token = Token.objects.create(user=player).key
    env = production_env(
        connection.settings_dict,
        "connection-cap-test-key",
        WEBSOCKET_CONNECTIONS_PER_ACCOUNT="2",
    )
    connection.close()  # the servers hold the database while they run

    async def first_message(ws) -> dict:
        return json.loads(await asyncio.wait_for(ws.recv(), 10))

    async def scenario(server_a: str, server_b: str) -> None:
        def watch(server: str):
            url = server.replace("http", "ws") + board_path()
            headers = {"Authorization": f"Token {token}", "Origin": server}
            return websockets.connect(url, additional_headers=headers)

        async with watch(server_a) as on_a, watch(server_b) as on_b:
            assert (await first_message(on_a))["type"] == "leaderboard"
            assert (await first_message(on_b))["type"] == "leaderboard"
            async with watch(server_a) as third:
                assert (await first_message(third))["code"] == "too_many_connections"
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    await asyncio.wait_for(third.recv(), 10)
                assert closed.value.rcvd.code == 4430
            await on_b.close()

            async def a_board_on_a() -> bool:  # once server B has released its slot
                async with watch(server_a) as again:
                    return (await first_message(again))["type"] == "leaderboard"

            await until(a_board_on_a, "server B released its slot", timeout=10, poll=0.1)

    with servers(2, env) as (server_a, server_b):
        asyncio.run(scenario(server_a, server_b))
