"""Small helpers for calling the accounts API from the test client."""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.urls import reverse

from tests.support.api import assert_error as assert_error  # the one check, shared

PASSWORD = "correct-horse-battery"


def url(name: str) -> str:
    return reverse(f"accounts:{name}")


def post(client: Client, name: str, data: Any = None, **extra: Any) -> Any:
    """POST ``data`` as a JSON body to the named accounts endpoint."""
    return client.post(url(name), data or {}, content_type="application/json", **extra)


def login(client: Client, username: str = "ada", password: str = PASSWORD, **extra: Any) -> Any:
    return post(client, "login", {"username": username, "password": password}, **extra)
