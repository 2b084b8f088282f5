"""The guest hints benchmark runs end to end at a tiny size (its figures are read, never
asserted): a real server (``deploy.serve``, two workers) on a database of its own, named after
this run's test database so that test runs side by side do not flush each other's."""

import os

import psycopg
import pytest
from django.db import connection
from psycopg import sql

from bench.guest_hints_bench import bench, parse_args
from bench.harness import PG_ADMIN_URL


@pytest.mark.skipif(
    os.environ.get("PATIENCE_REQUIRE_POSTGRES") != "1" and not os.environ.get("REDIS_URL"),
    reason="needs Redis (CI has it)",
)
def test_three_guests_ask_hints_while_another_player_reads_their_game() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL")
    database = f"{connection.settings_dict['NAME']}_guest_hints"[:63]
    tiny = ["--guests", "3", "--seconds", "1", "--warmup", "0.5", "--variant", "gold-mine"]
    where = ["--database", database, "--redis-url", os.environ["REDIS_URL"]]
    try:
        (round_,) = bench(parse_args([*tiny, *where]))
    finally:
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as admin:
            drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)")
            admin.execute(drop.format(sql.Identifier(database)))
    assert round_.label == "this"
    assert round_.unloaded and round_.loaded
    assert round_.hints.total() > 0, round_.hints.refused
    assert set(round_.hints.answered) <= {"solver", "heuristic"}
    assert round_.ratio() > 0
