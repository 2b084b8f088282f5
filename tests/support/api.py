"""Checks and clients shared by the API and admin tests of every app."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.test import Client


def assert_error(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    """The one error format: JSON ``{"error": {"code", "message", ...}}`` with ``status``;
    returns the error. ``code``: the stable code it must carry."""
    assert response.status_code == status, (response.status_code, response.content[:500])
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = json.loads(response.content)
    assert set(body) == {"error"}, body
    error = body["error"]
    assert isinstance(error.get("code"), str) and error["code"], body
    assert isinstance(error.get("message"), str) and error["message"], body
    if code is not None:
        assert error["code"] == code, body
    return error


def signed_in(user: Any) -> Client:
    """A browser-like client (session and CSRF cookie) signed in as ``user``."""
    client = Client()
    client.force_login(user)
    return client


def make_superuser(username: str = "boss") -> Any:
    return get_user_model().objects.create_superuser(username, f"{username}@example.org", "pw")
