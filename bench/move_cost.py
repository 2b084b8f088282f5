"""CPU cost of one move and of one trivial request, in process, without a server.

``api_bench`` measures what clients see; its ratio of moves to trivial requests is set by how
much CPU the server spends on each. This measures that CPU directly, repeatably and on one
core: Django's test client (the same middleware, views and database, no ASGI server or
sockets) against PostgreSQL, one request after another, and prints CPU µs per request, the
statements a move runs, and optionally a cProfile of the moves.

```sh
.venv/bin/python -m bench.move_cost                 # 2,000 moves, 2,000 health requests
.venv/bin/python -m bench.move_cost --profile 25    # and the 25 costliest functions
.venv/bin/python -m bench.move_cost --redis         # the live update published through Redis
```

Besides the REST move it measures the same move sent as the game's websocket sends it
(``games.play.socket_actions.answer_action``: the key's claim, the service, the stored answer;
no ASGI, no frame) and the service function alone (``games.play.services.play_move``: the
engine, the transaction and its statements, the live update built and, with ``--redis``,
published): the floor under any path a move takes.

Needs PostgreSQL on 127.0.0.1:5432. Its database (``patience_move_cost``) is migrated and
flushed first, in a subprocess (``bench.harness.prepare_database``). Unless ``--redis`` is
given there is no channel layer: a move's live update is built after the commit but not sent
(in a server it is sent on the event loop, after the response, so not part of this cost).
The profile counts CPU time, not waiting for PostgreSQL.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from bench.harness import DEFAULT_REDIS_URL, prepare_database, server_env

DB_NAME = "patience_move_cost"
VARIANTS = (
    "grounds-for-divorce",
    "gold-mine",
    "selective-castle",
    "grandfathers-clock",
    "blondes-and-brunettes",
)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--health", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="print N functions")
    parser.add_argument("--redis", action="store_true", help="publish through Redis")
    return parser.parse_args(argv)


def setup_django(redis: bool) -> str:
    env = server_env(DEFAULT_REDIS_URL if redis else None, db_name=DB_NAME)
    if not redis:
        env.pop("REDIS_URL", None)
        os.environ.pop("REDIS_URL", None)
    (token,) = prepare_database(env, players=1)
    os.environ.update(env)
    import django

    django.setup()
    if not redis:
        from django.conf import settings

        # No layer: the update is still built after the commit, but nothing is sent (in a
        # server it is sent on the event loop, after the response).
        settings.CHANNEL_LAYERS = {}
    return token


class MovePlayer:
    """Random legal moves through the API, a new game (the five in turn) when one ends."""

    def __init__(self, client: Any, token: str, seed: int) -> None:
        self.client = client
        self.headers = {"HTTP_AUTHORIZATION": f"Token {token}"}
        self.rng = random.Random(seed)
        self.game: dict[str, Any] | None = None
        self.started = 0

    def ready(self) -> None:
        while self.game is None or self.game["status"] != "playing" or not self.game["legal_moves"]:
            variant = VARIANTS[self.started % len(VARIANTS)]
            self.started += 1
            response = self.client.post(
                "/api/games/", {"variant": variant}, content_type="application/json", **self.headers
            )
            assert response.status_code == 201, response.content
            self.game = response.json()

    def move(self) -> None:
        assert self.game is not None
        payload = {
            "move": self.rng.choice(self.game["legal_moves"]),
            "expected_move_number": self.game["move_number"],
        }
        response = self.client.post(
            f"/api/games/{self.game['id']}/moves/",
            payload,
            content_type="application/json",
            **self.headers,
        )
        assert response.status_code == 201, response.content
        self.game = response.json()


class ServicePlayer(MovePlayer):
    """The same moves, below HTTP: as the game's websocket sends them (``socket=True``), or the
    service function alone."""

    def __init__(self, client: Any, token: str, seed: int, *, socket: bool) -> None:
        super().__init__(client, token, seed)
        from rest_framework.authtoken.models import Token

        self.user = Token.objects.select_related("user").get(key=token).user
        self.socket = socket
        self.recorded: Any = None  # the service's game, read into ``game`` untimed

    def ready(self) -> None:
        if self.recorded is not None:
            self.game, self.recorded = self.answer_of(self.recorded), None
        super().ready()

    def move(self) -> None:
        from games.play import services, socket_actions

        assert self.game is not None
        move = self.rng.choice(self.game["legal_moves"])
        number = self.game["move_number"]
        if self.socket:
            content = {
                "type": "move",
                "request_id": number,
                "idempotency_key": f"{self.game['id']}-{number}-{self.rng.random()}",
                "move": move,
                "expected_move_number": number,
            }
            answer = socket_actions.answer_action(self.user, self.game["id"], content)
            assert answer["status"] == 201, answer
            self.game = answer["body"]
            return
        outcome = services.play_move(
            user=self.user, game_id=self.game["id"], move=move, expected_move_number=number
        )
        self.recorded = outcome.game

    @staticmethod
    def answer_of(game: Any) -> dict[str, Any]:
        """What the next move needs, outside the timing (the socket's answer builds it)."""
        from games.rules import get_variant

        variant = get_variant(game.deal.variant)
        state = variant.state_from_json(game.state)
        return {
            "id": game.pk,
            "status": game.status,
            "move_number": game.move_number,
            "legal_moves": []
            if game.is_finished
            else [m.to_json() for m in variant.legal_moves(state)],
        }


def measure(count: int, before: Callable[[], None], request: Callable[[], None]) -> list[float]:
    """CPU seconds of each of ``count`` requests (``before`` runs untimed)."""
    costs = []
    for _ in range(count):
        before()
        start = time.process_time()
        request()
        costs.append(time.process_time() - start)
    return costs


def describe(name: str, costs: list[float]) -> str:
    total = sum(costs)
    return (
        f"{name:<8} {len(costs):>6} requests  mean {total / len(costs) * 1e6:8.0f} µs"
        f"  median {statistics.median(costs) * 1e6:8.0f} µs  ({len(costs) / total:,.0f}/s of CPU)"
    )


def statements_per_move(player: MovePlayer) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    player.ready()
    with CaptureQueriesContext(connection) as queries:
        player.move()
    return len(queries)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    token = setup_django(args.redis)
    from django.test import Client

    client = Client(HTTP_HOST="127.0.0.1")
    player = MovePlayer(client, token, args.seed)

    def health() -> None:
        assert client.get("/api/health/").status_code == 200

    def noop() -> None:
        pass

    # Warm up: imports, connections, caches.
    measure(50, noop, health)
    measure(50, player.ready, player.move)

    socket_player = ServicePlayer(client, token, args.seed + 1, socket=True)
    service_player = ServicePlayer(client, token, args.seed + 2, socket=False)
    measure(50, socket_player.ready, socket_player.move)
    measure(50, service_player.ready, service_player.move)

    health_costs = measure(args.health, noop, health)
    move_costs = measure(args.moves, player.ready, player.move)
    socket_costs = measure(args.moves, socket_player.ready, socket_player.move)
    service_costs = measure(args.moves, service_player.ready, service_player.move)
    print(f"channel layer: {'Redis' if args.redis else 'none'}; database: {DB_NAME}")
    print(describe("health", health_costs))
    trivial = statistics.mean(health_costs)
    # In a server each request also costs the ASGI server's and handler's work (api_bench:
    # ~1 ms), which this leaves out: the server's ratio is nearer one.
    for name, costs in (("move", move_costs), ("socket", socket_costs), ("service", service_costs)):
        print(f"{describe(name, costs)}  {statistics.mean(costs) / trivial:.2f}x health")
    print(f"statements per move: {statements_per_move(player)}")

    if args.profile:
        profiler = cProfile.Profile(time.process_time)
        profiler.enable()
        measure(min(args.moves, 1000), player.ready, player.move)
        profiler.disable()
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out).sort_stats("tottime")
        stats.print_stats(args.profile)
        stats.sort_stats("cumulative").print_stats(args.profile)
        print(out.getvalue())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
