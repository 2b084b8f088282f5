import os
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

# Property tests draw the same examples on every run under CI, so a red run is reproducible and
# a green one is not luck; timing checks are off (a loaded machine is slow, not wrong).
# ``HYPOTHESIS_PROFILE=explore bin/test`` draws fresh examples, to look for new failures.
hypothesis_settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
hypothesis_settings.register_profile("explore", deadline=None, print_blob=True)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_configure(config: pytest.Config) -> None:
    from django.conf import settings

    # Daily challenges are solved (games.daily.challenges) in this process, on a budget of positions
    # small enough for a test run and deterministic (the seconds never run out first): the
    # quick games are proven within it, the slow ones deal candidate 0 unproven after two tries.
    settings.DAILY_SOLVER_SUBPROCESS = False
    settings.DAILY_SOLVER_POSITIONS = 3000
    settings.DAILY_SOLVER_SECONDS = 600.0
    settings.DAILY_SOLVER_CANDIDATES = 2
    # Hints are searched in this process, where a test can watch their searches and their
    # clock; tests/games/play/test_hint_pool.py turns the hint processes on.
    settings.HINT_PROCESSES = 0


@pytest.fixture(autouse=True)
def _daily_challenges_prepared_on_first_use(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The service prepares each day's challenges ahead (games.daily.challenges) and a request that
    finds none is told to come back (503 ``daily_not_ready``). Tests that play a challenge
    need it prepared: here the first request that finds none prepares it, through the real
    preparation service (the solver's answers memoized per deal and budget, so a run pays
    for each deal once). Tests marked ``dailies_unprepared`` see the service as it is."""
    if request.node.get_closest_marker("dailies_unprepared"):
        return
    from games.daily import challenges
    from games.daily import services as daily_services

    monkeypatch.setattr(
        daily_services, "challenge_not_ready", lambda date, slug: challenges.prepare(date, slug)[0]
    )


@pytest.fixture(scope="session", autouse=True)
def _require_postgres() -> None:
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
    # A plain connection, not Django's: Django's would open the connection pool on the real
    # database before pytest-django switches to the test database, and the pool would keep
    # handing out connections to the real one.
    import psycopg

    params = connection.settings_dict
    try:
        psycopg.connect(
            dbname="postgres",  # the server, not the database pytest-django will create
            user=params.get("USER") or None,
            password=params.get("PASSWORD") or None,
            host=params.get("HOST") or None,
            port=params.get("PORT") or None,
            connect_timeout=10,
        ).close()
    except psycopg.Error as exc:
        pytest.exit(f"PATIENCE_REQUIRE_POSTGRES=1 but PostgreSQL is unreachable: {exc}", 1)
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


@pytest.fixture
def staff_client(db: None) -> object:
    """A browser-like client signed in as a superuser ("boss"), for the admin's pages."""
    from tests.support.api import make_superuser, signed_in

    return signed_in(make_superuser("boss"))


@pytest.fixture(autouse=True)
def _request_threads_give_back_their_connections() -> Iterator[None]:
    """The ASGI application's handler (web.http.handlers) keeps finished requests' threads for the
    next requests, each with its own database connection, open as in production. A test that
    served requests through ``config.asgi`` (a streamed export, say) would leave that
    connection to the next test, which may not touch the database at all: the next request
    on that thread starts by checking it (Django's ``close_old_connections``) and fails with
    "Database access not allowed". So each test's request threads close theirs and end with
    it."""
    yield
    asgi = sys.modules.get("config.asgi")
    if asgi is None:
        return
    from django.db import connections

    for handler in request_handlers(asgi.application):
        while handler.idle_threads:
            executor = handler.idle_threads.pop()
            executor.submit(connections.close_all).result(timeout=30)
            # And the thread ends: an in-memory SQLite connection is never really closed.
            executor.shutdown(wait=True)


def request_handlers(application: Any, depth: int = 0) -> Iterator[Any]:
    """The HTTP handlers (those keeping ``idle_threads``) inside an ASGI application, under
    any wrappers (the protocol router, static files, middleware)."""
    if depth > 10:
        return
    if hasattr(application, "idle_threads"):
        yield application
        return
    inner = list(getattr(application, "application_mapping", {}).values())
    inner += [getattr(application, name, None) for name in ("application", "app", "inner")]
    for child in inner:
        if child is not None:
            yield from request_handlers(child, depth + 1)


@pytest.fixture(autouse=True)
def _forget_api_keys() -> None:
    """Each test's rows are rolled back without a signal: keys kept by an earlier test's
    requests (accounts.token_cache) would name users that are gone."""
    from accounts.token_cache import cache

    cache.forget_everything()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """How many tests were skipped, and why, in a few lines (bin/test falls back to SQLite and
    the in-memory layer when PostgreSQL and Redis are not there, and their tests skip)."""
    skipped = terminalreporter.stats.get("skipped", [])
    if not skipped:
        return
    reasons: dict[str, int] = {}
    for report in skipped:
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        reason = reason.removeprefix("Skipped: ")
        reasons[reason] = reasons.get(reason, 0) + 1
    terminalreporter.section(f"{len(skipped)} tests skipped, and why")
    for reason, count in sorted(reasons.items(), key=lambda item: -item[1]):
        terminalreporter.write_line(f"{count:5d}  {reason}")
