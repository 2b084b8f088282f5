import os

import pytest
from pytest_django import DjangoDbBlocker


@pytest.fixture(scope="session", autouse=True)
def _require_postgres(django_db_blocker: DjangoDbBlocker) -> None:
    """Under CI (PATIENCE_REQUIRE_POSTGRES=1) a run on SQLite or without a database fails loudly."""
    if os.environ.get("PATIENCE_REQUIRE_POSTGRES") != "1":
        return
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.exit(
            f"PATIENCE_REQUIRE_POSTGRES=1 but the database engine is {connection.vendor!r}; "
            "set DATABASE_URL to a PostgreSQL URL.",
            returncode=1,
        )
    with django_db_blocker.unblock():
        try:
            connection.ensure_connection()
        except Exception as exc:
            pytest.exit(f"PATIENCE_REQUIRE_POSTGRES=1 but PostgreSQL is unreachable: {exc}", 1)
        finally:
            connection.close()
    _require_redis()


def _require_redis() -> None:
    """CI also shares websocket groups through Redis: it must be there, not silently absent."""
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.exit("PATIENCE_REQUIRE_POSTGRES=1 but REDIS_URL is not set.", returncode=1)
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=5).ping()
    except redis.RedisError as exc:
        pytest.exit(f"REDIS_URL is set but Redis is unreachable: {exc}", returncode=1)
