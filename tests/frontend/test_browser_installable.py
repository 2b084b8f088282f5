"""The site installs like an app (frontend/installable.py): a valid web app manifest whose icons
load, a service worker that registers, serves the play page's static assets from its cache on a
second load, never answers for the API, and shows the offline page for a page that cannot be
reached. (A real browser with service workers allowed, against a real server process.)"""

from __future__ import annotations

import json
import struct

import pytest
from playwright.sync_api import Page, expect

from tests.frontend.browser_helpers import (
    create_players,
    open_game,
    sign_in,
    start_game,
    watch_errors,
)
from tests.frontend.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


def controlled_page(new_context, site: str, django_user_model) -> Page:
    """A signed-in page whose service worker is active and controls it."""
    create_players(django_user_model, "ada")
    page = new_context(service_workers="allow").new_page()
    sign_in(page, site, "ada")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    return page


def test_the_manifest_names_the_app_and_its_icons_load(site, new_context):
    page = new_context().new_page()
    page.goto(site + "/")
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    answer = page.request.get(site + href)
    assert answer.status == 200
    assert answer.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(answer.body())
    assert manifest["name"] == "Patience"
    assert manifest["short_name"] == "Patience"
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/"
    assert manifest["theme_color"] == "#0b6e4f"
    assert page.locator('meta[name="theme-color"]').get_attribute("content") == "#0b6e4f"
    sizes = {}
    for icon in manifest["icons"]:
        loaded = page.request.get(site + icon["src"])
        assert loaded.status == 200, icon
        assert loaded.headers["content-type"].startswith(icon["type"]), icon
        if icon["type"] == "image/png":
            width, height = png_size(loaded.body())
            sizes[icon["sizes"]] = f"{width}x{height}"
        else:
            assert b"<svg" in loaded.body()
    # What installing asks for: a 192 px and a 512 px bitmap, each as large as it says.
    assert sizes == {"192x192": "192x192", "512x512": "512x512"}


def test_the_worker_serves_the_play_pages_assets_from_its_cache_and_never_the_api(
    site, new_context, django_user_model
):
    page = controlled_page(new_context, site, django_user_model)
    errors = watch_errors(page)
    game_id = start_game(page, "gold-mine", seed=3)
    open_game(page, site, game_id)

    answers: list[tuple[str, bool]] = []
    page.on("response", lambda r: answers.append((r.url, r.from_service_worker)))
    open_game(page, site, game_id)  # the second load of the play page
    assets = [(url, cached) for url, cached in answers if "/static/" in url]
    api = [(url, cached) for url, cached in answers if "/api/" in url]
    assert any(url.endswith("/play.js") for url, _ in assets), answers
    assert any(url.endswith("/site.css") for url, _ in assets), answers
    assert all(cached for _, cached in assets), assets
    assert api and not any(cached for _, cached in api), api

    # Nothing of the server's answers is kept: no API, websocket, admin or page URL.
    kept = page.evaluate(
        """async () => {
          const urls = [];
          for (const name of await caches.keys()) {
            const cache = await caches.open(name);
            for (const request of await cache.keys()) urls.push(new URL(request.url).pathname);
          }
          return urls;
        }"""
    )
    assert any(path.endswith("/play.js") for path in kept), kept
    assert all(path.startswith("/static/") or path == "/offline/" for path in kept), kept
    assert errors == []


def test_a_page_that_cannot_be_reached_shows_the_offline_page(site, new_context, django_user_model):
    page = controlled_page(new_context, site, django_user_model)
    page.context.set_offline(True)
    page.goto(site + "/leaderboards/")
    expect(page.locator("#offline-title")).to_have_text("You are offline")
    expect(page.locator("#offline-retry")).to_be_visible()
    screenshot(page, "offline-page")
    # Its stylesheet came from the worker's cache too: the page is the site's, not bare text.
    background = page.evaluate("getComputedStyle(document.querySelector('.site-header')).display")
    assert background != "inline"
    page.context.set_offline(False)
    page.locator("#offline-retry").click()
    expect(page.locator("#offline-title")).to_have_count(0)
