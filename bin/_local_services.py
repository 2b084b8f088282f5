"""Which database and channel layer ``bin/test`` runs on; prints shell ``export`` lines.

Run by bin/test (sourced output) before pytest. When ``DATABASE_URL`` and ``REDIS_URL`` are
unset and PostgreSQL and Redis answer on their usual local addresses, the suite runs on them,
as CI does (``.ci/run``), creating the database if it is missing; otherwise on SQLite and the
in-memory channel layer, and the tests that need the real servers are skipped (the run's
summary counts them). ``PATIENCE_LOCAL_SERVICES=0`` skips the probe.

The messages go to stderr; stdout carries only the ``export`` lines for the shell.
"""

from __future__ import annotations

import os
import shlex
import sys

LOCAL_DATABASE = "postgres://postgres@127.0.0.1:5432/patience"
LOCAL_REDIS = "redis://127.0.0.1:6379/0"


def say(message: str) -> None:
    print(f"bin/test: {message}", file=sys.stderr)


def postgres_answers(url: str) -> bool:
    """True when the server at ``url`` answers; the database is created if it is missing."""
    import dj_database_url
    import psycopg
    from psycopg import sql

    cfg = dj_database_url.parse(url)
    try:
        conn = psycopg.connect(
            dbname="postgres",
            user=cfg.get("USER") or None,
            host=cfg.get("HOST") or None,
            port=cfg.get("PORT") or None,
            autocommit=True,
            connect_timeout=2,
        )
    except psycopg.Error:
        return False
    with conn:
        name = cfg["NAME"]
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return True


def redis_answers(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=2).ping())
    except redis.RedisError:
        return False


def main() -> None:
    exports: dict[str, str] = {}
    database, layer = os.environ.get("DATABASE_URL"), os.environ.get("REDIS_URL")
    probe = os.environ.get("PATIENCE_LOCAL_SERVICES", "1").lower() not in {"0", "false", "no"}
    if probe and not database and postgres_answers(LOCAL_DATABASE):
        exports["DATABASE_URL"] = database = LOCAL_DATABASE
    if probe and not layer and redis_answers(LOCAL_REDIS):
        exports["REDIS_URL"] = layer = LOCAL_REDIS
    where = "PostgreSQL" if database and database.startswith("postgres") else "SQLite"
    channels = "Redis" if layer else "the in-memory channel layer"
    origin = "found on this machine" if exports else "as set"
    if where == "PostgreSQL" and layer:
        say(f"running the whole suite on PostgreSQL and Redis ({origin}), as CI does.")
    else:
        say(
            f"running on {where} and {channels}: the tests that need PostgreSQL and Redis "
            "(browser, cross-process, outage) are skipped; the summary at the end counts "
            "them. Start both on their usual local ports, or set DATABASE_URL and REDIS_URL, "
            "to run everything."
        )
    for name, value in exports.items():
        print(f"export {name}={shlex.quote(value)}")


if __name__ == "__main__":
    main()
