"""The tests run on the test database, never on the one DATABASE_URL names."""

import pytest
from django.db import connection


@pytest.mark.django_db
def test_the_tests_write_to_the_test_database_only():
    name = connection.settings_dict["NAME"]
    assert (
        str(name).startswith("test_") or "memory" in str(name) or str(name).endswith("test.sqlite3")
    ), name
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_database()")
            assert cursor.fetchone()[0] == name
