"""Fixtures for the games tests."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from pytest_django.fixtures import Settings

from tests.games.helpers import DAY, DailyClock


@pytest.fixture(autouse=True)
def _isolated_cache(settings: Settings) -> Iterator[None]:
    """A private, empty locmem cache per test: the limits' counts (games started, hints, one
    search at a time) never leak between tests, nor into a Redis that other test runs share,
    where a user number of an earlier run could find its counts."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"games-tests-{uuid.uuid4().hex}",
        }
    }
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> DailyClock:
    """The UTC day the service sees, ``DAY`` until the test moves it on (``clock.advance()``)."""
    return DailyClock(monkeypatch, DAY)
