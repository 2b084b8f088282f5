"""The API's error format: every error is ``{"error": {"code": ..., "message": ...}}``.

Domain code raises ``ApiError`` (or lets DRF raise its own exceptions); the exception handler
turns all of them into that body with a stable code, so clients branch on ``code`` and show
``message``. Validation errors add ``fields``: the messages for each field, for forms.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


class ApiError(exceptions.APIException):
    """An error a client can act on: a stable code, a message for people, an HTTP status."""

    def __init__(self, code: str, message: str, status_code: int = 400, **extra: Any) -> None:
        super().__init__(message, code)
        self.status_code = status_code
        self.error_code = code
        self.message = message
        self.extra = extra


DRF_CODES = {
    exceptions.ParseError: "malformed_json",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
    exceptions.ValidationError: "invalid",
}


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, **extra}}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RequestDataTooBig):
        return Response(
            error_body("body_too_large", "The request body is too large."),
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, ApiError):
        response = Response(error_body(exc.error_code, exc.message, **exc.extra), exc.status_code)
        return response
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    code = next((c for cls, c in DRF_CODES.items() if isinstance(exc, cls)), "error")
    if isinstance(exc, exceptions.ValidationError):
        response.data = error_body(code, _first_message(exc.detail), fields=exc.detail)
    else:
        response.data = error_body(code, str(exc.detail))
    return response


def _first_message(detail: Any, field: str | None = None) -> str:
    """The first message of a (nested) validation error, prefixed by its field."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            return _first_message(value, None if key == "non_field_errors" else key)
    if isinstance(detail, list) and detail:
        return _first_message(detail[0], field)
    text = str(detail)
    return f"{field}: {text}" if field else text


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404 outside DRF views: JSON under /api/, the usual page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse(error_body("not_found", "Not found."), status=404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        message = "Something went wrong on our side."
        return JsonResponse(error_body("server_error", message), status=500)
    return defaults.server_error(request)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if request.path.startswith("/api/"):
        message = "The request could not be read."
        return JsonResponse(error_body("bad_request", message), status=400)
    return defaults.bad_request(request, exception)


# -- the error body, for the OpenAPI schema ------------------------------------------------


class ApiErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    fields = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="Validation errors only: the messages for each field.",
    )


class ApiErrorSerializer(serializers.Serializer):
    """The body of every error answer (config.api); for the schema only."""

    error = ApiErrorDetailSerializer()
