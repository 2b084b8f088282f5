"""The accounts API's answers other than an account (``UserSerializer``), as its views build
them (TypedDicts: the OpenAPI schema reads them, ``web.http.schema``)."""

from __future__ import annotations

from typing import Annotated, TypedDict


class CsrfToken(TypedDict):
    csrf_token: Annotated[str, "Send as the X-CSRFToken header on unsafe session requests."]


class SessionsEnded(TypedDict):
    ended: int


class Detail(TypedDict):
    detail: str


class Token(TypedDict):
    token: Annotated[str, "Send as `Authorization: Token <key>`."]
