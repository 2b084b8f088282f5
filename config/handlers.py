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

import asyncio
from contextvars import ContextVar

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponseBase

#: The event loop serving the current request, for work the request hands back to it without
#: waiting (``games.live`` publishes there). None outside an ASGI request (tests, commands).
request_loop: ContextVar[asyncio.AbstractEventLoop | None] = ContextVar(
    "request_loop", default=None
)


class SyncChainASGIHandler(ASGIHandler):
    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        # thread_sensitive: the request's own thread (Django's per-request context), where
        # the request_started/finished signals also run, so its database connection is
        # opened and given back on one thread. The context, request_loop set, goes with it.
        request_loop.set(asyncio.get_running_loop())
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)
