"""The site's URLs and a page that fails, for tests/web/test_api_errors_in_debug.py."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import urlpatterns as site

# Built at run time: the debug page quotes the source around each frame, which is no secret.
HIDDEN = "-".join(["stock", str(6 * 7), "QS"])


def failing_page(request: HttpRequest) -> HttpResponse:
    hidden = HIDDEN  # a local variable, as a game's state would be
    raise RuntimeError(f"the page failed ({len(hidden)})")


urlpatterns = [path("failing-page/", failing_page), *site]
