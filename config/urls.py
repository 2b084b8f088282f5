"""Root URL configuration."""

from django.contrib import admin
from django.urls import include, path, re_path

from web.http.errors import no_such_endpoint
from web.http.views import DocsView, SchemaView, health

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/health/", health, name="health"),
    path("api/auth/", include("accounts.urls")),
    path("api/schema/", SchemaView.as_view(), name="api-schema"),
    # The split view serves its script as a file (?script), as the Content-Security-Policy asks.
    path(
        "api/docs/",
        DocsView.as_view(url_name="api-schema", template_name="frontend/api_docs.html"),
        name="api-docs",
    ),
    path("api/", include("games.urls")),
    re_path(r"^api/", no_such_endpoint),  # a JSON 404, DEBUG or not
    path("", include("frontend.urls")),
]

handler400 = "web.http.errors.bad_request"
handler404 = "frontend.views.not_found"
handler500 = "web.http.errors.server_error"
