"""The players benchmark runs end to end at a tiny size (its figures are read, never asserted).

A real server (``deploy.serve``, two workers) on a database of its own, named after this run's
test database so that test runs side by side do not flush each other's."""

import os

import psycopg
import pytest
from django.db import connection
from psycopg import sql

from bench.harness import PG_ADMIN_URL
from bench.players_bench import bench, parse_args


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (CI has it)")
def test_three_players_play_and_ask_hints_through_the_api_and_see_their_moves_on_websockets() -> (
    None
):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL")
    database = f"{connection.settings_dict['NAME']}_players"[:63]
    tiny = ["--players", "3", "--think", "0.3", "--step-seconds", "3", "--warmup", "1"]
    where = ["--database", database, "--redis-url", os.environ["REDIS_URL"]]
    config = parse_args([*tiny, "--hints", "0.3", "--health-seconds", "1", *where])

    try:
        run, met = bench(config)
    finally:
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as admin:
            drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)")
            admin.execute(drop.format(sql.Identifier(database)))

    (step,) = run.steps
    assert step.started == 3
    assert step.moves > 0 and step.delays, step.errors
    assert step.hint_latencies, (step.errors, step.hints_declined)
    assert sum(step.hint_sources.values()) == len(step.hint_latencies)
    assert set(step.hint_sources) <= {"solver", "heuristic"}
    assert step.server_ms_per_move() > 0
    assert run.health is not None and run.health[0] > 0
    assert set(met) == {"players", "growth", "ratio"}
