"""Django's HTTP handler for ASGI, with the request handled in one trip to a worker thread.

Every view of this project is synchronous. Django's own ``ASGIHandler`` runs the middleware
chain in async mode, so each middleware hook and then the view hop between the event loop
and a thread (a dozen round trips per request, and a synchronous middleware such as
WhiteNoise's hops back). Here the middleware chain is built synchronously, as under WSGI, and
the whole request (middleware and view) runs in one call on the request's thread. Reading the
body, sending the response, the request signals and streaming stay Django's. Measured with
``bench/api_bench.py``: the trivial endpoint's server CPU per request fell by half.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponseBase


class SyncChainASGIHandler(ASGIHandler):
    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        # thread_sensitive: the request's own thread (Django's per-request context), where
        # the request_started/finished signals also run, so its database connection is
        # opened and given back on one thread.
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)
