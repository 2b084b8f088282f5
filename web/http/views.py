"""Service-level views that belong to no app."""

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from web.http.errors import error_body, method_not_allowed_message


@csrf_exempt  # it changes nothing; a CSRF refusal would be Django's HTML page
def health(request: HttpRequest) -> JsonResponse:
    """Liveness probe: answers without touching the database."""
    if request.method not in ("GET", "HEAD"):
        message = method_not_allowed_message(request.method, ["GET", "HEAD"])  # as elsewhere
        body = error_body("method_not_allowed", message)
        return JsonResponse(body, status=405, headers={"Allow": "GET, HEAD"})
    return JsonResponse({"status": "ok"})


class _JsonErrors:
    """For API views that answer in another format (the schema's YAML, the docs page): their
    errors are the API's JSON all the same, whatever the request's Accept header says. They
    answer GET only: DRF's description of a view (OPTIONS) would be rendered as the page's
    template, which has no such page."""

    metadata_class = None

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc]
        if getattr(response, "exception", False):
            response.accepted_renderer = JSONRenderer()
            response.accepted_media_type = JSONRenderer.media_type
        return response


class SchemaView(_JsonErrors, SpectacularAPIView):
    pass


class DocsView(_JsonErrors, SpectacularSwaggerSplitView):
    pass
