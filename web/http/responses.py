"""The error body every error answer has (``web.http.errors.error_body`` builds it), for
the schema (``web.http.schema``). ``web.http.errors`` also names it ``ApiErrorBody``:
``ApiError`` there is the exception."""

from __future__ import annotations

from typing import Annotated, NotRequired, TypedDict


class ApiErrorDetail(TypedDict):
    """A stable ``code`` to branch on and a ``message`` for people; a refusal may add
    members of its own."""

    code: str
    message: str
    fields: NotRequired[
        Annotated[dict[str, list[str]], "Validation errors only: the messages for each field."]
    ]


class ApiError(TypedDict):
    """The body of every error answer (web.http.errors)."""

    error: ApiErrorDetail
