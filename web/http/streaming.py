"""Responses sent as they are made (a player's data export), under the ASGI handler
(``web.http.handlers``) or anywhere else. Views import this, never the handler."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable, Iterator
from contextvars import ContextVar

from asgiref.sync import sync_to_async

#: The event loop serving the current request, set by the ASGI handler; None outside an ASGI
#: request (tests, commands), which is how ``streaming_content`` knows how to stream.
request_loop: ContextVar[asyncio.AbstractEventLoop | None] = ContextVar(
    "request_loop", default=None
)


def streaming_content(chunks: Iterator[bytes]) -> Iterable[bytes] | StreamOnRequestThread:
    """The content of a ``StreamingHttpResponse`` that is sent as it is made.

    Under the ASGI handler (an ASGI request: ``request_loop`` set) Django would read a synchronous
    iterator to its end, into a list, before sending any of it; so it gets an asynchronous
    one that advances ``chunks`` on the request's own thread (its database connection, and a
    transaction the chunks hold open), one chunk a trip. Elsewhere (WSGI, the test client)
    ``chunks`` as they are."""
    if request_loop.get() is None:
        return chunks
    return StreamOnRequestThread(chunks)


class StreamOnRequestThread:
    """``chunks`` as an asynchronous iterator, each step on the request's thread (the
    ``ThreadSensitiveContext`` the handler runs the request in). ``close``, which Django calls
    on the request's thread as the response closes, after the last chunk or a client gone
    away, closes ``chunks`` there too: a generator left to the garbage collector would leave
    its ``with`` blocks on whatever thread collects it."""

    def __init__(self, chunks: Iterator[bytes]) -> None:
        self.chunks = chunks

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self._chunks()

    async def _chunks(self) -> AsyncIterator[bytes]:
        step = sync_to_async(next, thread_sensitive=True)
        while (chunk := await step(self.chunks, None)) is not None:
            yield chunk

    def close(self) -> None:
        close = getattr(self.chunks, "close", None)
        if close is not None:
            close()
