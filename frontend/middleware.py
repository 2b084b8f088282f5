"""The site's own 404 page with DEBUG on too."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from frontend.views import SITE_PAGE, not_found


class NotFoundPageMiddleware:
    """With DEBUG on (``bin/run``) Django answers a missing page with its technical 404 (every
    URL pattern listed, no site header, an inline style the Content-Security-Policy blocks)
    and never calls ``handler404``. Pages get the site's own 404 then too; the API's JSON 404
    is left as it is."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            settings.DEBUG
            and response.status_code == 404
            and not getattr(response, SITE_PAGE, False)
            and response.get("Content-Type", "").startswith("text/html")
            and not request.path.startswith("/api/")
        ):
            return not_found(request)
        return response
