"""The parts of channels_redis's pub/sub layer that are not its public API, which
``web.publish.publish_together`` (one pipeline of PUBLISH per shard) and ``web.layer_watch``
(told when a subscription reconnects) reach into. pyproject.toml pins channels-redis to the
version these were written against; an upgrade that moves them fails here, by name, before it
fails in a server."""

from __future__ import annotations

import asyncio
import inspect
import os
import re
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from redis.asyncio import Redis

from web.publish import publish_together

ROOT = Path(__file__).resolve().parents[2]


def parameters(function: object) -> list[str]:
    return list(inspect.signature(function).parameters)  # type: ignore[arg-type]


def test_pyproject_pins_the_installed_channels_redis() -> None:
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    (pin,) = [d for d in dependencies if re.match(r"channels-redis\b", d)]
    assert pin == f"channels-redis=={version('channels-redis')}"


def test_the_private_methods_used_exist_with_their_signatures() -> None:
    # RedisPubSubChannelLayer: the loop's layer, and the serialization group_send uses.
    assert parameters(RedisPubSubChannelLayer._get_layer) == ["self"]
    assert parameters(RedisPubSubChannelLayer.serialize) == ["self", "message"]
    # Its loop layer: a group's channel name, and the shard that carries it.
    assert parameters(RedisPubSubLoopLayer._get_group_channel_name) == ["self", "group"]
    assert parameters(RedisPubSubLoopLayer._get_shard) == ["self", "channel_or_group_name"]
    # A shard: connects lazily; its publish holds its lock around the connection's PUBLISH,
    # which publish_together does too, for a whole pipeline.
    assert parameters(RedisSingleShardConnection._ensure_redis) == ["self"]
    assert not inspect.iscoroutinefunction(RedisSingleShardConnection._ensure_redis)
    publish_source = inspect.getsource(RedisSingleShardConnection.publish)
    assert "async with self._lock" in publish_source
    assert "self._ensure_redis()" in publish_source
    assert "self._redis.publish(channel, message)" in publish_source
    group_send_source = inspect.getsource(RedisPubSubLoopLayer.group_send)
    assert "self._get_group_channel_name(group)" in group_send_source
    assert "self._get_shard(group_channel)" in group_send_source
    assert "self.channel_layer.serialize(message)" in group_send_source


def test_the_private_attributes_used_are_there_and_of_their_kind() -> None:
    async def look() -> None:
        layer = RedisPubSubChannelLayer(hosts=["redis://127.0.0.1:1"], prefix="internals.")
        loop_layer = layer._get_layer()
        assert isinstance(loop_layer, RedisPubSubLoopLayer)
        assert layer._get_layer() is loop_layer  # one per event loop
        assert isinstance(loop_layer._shards, list)  # web.layer_watch
        shard = loop_layer._get_shard(loop_layer._get_group_channel_name("g"))
        assert shard in loop_layer._shards
        assert isinstance(shard, RedisSingleShardConnection)
        assert isinstance(shard._lock, asyncio.Lock)
        assert shard._redis is None and shard._pubsub is None  # nothing connected yet
        shard._ensure_redis()  # connects nothing either: a client and its pool
        assert isinstance(shard._redis, Redis)
        assert "transaction" in parameters(shard._redis.pipeline)
        # web.layer_watch: the subscription's connection, once there is one, takes a callback.
        assert hasattr(shard._pubsub, "connection")
        await shard._redis.aclose()

    asyncio.run(look())


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (CI has it)")
def test_publish_together_delivers_what_group_send_would_through_a_real_layer() -> None:
    layer = RedisPubSubChannelLayer(hosts=[os.environ["REDIS_URL"]], prefix="internals-test.")

    async def deliver() -> tuple[list[dict], list[dict]]:
        first, second = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("internals-a", first)
        await layer.group_add("internals-b", second)
        await layer.group_add("internals-b", first)
        messages = [
            ("internals-a", {"type": "game.update", "n": 1}),
            ("internals-b", {"type": "game.update", "n": 2}),
            ("internals-a", {"type": "game.update", "n": 3, "game": {"é": [1, 2.5, None]}}),
        ]
        await publish_together(layer, messages)
        await layer.group_send("internals-b", {"type": "game.update", "n": 4})
        async with asyncio.timeout(10):
            got_first = [await layer.receive(first) for _ in range(4)]
            got_second = [await layer.receive(second) for _ in range(2)]
        await layer.flush()
        return got_first, got_second

    got_first, got_second = asyncio.run(deliver())
    assert [m["n"] for m in got_first] == [1, 2, 3, 4]
    assert got_first[2]["game"] == {"é": [1, 2.5, None]}
    assert [m["n"] for m in got_second] == [2, 4]
