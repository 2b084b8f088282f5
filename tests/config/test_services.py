"""The configured backing services work: the database (SQLite or PostgreSQL) and the channel layer
(in-memory or Redis)."""

import asyncio
import contextlib
import os
import uuid

import pytest
import redis.asyncio
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model


@pytest.mark.django_db
def test_database_round_trip() -> None:
    user_model = get_user_model()
    user_model.objects.create_user(username="ada", password="a-long-password")
    assert user_model.objects.filter(username="ada").exists()


def test_channel_layer_round_trip() -> None:
    layer = get_channel_layer()
    assert layer is not None

    async def round_trip() -> dict:
        # A channel exists once a consumer has it: with Redis pub/sub, a message sent to a
        # channel nobody listens on is gone.
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "ping", "n": 1})
        return await asyncio.wait_for(layer.receive(channel), timeout=5)

    assert async_to_sync(round_trip)() == {"type": "ping", "n": 1}


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (CI has it)")
def test_group_members_keep_getting_messages_after_redis_drops_the_subscriber() -> None:
    """Redis pub/sub keeps nothing for a listener that is away, so the layer must subscribe
    again by itself when its connection is cut (a Redis restart, a network blip)."""
    layer = get_channel_layer()
    group = f"test-reconnect-{uuid.uuid4().hex}"

    async def survives_a_cut_connection() -> dict:
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        received: asyncio.Queue[dict] = asyncio.Queue()

        async def listen() -> None:  # one receive for good: cancelling one drops the channel
            while True:
                await received.put(await layer.receive(channel))

        listener = asyncio.create_task(listen())
        try:
            await layer.group_send(group, {"type": "before"})
            assert await asyncio.wait_for(received.get(), timeout=5) == {"type": "before"}
            killer = redis.asyncio.Redis.from_url(os.environ["REDIS_URL"])
            try:
                assert await killer.client_kill_filter(_type="pubsub") >= 1
            finally:
                await killer.aclose()
            # What is sent while the subscriber is away is lost; once it is back, it arrives.
            for _ in range(20):
                await layer.group_send(group, {"type": "after"})
                try:
                    return await asyncio.wait_for(received.get(), timeout=0.5)
                except TimeoutError:
                    continue
            raise AssertionError("the layer never subscribed again")
        finally:
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listener

    assert async_to_sync(survives_a_cut_connection)() == {"type": "after"}


@pytest.mark.django_db
def test_postgres_prepares_a_statement_the_service_runs_again_and_again() -> None:
    """Parsed and planned once per connection: the token lookup every API call makes."""
    from django.db import connection

    from accounts.authentication import token_owner

    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only (CI runs it there)")
    for _ in range(6):
        token_owner("no-such-token")
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any("authtoken_token" in statement for statement in prepared), prepared
