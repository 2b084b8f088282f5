"""Browser tests: Playwright driving Debian's chromium against a real server process.

The server (uvicorn, as in production) runs on the test database, so the browser test needs
PostgreSQL; locally without it or without chromium these tests skip, and under CI
(PATIENCE_REQUIRE_POSTGRES=1) they fail instead. Screenshots go to artifacts/screenshots/.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection
from playwright.sync_api import Page

from tests.frontend.browser_helpers import create_players, sign_in, watch_errors
from tests.support.servers import ROOT, database_url, prepare_dailies_around_today, servers

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = ROOT / "artifacts" / "screenshots"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# Playwright's sync API runs an event loop in this thread while a browser is open; the ORM
# calls the tests make to set up data are still plain synchronous calls. (Set up data over
# HTTP or the ORM, not through services: their on-commit live updates need a thread without
# a running loop.)
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def browser_unavailable() -> str | None:
    if connection.vendor != "postgresql":
        return "the browser tests' server shares the test database: PostgreSQL only"
    if not Path(CHROMIUM).exists():
        return "chromium is not installed (.ci/run installs it)"
    return None


@pytest.fixture
def browser():
    """One chromium per test: Playwright's event loop must not outlive the test, or every
    later test that uses async_to_sync (Channels, live updates) would find it running."""
    reason = browser_unavailable()
    if reason:
        if os.environ.get("PATIENCE_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"browser tests cannot run under CI: {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


def serve_site(**settings: str) -> Iterator[str]:
    """The base URL of a server process on the test database (committed data is shared), with
    ``settings`` added to its environment."""
    env = {
        "DATABASE_URL": database_url(connection.settings_dict),
        "DEBUG": "1",  # static files straight from the apps, no collectstatic needed
        "SECRET_KEY": "browser-tests",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_POOL_MAX": "6",
        **settings,
    }
    if os.environ.get("REDIS_URL") and "REDIS_URL" not in settings:
        env["REDIS_URL"] = os.environ["REDIS_URL"]
    prepare_dailies_around_today()
    connection.close()
    with servers(1, env) as (url,):
        yield url
    # Give back the connection the test's own ORM calls took from the pool, or the test
    # database cannot be dropped at the end of the run.
    connection.close()


@pytest.fixture
def site(browser, transactional_db) -> Iterator[str]:
    """The base URL of a server process on the test database."""
    yield from serve_site()


@pytest.fixture
def new_context(browser):
    """Open browser contexts (separate sessions: one per player or tab group). Whatever the
    site's Content-Security-Policy blocks on any of their pages fails the test afterwards."""
    contexts = []
    blocked: list[str] = []

    def watch_policy(page) -> None:
        def console(message) -> None:
            if "Content Security Policy" in message.text:
                blocked.append(f"{page.url}: {message.text}")

        page.on("console", console)

    def make(asks_base_rank: bool = False, **options):
        # Reduced motion unless a test asks otherwise: the cards then stand where they are drawn
        # at once (motion.js), so that a test measures the board where it lies rather than
        # mid-slide; the tests of motion (test_browser_motion.py) ask for "no-preference".
        # No service worker unless a test asks for one (test_browser_installable.py): a page
        # it controls would load its assets from the worker's cache, out of the reach of the
        # tests' routes and request counts.
        defaults = {
            "viewport": {"width": 1280, "height": 900},
            "reduced_motion": "reduce",
            "service_workers": "block",
        }
        context = browser.new_context(**{**defaults, **options})
        if not asks_base_rank:
            # A player who has confirmed Selective Castle's base-rank question once (base_rank.js):
            # the tests that play its first card home are about the move, not the dialog;
            # test_browser_base_rank.py asks for a browser that has never confirmed it.
            context.add_init_script(
                "try { localStorage.setItem('patience.prefs.base-rank-confirmed', '1'); }"
                " catch { /* a page with no storage of its own (about:blank) */ }"
            )
        context.set_default_timeout(10_000)
        context.on("page", watch_policy)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()
    assert blocked == [], "the Content-Security-Policy blocked something"


def screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


@pytest.fixture
def page(site, new_context, django_user_model) -> Iterator[Page]:
    """A signed-in page on the site; its JS errors are checked after the test."""
    create_players(django_user_model, "ada")
    page = new_context().new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    yield page
    assert errors == []
