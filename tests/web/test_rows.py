"""web.rows: instances read from hand-written SQL equal what the ORM loads."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from tests.support.threads import run_in_threads
from web.rows import RowReader

pytestmark = pytest.mark.django_db


def read_user(reader: RowReader[User], pk: int) -> User:
    with connection.cursor() as cursor:
        cursor.execute(f'SELECT {reader.columns("u")} FROM "auth_user" u WHERE u."id" = %s', [pk])
        return reader.build(cursor.fetchone())


def test_a_row_reads_as_the_orm_loads_it_values_and_types() -> None:
    user = User.objects.create_user("reader", password="x", email="r@example.com")
    User.objects.filter(pk=user.pk).update(last_login=timezone.now() - dt.timedelta(days=1))
    reader = RowReader(User)

    mine, orm = read_user(reader, user.pk), User.objects.get(pk=user.pk)

    for field in User._meta.concrete_fields:
        ours, theirs = getattr(mine, field.attname), getattr(orm, field.attname)
        assert (ours, type(ours)) == (theirs, type(theirs)), field.name
    assert not mine._state.adding and mine._state.db == "default"


@pytest.mark.django_db(transaction=True)
def test_a_reader_works_again_on_another_connection_object() -> None:
    # Under ASGI each request has its own connection object: what a reader worked out on
    # one must serve the next (the backend's converters are looked up on each).
    user = User.objects.create_user("again", password="x")
    reader = RowReader(User)
    first = read_user(reader, user.pk)

    def other_thread(_index: int) -> User:  # another thread, another connection object
        return read_user(reader, user.pk)

    [second] = run_in_threads(other_thread, 1)
    for field in User._meta.concrete_fields:
        assert getattr(first, field.attname) == getattr(second, field.attname), field.name
