"""The API answers JSON; an Accept header that rules JSON out gets a JSON 406."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("accept", [None, "*/*", "application/json", "application/*"])
def test_json_is_answered_to_clients_that_accept_it(client: Client, accept: str | None) -> None:
    headers = {"HTTP_ACCEPT": accept} if accept else {}

    response = client.get("/api/variants/", **headers)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert len(response.json()) == 5


def test_a_client_that_accepts_only_html_gets_406_in_json(client: Client) -> None:
    response = client.get("/api/variants/", HTTP_ACCEPT="text/html")

    assert response.status_code == 406
    assert response.json()["error"]["code"] == "not_acceptable"


def test_the_schema_still_honours_its_format_parameter(client: Client) -> None:
    response = client.get("/api/schema/?format=json")

    assert response.status_code == 200
    assert response.json()["info"]["title"] == "Patience API"
