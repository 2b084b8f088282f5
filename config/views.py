"""Service-level views that belong to no app."""

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET


@require_GET
def health(request: HttpRequest) -> JsonResponse:
    """Liveness probe: answers without touching the database."""
    return JsonResponse({"status": "ok"})
