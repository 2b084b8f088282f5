"""The API's error format: every error is ``{"error": {"code": ..., "message": ...}}``.

The services refuse with a ``ServiceError`` (``web.errors``; ``games.errors.GameError``):
a stable code and a message, no HTTP. ``STATUS_OF_REFUSAL`` below gives each code its status,
in this one place. The API layer raises ``ApiError`` (a status of its own) or lets DRF raise
its exceptions; the exception handler turns all of them into that body, so clients branch on
``code`` and show ``message``. Validation errors add ``fields``: the messages for each field,
for forms.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

import redis
from django.conf import settings
from django.core import signals
from django.core.exceptions import (
    BadRequest,
    PermissionDenied,
    RequestDataTooBig,
    SuspiciousOperation,
)
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    JsonResponse,
)
from django.urls import Resolver404, resolve
from django.utils.log import log_response
from django.views import csrf, defaults
from django.views.debug import SafeExceptionReporterFilter
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from web.errors import ServiceError
from web.http import db_outage
from web.http.responses import ApiError as ApiErrorBody

logger = logging.getLogger(__name__)


class ApiError(exceptions.APIException):
    """An error a client can act on: a stable code, a message for people, an HTTP status."""

    def __init__(
        self,
        code: str,
        message: str,
        status_code: int = 400,
        *,
        headers: Mapping[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(message, code)
        self.status_code = status_code
        self.error_code = code
        self.message = message
        self.headers = dict(headers or {})  # e.g. Retry-After on a 503
        self.extra = extra


#: The HTTP status of each refusal of the services (``ServiceError.code``); any other is 400.
STATUS_OF_REFUSAL = {
    **dict.fromkeys(
        (
            "not_found",
            "not_yet",
            "no_solution",
            "no_challenge",
            "nothing_to_share",
            "no_analysis",
        ),
        404,
    ),
    **dict.fromkeys(
        ("staff_account", "own_account", "account_required", "not_race_opener", "not_in_race"),
        403,
    ),
    **dict.fromkeys(
        (
            "stale_move_number",
            "game_finished",
            "undo_not_allowed",
            "nothing_to_undo",
            "not_at_dead_end",
            "hints_not_allowed",
            "challenge_closed",
            "challenge_not_open",
            "challenge_started",
            "attempt_exists",
            "replay_after_day",
            "not_flagged",
            "not_ranked",
            "already_excluded",
            "not_excluded",
            "not_a_guest",
            "too_many_unplayed_winnable",
            "too_many_follows",
            "game_in_play",
            "race_full",
            "race_started",
            "race_not_started",
            "race_not_over",
            "too_few_players",
            "too_many_invitations",
        ),
        409,
    ),
    **dict.fromkeys(("export_in_progress", "hint_in_progress", "analyses_queued"), 429),
    **dict.fromkeys(("daily_not_ready", "no_winnable_deal"), 503),
}


def refusal_response(exc: ServiceError) -> Response:
    response = Response(
        error_body(exc.code, exc.message, **exc.extra), STATUS_OF_REFUSAL.get(exc.code, 400)
    )
    if exc.retry_after is not None:
        response["Retry-After"] = str(exc.retry_after)
    return response


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


def error_body(code: str, message: str, **extra: Any) -> ApiErrorBody:
    return {"error": {"code": code, "message": message, **extra}}


def body_too_large_body(limit: int) -> ApiErrorBody:
    """413's body: a request body over DATA_UPLOAD_MAX_MEMORY_SIZE (web.http.handlers refuses one
    announced or sent past it before reading the rest)."""
    size = f"{limit // 1024} KiB" if limit % 1024 == 0 else f"{limit} bytes"
    return error_body("body_too_large", f"The request body is too large: at most {size}.")


#: What Redis raises when it cannot be reached (sign-in limits and other counts live there).
REDIS_UNREACHABLE = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if db_outage.note_lost(exc):
        # The database connection was lost (web.http.db_outage: run again, or this 503).
        response = Response(db_outage.unavailable_body(), status=503)
        response["Retry-After"] = str(db_outage.RETRY_AFTER_SECONDS)
        return response
    if isinstance(exc, REDIS_UNREACHABLE):
        # A count that cannot be kept (failed sign-ins, sign-ups) refuses rather than lets
        # everything through; moves and pages that need no count go on working.
        logger.error("Redis is unreachable: %s", exc)
        message = "This part of the service is unavailable for a moment. Try again shortly."
        response = Response(error_body("service_unavailable", message), status=503)
        response["Retry-After"] = "30"
        return response
    if isinstance(exc, RequestDataTooBig):
        return Response(
            body_too_large_body(settings.DATA_UPLOAD_MAX_MEMORY_SIZE),
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    if isinstance(exc, ServiceError):
        return refusal_response(exc)
    if isinstance(exc, ApiError):
        response = Response(error_body(exc.error_code, exc.message, **exc.extra), exc.status_code)
        for name, value in exc.headers.items():
            response[name] = value
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
        response.data = error_body(code, _in_the_sites_words(exc, context))
    return response


NOT_SIGNED_IN_MESSAGE = (
    "Sign in first: send the session cookie of a signed-in browser, or an API token as "
    "Authorization: Token <key> (get one from POST /api/auth/token/)."
)


def method_not_allowed_message(method: str, allowed: list[str]) -> str:
    """405: the method refused and the ones to use instead (HEAD and OPTIONS go unsaid)."""
    usable = [name for name in allowed if name not in ("HEAD", "OPTIONS")]
    instead = f": use {' or '.join(usable)}" if usable else ""
    return f'This address does not take "{method}"{instead}.'


def _in_the_sites_words(exc: exceptions.APIException, context: dict[str, Any]) -> str:
    """DRF's default messages ("Authentication credentials were not provided.", "Method
    \"PUT\" not allowed.") said as the site says things: what happened and what to do. A
    message of the site's own (``NotFound`` with its words, a throttle's wait) stays."""
    view, request = context.get("view"), context.get("request")
    if isinstance(exc, exceptions.NotAuthenticated) and _is_default(exc):
        return NOT_SIGNED_IN_MESSAGE
    if isinstance(exc, exceptions.MethodNotAllowed) and request is not None:
        allowed = list(getattr(view, "allowed_methods", []))
        return method_not_allowed_message(request.method, allowed)
    if isinstance(exc, exceptions.NotAcceptable):
        types = sorted({r.media_type for r in view.get_renderers()}) if view else []
        answers = " or ".join(types) or "application/json"
        return (
            f"This address answers in {answers} only: ask for that in the Accept header, "
            "or send none."
        )
    if isinstance(exc, exceptions.UnsupportedMediaType) and request is not None:
        sent = request.content_type.split(";")[0].strip() or "none"
        return (
            "Send the body as JSON, with the header Content-Type: application/json "
            f"(this one was {sent})."
        )
    return str(exc.detail)


def _is_default(exc: exceptions.APIException) -> bool:
    return str(exc.detail) == str(exc.default_detail)


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


#: A write that carries a signed-in session cookie without its CSRF token (or from another
#: site's page): what to send instead, in words. Django's own reason goes along as ``reason``.
CSRF_TOKEN_MESSAGE = (
    "This request carries a signed-in session cookie, so it needs the CSRF token too: nothing "
    "was changed. Get the token from GET /api/auth/csrf/ and send it as the X-CSRFToken header "
    "with the cookie, or leave the cookie out and use an API token (Authorization: Token <key>)."
)
CSRF_ORIGIN_MESSAGE = (
    "This request carries a signed-in session cookie but does not come from this site's own "
    "pages: nothing was changed. A script leaves the cookie out and uses an API token "
    "(Authorization: Token <key>)."
)


def csrf_refused(reason: str) -> ApiError:
    """403 ``csrf_failed``, for a session write refused by the CSRF check (Django's
    ``reason``: "CSRF token missing.", "Origin checking failed - …")."""
    cross_site = reason.startswith(("Origin checking failed", "Referer checking failed"))
    message = CSRF_ORIGIN_MESSAGE if cross_site else CSRF_TOKEN_MESSAGE
    return ApiError("csrf_failed", message, status_code=403, reason=reason)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A refused cross-site write under /api/ (through ``CSRF_FAILURE_VIEW``): the same answer
    as the API's session sign-in gives (``csrf_refused``); Django's page elsewhere."""
    if request.path.startswith("/api/"):
        refused = csrf_refused(reason)
        body = error_body(refused.error_code, refused.message, **refused.extra)
        return JsonResponse(body, status=refused.status_code)
    return csrf.csrf_failure(request, reason)


def server_error(request: HttpRequest) -> HttpResponse:
    if db_outage.note_lost(error := db_outage.current_error()):
        return db_outage.unavailable(request, error)  # 503, not 500 (web.http.db_outage)
    if request.path.startswith("/api/"):
        message = "Something went wrong on our side."
        return JsonResponse(error_body("server_error", message), status=500)
    return defaults.server_error(request)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if request.path.startswith("/api/"):
        message = "The request could not be read."
        return JsonResponse(error_body("bad_request", message), status=400)
    return defaults.bad_request(request, exception)


@csrf_exempt  # it changes nothing; a CSRF refusal would be Django's HTML page
def no_such_endpoint(request: HttpRequest) -> HttpResponse:
    """Any /api/ path no route takes: the JSON 404, with DEBUG on too (where Django would
    answer its HTML page listing the routes). A path that lacks only its final slash is sent
    on for a read, and named in the message otherwise (a redirect would drop the body)."""
    with_slash = request.path + "/"
    if not request.path.endswith("/") and _is_endpoint(with_slash):
        if request.method in ("GET", "HEAD"):
            query = request.META.get("QUERY_STRING", "")
            return HttpResponsePermanentRedirect(with_slash + (f"?{query}" if query else ""))
        message = f"Not found. API paths end with a slash: {with_slash}"
        return JsonResponse(error_body("not_found", message), status=404)
    return not_found(request)


def _is_endpoint(path: str) -> bool:
    try:
        return resolve(path).func is not no_such_endpoint
    except Resolver404:
        return False


#: What Django answers itself, not as a server error.
_CLIENT_ERRORS = (Http404, PermissionDenied, BadRequest, SuspiciousOperation)


class PrivateApiResponses:
    """Every answer under /api/ is ``Cache-Control: no-store`` unless its view says otherwise.

    They are one player's games and account, current at the moment they were sent. A browser
    going Back reloads a page's data from its cache without asking when it may (Chrome does
    for every request of a page it loads from history): the lobby then listed the games in
    progress as they were before the game just started. And on a shared computer no copy of
    a player's data stays on disk."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.path.startswith("/api/") and "Cache-Control" not in response:
            response["Cache-Control"] = "no-store"
        return response


class ApiServerErrorMiddleware:
    """Under /api/ a server error is the JSON body with DEBUG on too, not Django's debug page
    (which shows a request's local variables: a game's hidden cards and seed among them). The
    traceback goes to the log, as Django logs it; with DEBUG off Django answers the same
    through ``server_error``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not settings.DEBUG or not request.path.startswith("/api/"):
            return None
        if isinstance(exception, _CLIENT_ERRORS):
            return None
        signals.got_request_exception.send(sender=None, request=request)
        response = server_error(request)
        log_response(
            f"{response.reason_phrase}: {request.path}",
            response=response,
            request=request,
            exception=exception,
        )
        return response


class HiddenCardsReporterFilter(SafeExceptionReporterFilter):
    """Django's error reports (the debug page, error emails) show no local variables: a
    game's state, its seed or a deal's cards may be among them (games/rules/RULINGS.md §Seeds)."""

    def get_traceback_frame_variables(self, request: Any, tb_frame: Any) -> list[tuple[str, Any]]:
        return [("(local variables)", "not shown: they may hold hidden cards")]


# -- request bodies --------------------------------------------------------------------------


# A request body that refuses the members its serializer does not take: 400 ``unknown_field``
# naming them (and ``fields``, a message for each), before anything else is checked or done.
# Dropped without a word, a misspelt member or one that cannot be changed (``{"username": ...}``
# to ``PATCH /api/auth/me/``) would read as done. The schema says ``additionalProperties:
# false`` (``accounts.schema``). (No docstring: the schema would show it for every body.)
class KnownFieldsOnly(serializers.Serializer):
    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            unknown = [str(name) for name in data if name not in self.fields]
            if unknown:
                raise unknown_fields(unknown, list(self.fields))
        return super().to_internal_value(data)


def unknown_fields(unknown: list[str], takes: list[str]) -> ApiError:
    def names(fields: list[str]) -> str:
        quoted = [f'"{name}"' for name in fields]
        return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]

    cannot = f"{names(unknown)} cannot be sent here"
    message = f"{cannot}: this request takes {names(takes)} only. Nothing was done."
    each = "This request does not take this field."
    return ApiError("unknown_field", message, fields={name: [each] for name in unknown})
