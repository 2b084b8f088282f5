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
