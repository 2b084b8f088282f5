"""ASGI entry point: HTTP goes to Django, websockets to Channels consumers."""

import gc
import os

import django
from django.conf import settings

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Set up Django (apps registry) before importing anything that touches models.
django.setup(set_prefix=False)

from web.http.handlers import SyncChainASGIHandler  # noqa: E402

django_asgi_app = SyncChainASGIHandler()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402
from django.urls import reverse  # noqa: E402

from accounts.websocket import TokenAuthMiddleware  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from web.http.db_outage import WebsocketGuard  # noqa: E402
from web.http.origins import SameOriginValidator  # noqa: E402

if settings.DEBUG:
    # bin/run serves with the daphne CLI, which (unlike runserver) serves no static files.
    django_asgi_app = ASGIStaticFilesHandler(django_asgi_app)

# No background work here: closing days, preparing dailies and filling the winnable-deal pools
# are the worker role's (manage.py worker, games.background.worker).
application = router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": WebsocketGuard(
            SameOriginValidator(
                AuthMiddlewareStack(TokenAuthMiddleware(URLRouter(websocket_urlpatterns)))
            )
        ),
    }
)
# Everything loaded so far (Django, the apps, the URL conf) lives as long as the process.
# A full collection scanned all of it (~120k objects) and paused every request of the
# worker for 70-95 ms, several times a minute under load: that set the API's p99 latency.
# Frozen, it is never scanned again; and full collections come ten times less often.
reverse("health")  # builds the URL resolver's tables now, so they are frozen too
gc.freeze()
gc.set_threshold(700, 10, 100)
