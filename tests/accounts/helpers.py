"""Small helpers for calling the accounts API from the test client."""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.urls import reverse

PASSWORD = "correct-horse-battery"


def url(name: str) -> str:
    return reverse(f"accounts:{name}")


def post(client: Client, name: str, data: Any = None, **extra: Any) -> Any:
    """POST ``data`` as a JSON body to the named accounts endpoint."""
    return client.post(url(name), data or {}, content_type="application/json", **extra)


def login(client: Client, username: str = "ada", password: str = PASSWORD, **extra: Any) -> Any:
    return post(client, "login", {"username": username, "password": password}, **extra)


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    """The response is a JSON error body ``{"error": {"code", "message", ...}}``; returns it."""
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    error = response.json()["error"]
    assert error["code"] == code
    assert isinstance(error["message"], str) and error["message"]
    return error
