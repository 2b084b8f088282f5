"""The OpenAPI schema and its docs page: complete, valid, and served from this site."""

from __future__ import annotations

import pytest
from django.core.management import call_command


def test_the_schema_generates_without_warnings(tmp_path):
    # --fail-on-warn: every view documents its request and answers.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yml"))
    text = (tmp_path / "s.yml").read_text()
    paths = ["/api/games/{game_id}/moves/", "/api/auth/register/", "/api/me/stats/"]
    paths += ["/api/me/export/", "/api/players/{username}/"]
    for path in paths:
        assert path in text


@pytest.mark.django_db
def test_the_schema_and_docs_pages_are_served(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"openapi" in schema.content
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"/static/drf_spectacular_sidecar/" in docs.content  # no CDN
