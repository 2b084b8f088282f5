"""What makes the site installable as an app: its web app manifest and its service worker.

The worker (/sw.js, served from the site's root so that its scope is the whole site) keeps the
static assets the pages need in a cache named after a hash of their contents: a deploy that
changes any of them changes the worker's text, the browser installs the new worker, and it
fetches them afresh and drops the old cache. It never keeps an answer of the API, the
websockets or the admin, nor any page (pages are each player's own); a page that cannot be
reached gets the offline page it keeps instead.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.template.loader import render_to_string
from django.templatetags.static import static

NAME = "Patience"
THEME_COLOUR = "#0b6e4f"  # the felt's green (site.css), the icon's ground
BACKGROUND_COLOUR = "#0b6e4f"
OFFLINE_PATH = "/offline/"
# Never answered from the worker's cache (nor handled by it at all): the server's answers.
NEVER_CACHED = ("/api/", "/ws/", "/admin/")

ICONS = (
    ("frontend/icons/icon.svg", "any", "image/svg+xml"),
    ("frontend/icons/icon-192.png", "192x192", "image/png"),
    ("frontend/icons/icon-512.png", "512x512", "image/png"),
)

# The static assets a page may need offline: the styles, every script module (the pages
# import one another's), the icons.
_ASSET_PREFIXES = ("frontend/js/", "frontend/icons/")
_ASSET_FILES = (
    "frontend/site.css",
    "frontend/pages.css",
    "frontend/progress.css",
    "frontend/favicon.svg",
)


def manifest() -> dict:
    return {
        "name": NAME,
        "short_name": NAME,
        "description": "Five patience games: play, replay and compete on the daily deals.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND_COLOUR,
        "theme_color": THEME_COLOUR,
        "icons": [
            {"src": static(path), "sizes": sizes, "type": kind, "purpose": "any"}
            for path, sizes, kind in ICONS
        ],
    }


def _asset_paths() -> list[str]:
    """The static paths the worker keeps, found as the site serves them (the apps' static
    folders with DEBUG on, the collected files otherwise)."""
    found = set(_ASSET_FILES)
    for finder in finders.get_finders():
        for path, _storage in finder.list([]):
            path = path.replace("\\", "/")
            if path.startswith(_ASSET_PREFIXES) and path.endswith((".js", ".svg", ".png")):
                found.add(path)
    return sorted(found)


def _contents(path: str) -> bytes:
    if settings.DEBUG:
        located = finders.find(path)
        if located:
            with open(located, "rb") as file:
                return file.read()
    with staticfiles_storage.open(path) as file:
        return file.read()


def _worker() -> str:
    paths = _asset_paths()
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.encode())
        digest.update(_contents(path))
    digest.update(render_to_string("frontend/offline.html").encode())
    return render_to_string(
        "frontend/sw.js",
        {
            "version": json.dumps(digest.hexdigest()[:16]),
            "assets": json.dumps([static(path) for path in paths]),
            "offline": json.dumps(OFFLINE_PATH),
            "never_cached": json.dumps(NEVER_CACHED),
            "static_prefix": json.dumps(static("")),
        },
    )


_deployed_worker = lru_cache(maxsize=1)(_worker)


def service_worker() -> str:
    """The worker's script. Made once per process in production (the static files change only
    with a deploy, which restarts it); afresh on each request with DEBUG on, where they are
    being edited."""
    return _worker() if settings.DEBUG else _deployed_worker()
