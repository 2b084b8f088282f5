"""The OpenAPI schema's words for this app's authentication classes and for the request
bodies that take no other members (loaded by ``AccountsConfig``; not from
``accounts.authentication``, which DRF's settings import while drf-spectacular's module
imports them), and the schema class (``DEFAULT_SCHEMA_CLASS``) that documents the refusal the
session sign-in adds to every write."""

from __future__ import annotations

from typing import Any

from drf_spectacular.authentication import SessionScheme
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import OpenApiResponse

from web.http.errors import ApiErrorBody
from web.http.schema import AnswerSchema


class PageSessionScheme(SessionScheme):
    """The cookie sign-in, for ``accounts.authentication.SessionAuthentication``."""

    target_class = "accounts.authentication.SessionAuthentication"


#: The refusal ``accounts.authentication.SessionAuthentication`` makes before any view runs.
ACCOUNT_CHANGED = (
    '"account_changed": the page that sent this (`X-Patience-Account`) was opened as another '
    "account than the one this browser's session is signed in as now (or signed out); "
    "`page_account` and `signed_in_as` (null: signed out) name both. Nothing was changed."
)
UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


class AutoSchema(AnswerSchema):
    """The API's schema (``web.http.schema``: answers described by TypedDicts), with the 409
    ``account_changed`` on every write a session signs in to: it can answer any of them,
    whatever the view itself documents. A 409 the view already documents (a stale move, an
    existing attempt) keeps its meaning, and gains this one."""

    def _get_response_bodies(self, direction: str = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        if direction != "response" or not self._page_account_checked():
            return responses
        documented = responses.get("409")
        if documented is None:
            error = OpenApiResponse(ApiErrorBody, description=ACCOUNT_CHANGED)
            responses["409"] = self._get_response_for_code(error, "409", direction=direction)
        elif "account_changed" not in documented.get("description", ""):
            own = documented.get("description", "").rstrip(". ")
            own = own or "A conflict of this operation's own (its `code` says which)"
            documented["description"] = f"{own}; or {ACCOUNT_CHANGED}"
        return responses

    def _page_account_checked(self) -> bool:
        """Whether this operation is a write that the session sign-in may refuse."""
        from accounts.authentication import SessionAuthentication

        if self.method not in UNSAFE_METHODS:
            return False
        classes = getattr(self.view, "authentication_classes", ())
        return any(issubclass(cls, SessionAuthentication) for cls in classes)


class KnownFieldsOnlyExtension(OpenApiSerializerExtension):
    """A body that refuses members it does not take (``web.http.errors.KnownFieldsOnly``, 400
    ``unknown_field``) says so in the schema: ``additionalProperties: false``; and what a
    body's serializer says of the whole object (``schema_extra``, e.g. two members that
    exclude each other) joins it."""

    target_class = "web.http.errors.KnownFieldsOnly"
    match_subclasses = True

    def map_serializer(self, auto_schema: Any, direction: str) -> dict[str, Any]:
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        return {**schema, "additionalProperties": False, **getattr(self.target, "schema_extra", {})}
