"""The cost of one live update through Redis, per Channels layer.

    .venv/bin/python -m bench.publish_bench [--sends N] [--rounds R] [--redis-url URL]

Every move publishes the game, as its player sees it, to the game's group
(``web.live.games``). This sends such a message ``--sends`` times (default 3,000, after 200 not
counted), one after the other as a worker's publisher does, with each of channels_redis's two
layers in turn, ``--rounds`` times (default 3), and prints per send: the CPU time of this
process (what a server worker spends), the wall time, and the CPU time Redis reports having
used (``INFO cpu``; other clients of the same Redis add to it). Nobody listens: the cost of
delivering to watchers is ``ws_bench``'s subject. Uses Redis database 5 of 127.0.0.1:6379 by
default; nothing is stored.

The message is a real one: a Selective Castle deal's player view and legal moves, the largest
of the five games' first positions.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Callable
from typing import Any

import msgpack
import redis
from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer

from games.rules import get_variant

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/5"
WARM_UP_SENDS = 200
GROUP = "publish-bench"

LAYERS: dict[str, Callable[[str], Any]] = {
    "RedisChannelLayer": lambda url: RedisChannelLayer(hosts=[{"address": url}]),
    "RedisPubSubChannelLayer": lambda url: RedisPubSubChannelLayer(hosts=[{"address": url}]),
}


def game_update() -> dict[str, Any]:
    """A live update as ``web.live.games`` sends it (the representation's shape, no database)."""
    variant = get_variant("selective-castle")
    state = variant.deal(2026)
    game = {
        "id": 1,
        "variant": variant.slug,
        "seed": None,
        "status": "playing",
        "move_number": 0,
        "ranked": False,
        "daily": None,
        "state": variant.player_view(state, reveal_seed=False),
        "legal_moves": [move.to_json() for move in variant.legal_moves(state)],
        "counts": {"moves": 0, "undos": 0},
        "can_undo": False,
        "created_at": "2026-11-21T12:00:00.000000Z",
        "last_move_at": None,
        "finished_at": None,
        "events": [],
    }
    return {"type": "game.update", "game": game}


def redis_cpu_seconds(client: redis.Redis) -> float:
    info = client.info("cpu")
    return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])


async def send_many(layer: Any, message: dict[str, Any], sends: int) -> tuple[float, float]:
    """(CPU, wall) seconds of this process for ``sends`` group messages after a warm-up."""
    for _ in range(WARM_UP_SENDS):
        await layer.group_send(GROUP, message)
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(sends):
        await layer.group_send(GROUP, message)
    return time.process_time() - cpu, time.perf_counter() - wall


def measure(url: str, make_layer: Callable[[str], Any], sends: int) -> dict[str, float]:
    """Microseconds per send: this process's CPU, wall time, Redis's CPU."""
    message = game_update()
    client = redis.Redis.from_url(url, socket_timeout=5)
    try:
        before = redis_cpu_seconds(client)
        cpu, wall = asyncio.run(send_many(make_layer(url), message, sends))
        redis_cpu = redis_cpu_seconds(client) - before
    finally:
        client.close()
    per_send = 1e6 / sends
    return {
        "cpu_us": cpu * per_send,
        "wall_us": wall * per_send,
        "redis_cpu_us": redis_cpu * 1e6 / (sends + WARM_UP_SENDS),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sends", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL)
    args = parser.parse_args(argv)
    size = len(msgpack.packb(game_update()))
    print(f"{args.sends} sends of a {size}-byte game update per round, {args.redis_url}")
    print(f"{'layer':25s} {'round':>5s} | {'CPU us':>7s} {'wall us':>8s} {'Redis CPU us':>13s}")
    for round_number in range(1, args.rounds + 1):
        for name, make_layer in LAYERS.items():
            figures = measure(args.redis_url, make_layer, args.sends)
            print(
                f"{name:25s} {round_number:5d} | {figures['cpu_us']:7.1f} "
                f"{figures['wall_us']:8.1f} {figures['redis_cpu_us']:13.1f}"
            )


if __name__ == "__main__":
    main()
