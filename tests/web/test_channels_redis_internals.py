"""The parts of channels_redis's pub/sub layer that are not its public API, which
``web.live.layer_watch`` (told when a subscription reconnects) reaches into. pyproject.toml pins
channels-redis to the version these were written against; an upgrade that moves them fails
here, by name, before it fails in a server."""

from __future__ import annotations

import asyncio
import inspect
import re
import tomllib
from importlib.metadata import version
from pathlib import Path

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from redis.asyncio import Redis

ROOT = Path(__file__).resolve().parents[2]


def parameters(function: object) -> list[str]:
    return list(inspect.signature(function).parameters)  # type: ignore[arg-type]


def test_pyproject_pins_the_installed_channels_redis() -> None:
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    (pin,) = [d for d in dependencies if re.match(r"channels-redis\b", d)]
    assert pin == f"channels-redis=={version('channels-redis')}"


def test_the_private_method_used_exists_with_its_signature() -> None:
    # The layer of the running event loop, whose shards web.live.layer_watch hooks.
    assert parameters(RedisPubSubChannelLayer._get_layer) == ["self"]


def test_the_private_attributes_used_are_there_and_of_their_kind() -> None:
    async def look() -> None:
        layer = RedisPubSubChannelLayer(hosts=["redis://127.0.0.1:1"], prefix="internals.")
        loop_layer = layer._get_layer()
        assert isinstance(loop_layer, RedisPubSubLoopLayer)
        assert layer._get_layer() is loop_layer  # one per event loop
        assert isinstance(loop_layer._shards, list)  # web.live.layer_watch
        assert loop_layer._shards and all(
            isinstance(shard, RedisSingleShardConnection) for shard in loop_layer._shards
        )
        shard = loop_layer._shards[0]
        assert shard._redis is None and shard._pubsub is None  # nothing connected yet
        shard._ensure_redis()  # connects nothing either: a client, its pool, its pub/sub
        assert isinstance(shard._redis, Redis)
        # web.live.layer_watch: the subscription's connection, once there is one, takes a callback.
        assert hasattr(shard._pubsub, "connection")
        await shard._redis.aclose()

    asyncio.run(look())
