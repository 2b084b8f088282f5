"""The Content-Security-Policy on every answer, and templates that need nothing it forbids."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["/", "/signin/", "/rules/gold-mine/", "/api/health/", "/admin/login/", "/api/docs/"]
)
def test_every_answer_carries_the_policy(client, path):
    response = client.get(path)
    assert response.status_code == 200
    policy = dict(
        directive.split(" ", 1) for directive in response["Content-Security-Policy"].split("; ")
    )
    assert policy["script-src"] == policy["style-src"] == "'self'"
    assert policy["object-src"] == "'none'" and policy["frame-ancestors"] == "'none'"
    # The site's own websockets, named for browsers whose 'self' does not cover them.
    assert policy["connect-src"] == "'self' ws://testserver wss://testserver"


def test_an_unknown_host_is_refused_with_the_policy_and_no_host_in_it(client):
    response = client.get("/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert response["Content-Security-Policy"].endswith("connect-src 'self'")


def test_no_template_has_an_inline_script_or_style():
    templates = [
        path
        for app in ("frontend", "games", "accounts", "config")
        for path in (ROOT / app).rglob("templates/**/*.html")
    ]
    assert templates
    for path in templates:
        text = path.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), path
        assert "<style" not in text and "style=" not in text, path
        assert not re.search(r"\son[a-z]+=", text), path  # onclick= and the like


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["/api/health/", "/api/games/", "/api/games/999/", "/api/nowhere/", "/api/variants/"]
)
def test_no_api_answer_is_kept_in_any_cache(client, django_user_model, path):
    # A browser going Back would otherwise show a player's games as they were (the lobby's
    # games in progress without the one just started), and a shared computer keep a copy.
    client.force_login(django_user_model.objects.create_user("cached", password="x-long-pass-1"))
    response = client.get(path)
    assert response["Cache-Control"] == "no-store"


def test_pages_keep_their_own_caching(client):
    assert "no-store" not in client.get("/rules/gold-mine/").get("Cache-Control", "")
