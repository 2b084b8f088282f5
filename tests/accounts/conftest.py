"""Fixtures for the accounts API tests."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from pytest_django.fixtures import Settings

from tests.accounts.helpers import PASSWORD, login


@pytest.fixture(autouse=True)
def _isolated_cache(settings: Settings) -> Iterator[None]:
    """A private, empty locmem cache per test: throttle counts never leak between tests, nor into
    a Redis that other test runs share."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"accounts-tests-{uuid.uuid4().hex}",
        }
    }
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _fast_hasher(settings: Settings) -> None:
    # The production hasher takes a good part of a second per password; these tests hash many.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def ada(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user(
        username="ada", email="ada@example.com", password=PASSWORD
    )


@pytest.fixture
def signed_in(client: Client, ada: User) -> Client:
    """The test client, signed in as ada through the login endpoint."""
    assert login(client).status_code == 200
    return client
