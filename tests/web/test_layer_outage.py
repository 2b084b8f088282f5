"""A Redis outage under the channel layer: live sockets are closed (4503), never left saying
"Live" while updates are lost, and a reconnection afterwards catches up what was missed.

These start a Redis server of their own (``redis-server``, as on CI) so they can stop it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games import consumers
from games.core import days
from games.daily import services as daily_services
from games.play import services as play_services
from tests.games.test_websockets import move_of
from tests.redis_server import PrivateRedis
from tests.redis_server import private_redis as start_private_redis
from tests.support.waiting import until
from tests.support.websockets import ORIGIN, connect, session_headers
from web.live import layer_watch

pytestmark = pytest.mark.django_db(transaction=True)

play = database_sync_to_async(play_services.play_move)


@pytest.fixture
def private_redis(settings) -> Iterator[PrivateRedis]:
    for server in start_private_redis():  # one, stopped once the test is done with it
        settings.CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                "CONFIG": {"hosts": [{"address": server.url, "socket_timeout": 5}]},
            }
        }
        settings.LIVE_LAYER_CHECK_SECONDS = 0.5
        yield server


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("outage", password="x")


@pytest.fixture
def castle(player):
    return play_services.create_game(user=player, variant_slug="selective-castle", seed=21)


async def reconnect(path: str, headers, seconds: float = 10):
    """Connect until the layer lets a connection join its group again."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            ws, first = await connect(path, headers)
        except Exception:
            first = None
        if isinstance(first, dict):
            return ws, first
        if time.monotonic() > deadline:
            raise AssertionError(f"no connection after the outage (last: {first!r})")
        await asyncio.sleep(0.2)


def test_an_outage_closes_the_game_socket_and_the_reconnection_catches_up(
    player, castle, private_redis, settings
):
    settings.WEBSOCKET_CONNECTIONS_PER_ACCOUNT = 1  # the closed socket's slot must come back
    headers = session_headers(player)
    path = f"/ws/games/{castle.game.pk}/"
    after_first = play_services.play_move(user=player, game_id=castle.game.pk, move=move_of(castle))

    @async_to_sync
    async def scenario():
        ws, sync = await connect(path, headers)
        assert sync["type"] == "sync" and sync["game"]["move_number"] == 1

        private_redis.stop()
        # The move is recorded whatever Redis does; its update is lost with Redis.
        await play(user=player, game_id=castle.game.pk, move=move_of(after_first))

        closed = await ws.receive_output(timeout=5)
        assert closed == {"type": "websocket.close", "code": consumers.LAYER_INTERRUPTED}
        await ws.disconnect()

        private_redis.start()
        ws, catch_up = await reconnect(f"{path}?since=1", headers)
        assert catch_up["type"] == "catch_up", catch_up  # not 4430: the slot was given back
        assert [entry["number"] for entry in catch_up["missed"]] == [2]
        assert catch_up["game"]["move_number"] == 2
        await ws.disconnect()

    scenario()


def test_a_short_outage_between_two_checks_still_closes_the_socket(
    player, castle, private_redis, settings
):
    settings.LIVE_LAYER_CHECK_SECONDS = 2
    headers = session_headers(player)

    @async_to_sync
    async def scenario():
        ws, sync = await connect(f"/ws/games/{castle.game.pk}/", headers)
        assert sync["type"] == "sync"
        # Just after the watch started (listening for the layer's reconnections): its next
        # check is far off.
        watch = layer_watch._watches[asyncio.get_running_loop()]
        await until(lambda: len(watch.hooked) > 0, "the layer watch listening for reconnects")
        private_redis.stop()
        private_redis.start()  # back well before the next check
        # The layer re-subscribes by itself; whatever was published in the gap is lost, so
        # the socket is closed for the page to catch up.
        closed = await ws.receive_output(timeout=8)
        assert closed == {"type": "websocket.close", "code": consumers.LAYER_INTERRUPTED}
        await ws.disconnect()

    scenario()


def test_while_the_layer_delivers_the_socket_stays_open(player, castle, private_redis):
    headers = session_headers(player)

    @async_to_sync
    async def scenario():
        ws, _ = await connect(f"/ws/games/{castle.game.pk}/", headers)
        watch = layer_watch._watches[asyncio.get_running_loop()]

        async def checked_twice() -> None:
            while watch.checks < 2:
                await asyncio.sleep(0.05)

        # Waits for the checks themselves, not a time they should fit in: a loaded machine
        # makes them late, not wrong.
        await asyncio.wait_for(checked_twice(), 30)
        assert await ws.receive_nothing(timeout=0.3)
        await play(user=player, game_id=castle.game.pk, move=move_of(castle))
        update = await ws.receive_json_from(timeout=5)
        assert update["type"] == "update" and update["game"]["move_number"] == 1
        await ws.disconnect()

    scenario()


def test_the_in_memory_layer_is_not_watched(player, castle, settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    headers = session_headers(player)

    @async_to_sync
    async def scenario():
        assert get_channel_layer() is not None
        ws, sync = await connect(f"/ws/games/{castle.game.pk}/", headers)
        assert sync["type"] == "sync"
        assert asyncio.get_running_loop() not in layer_watch._watches
        await ws.disconnect()

    scenario()


def test_an_outage_closes_a_leaderboard_socket_and_a_reconnection_gets_the_board(
    player, private_redis
):
    today = days.today()
    path = f"/ws/leaderboards/daily/{today.isoformat()}/selective-castle/"

    @async_to_sync
    async def scenario():
        ws, first = await connect(path, [ORIGIN])
        assert first["type"] == "leaderboard" and first["count"] == 0
        private_redis.stop()
        # An attempt started during the outage: its change signal is lost with Redis.
        await database_sync_to_async(daily_services.start_daily_attempt)(
            user=player, date=today, variant_slug="selective-castle"
        )
        closed = await ws.receive_output(timeout=5)
        assert closed == {"type": "websocket.close", "code": consumers.LAYER_INTERRUPTED}
        await ws.disconnect()

        private_redis.start()
        ws, board = await reconnect(path, [ORIGIN])
        assert board["type"] == "leaderboard" and board["count"] == 1
        await ws.disconnect()

    scenario()


def test_with_redis_unreachable_a_new_socket_is_refused_in_one_line(
    player, castle, settings, caplog
):
    # Port 1: refused at once, as a Redis that is down. Channels itself fails first, making
    # the connection's channel; that was a 500 and a traceback per attempt.
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]},
        }
    }
    headers = session_headers(player)
    for path in (
        f"/ws/games/{castle.game.pk}/",
        f"/ws/leaderboards/daily/{days.today()}/gold-mine/",
    ):
        _, refused = async_to_sync(connect)(path, headers)
        assert refused == consumers.LAYER_INTERRUPTED, refused
    warnings = [r.getMessage() for r in caplog.records if r.name == "patience.websockets"]
    assert len(warnings) == 2 and all("Redis is unreachable" in w for w in warnings), warnings
    assert not [r for r in caplog.records if r.exc_info], "no traceback"
