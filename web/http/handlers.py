"""Django's HTTP handler for ASGI, with the request handled in one trip to a worker thread.

Every view of this project is synchronous. Django's own ``ASGIHandler`` runs the middleware
chain in async mode, so each middleware hook and then the view hop between the event loop
and a thread (a dozen round trips per request, and a synchronous middleware such as
WhiteNoise's hops back). Here the middleware chain is built synchronously, as under WSGI, and
the whole request (middleware and view) runs in one call on the request's thread. Reading the
body, sending the response, the request signals and streaming stay Django's. Measured with
``bench/api_bench.py``: the trivial endpoint's server CPU per request fell by half.

Django also gives each request a thread of its own (a ``ThreadSensitiveContext``), started
for the request and joined after it: starting and joining it was a fifth of a worker's CPU
under load. Here a request still has a thread to itself for its whole life (its signals, its
middleware and view, its database connection), but the thread is one a finished request
left idle, when there is one.

What it buys, measured against Django's own ``ASGIHandler`` with ``bench/players_bench.py``
(200 players, three interleaved pairs, 2026-11-28): server CPU per move 6.82, 5.69, 5.90 ms
with this handler, 7.78, 7.84, 7.44 ms with Django's: 20 % less CPU a move, 25 % more moves
on the same cores (``bench/README.md``, "What made it faster").
"""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponseBase, JsonResponse

from web.http.streaming import request_loop

#: Idle request threads kept for reuse; beyond this many, a finished request's thread ends.
MAX_IDLE_THREADS = 64


class SyncChainASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        super().__init__()
        # Single-thread executors whose request has finished. Taken and given back on the
        # event loop's thread; a list's pop and append are atomic if several loops share it.
        self.idle_threads: list[ThreadPoolExecutor] = []

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        try:
            thread = self.idle_threads.pop()
        except IndexError:
            thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="request")
        try:
            # Every thread-sensitive call of this request (signals, view, closing) runs on
            # `thread`, one at a time, as on the thread Django would have started for it.
            async with ThreadSensitiveContext(executor=thread):
                await self.handle(scope, receive, send)
        finally:
            # A call still running (a view whose client went away) finishes before the
            # next request's first call: the executor runs one call at a time, in order.
            if len(self.idle_threads) < MAX_IDLE_THREADS:
                self.idle_threads.append(thread)
            else:
                thread.shutdown(wait=False)

    async def handle(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        # A body over DATA_UPLOAD_MAX_MEMORY_SIZE is refused before it is read: Django reads
        # every body into a temporary file first (one announced as 2 GB was written to disk
        # before its limit refused it), then refuses it when the view reads it.
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and announced_length(scope) > limit:
            await self.send_response(body_too_large(limit), send)
            return
        try:
            await super().handle(scope, receive, send)
        except BodyTooLarge:  # a body sent in chunks, without a Content-Length
            await self.send_response(body_too_large(limit), send)

    async def read_body(self, receive: Any) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is None:
            return await super().read_body(receive)
        received = 0

        async def counted() -> dict[str, Any]:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > limit:
                raise BodyTooLarge
            return message

        return await super().read_body(counted)

    def create_request(self, scope: dict[str, Any], body_file: Any) -> tuple[Any, Any]:
        request, error = super().create_request(scope, body_file)
        if request is not None and "CONTENT_LENGTH" not in request.META:
            # A body sent in chunks comes without a Content-Length, and DRF reads a request
            # without one as having no body at all ("variant: This field is required."); the
            # size limit on bodies also goes by it.
            size = body_file.seek(0, os.SEEK_END)
            body_file.seek(0)
            if size:
                request.META["CONTENT_LENGTH"] = str(size)
        return request, error

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        # thread_sensitive: the request's own thread, where the request_started/finished
        # signals also run, so its database connection is opened and given back on one
        # thread. The context, request_loop set, goes with it.
        request_loop.set(asyncio.get_running_loop())
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)


class BodyTooLarge(Exception):
    """A body sent in chunks grew past DATA_UPLOAD_MAX_MEMORY_SIZE while being read."""


def announced_length(scope: dict[str, Any]) -> int:
    """The request's Content-Length, 0 if it has none or none that is a number."""
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return 0
    return 0


def body_too_large(limit: int) -> JsonResponse:
    """413, the API's error format, sent before the body is read (no middleware runs)."""
    from web.http.errors import body_too_large_body

    return JsonResponse(body_too_large_body(limit), status=413)
