"""The OpenAPI schema and its docs page: complete, valid, and served from this site."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client, RequestFactory

from tests.games.helpers import assert_error
from web.http.errors import csrf_failure


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


# Each page's own format, besides any.
OWN_FORMAT = {
    "/api/schema/": "application/vnd.oai.openapi",
    "/api/docs/": "text/html",
    "/api/health/": "application/json",
}


@pytest.mark.django_db
@pytest.mark.parametrize("path", OWN_FORMAT)
@pytest.mark.parametrize("method", ["post", "put", "patch", "delete", "options", "trace"])
def test_the_service_pages_refuse_other_methods_in_the_apis_json(path: str, method: str) -> None:
    # A Client that checks CSRF, as a browser's request is checked.
    client = Client(enforce_csrf_checks=True)
    for accept in ("*/*", OWN_FORMAT[path]):
        response = getattr(client, method)(path, HTTP_ACCEPT=accept)
        error = assert_error(response, 405, "method_not_allowed")
        assert error["message"] == f'This address does not take "{method.upper()}": use GET.'
        assert "GET" in response["Allow"]


@pytest.mark.django_db
def test_a_format_the_schema_or_docs_cannot_give_is_refused_in_json(client: Client) -> None:
    assert_error(client.get("/api/schema/", HTTP_ACCEPT="text/html"), 406, "not_acceptable")
    assert_error(client.get("/api/docs/", HTTP_ACCEPT="application/xml"), 406, "not_acceptable")


def test_a_refused_cross_site_write_under_api_is_json_and_a_page_elsewhere() -> None:
    request = RequestFactory().post("/api/anything/")
    error = assert_error(csrf_failure(request, "CSRF cookie not set."), 403, "csrf_failed")
    assert error["message"].startswith("This request carries a signed-in session cookie")
    assert "X-CSRFToken" in error["message"] and error["reason"] == "CSRF cookie not set."
    page = csrf_failure(RequestFactory().post("/signin/"), "CSRF cookie not set.")
    assert page.status_code == 403 and page["Content-Type"].startswith("text/html")


@pytest.mark.django_db
def test_a_refused_write_to_a_page_gets_the_sites_page_with_debug_on_too(settings: Any) -> None:
    settings.DEBUG = True
    strict = Client(enforce_csrf_checks=True)
    for path in ("/", "/rules/gold-mine/"):
        response = strict.post(path)
        assert response.status_code == 403
        page = response.content.decode()
        assert "That was not sent" in page and 'class="account-nav"' in page
        assert "CSRF verification failed" not in page
