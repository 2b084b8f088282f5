"""The ASGI application bin/run serves: HTTP through Django, static files while DEBUG is on."""

import asyncio
import importlib
import inspect
import json
import threading
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from django.contrib.auth.models import User
from pytest_django import Settings

import config.asgi
from tests.support.waiting import until
from web.http.handlers import SyncChainASGIHandler


@async_to_sync
async def asgi_get(application: Any, path: str) -> tuple[int, bytes]:
    return await asgi_get_async(application, path)


async def asgi_get_async(application: Any, path: str) -> tuple[int, bytes]:
    return await asgi_request(application, "GET", path, [b""], [])


async def asgi_request(
    application: Any, method: str, path: str, chunks: list[bytes], headers: list
) -> tuple[int, bytes]:
    """The status and body of one request, its body sent in ``chunks``."""
    # Not channels' HttpCommunicator: it rejects the body-less final message of streamed responses.
    scope = {
        "type": "http",
        "http_version": "1.1",
        "method": method,
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", b"testserver"), *headers],
    }
    communicator = ApplicationCommunicator(application, scope)
    for index, chunk in enumerate(chunks):
        more = index < len(chunks) - 1
        await communicator.send_input({"type": "http.request", "body": chunk, "more_body": more})
    start = await communicator.receive_output(timeout=5)
    body = b""
    while True:
        message = await communicator.receive_output(timeout=5)
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    await communicator.wait()
    return start["status"], body


def test_http_is_served_by_django() -> None:
    assert asgi_get(config.asgi.application, "/api/health/") == (200, b'{"status": "ok"}')


def test_static_files_served_in_debug(settings: Settings) -> None:
    settings.DEBUG = True
    # asgi.py decides on static serving at import, so import it again under DEBUG.
    module = importlib.reload(config.asgi)
    status, body = asgi_get(module.application, "/static/frontend/site.css")
    assert status == 200
    assert b"--accent" in body


def test_the_middleware_chain_and_view_run_in_one_synchronous_call() -> None:
    # One trip to a thread per request, not one per middleware hook (web/http/handlers.py).
    served = config.asgi.router.application_mapping["http"]
    # Under DEBUG (an earlier test reloads the module) it is wrapped to serve static files.
    assert isinstance(getattr(served, "application", served), SyncChainASGIHandler)
    assert not inspect.iscoroutinefunction(SyncChainASGIHandler()._middleware_chain)


@pytest.mark.django_db(transaction=True)
def test_an_api_call_through_the_asgi_application_reads_the_database() -> None:
    User.objects.create_user("ada", password="x-long-password-1")
    status, body = asgi_get(config.asgi.application, "/api/variants/")
    assert status == 200
    assert len(json.loads(body)) == 5


def test_a_finished_requests_thread_serves_the_next_request(settings: Settings) -> None:
    # Django starts a thread per request and joins it after; here an idle one is reused,
    # and a request's signals run on the same thread as its view.
    from django.core import signals

    settings.ROOT_URLCONF = "tests.config.urls_threads"
    handler = SyncChainASGIHandler()
    started_on: list[int] = []

    def record_thread(**kwargs: Any) -> None:
        started_on.append(threading.get_ident())

    signals.request_started.connect(record_thread)
    try:
        threads = [json.loads(asgi_get(handler, "/thread/")[1])["thread"] for _ in range(3)]
    finally:
        signals.request_started.disconnect(record_thread)
    assert threads[0] == threads[1] == threads[2] != threading.get_ident()
    assert started_on == threads
    assert len(handler.idle_threads) == 1


def test_requests_at_the_same_time_each_have_a_thread(settings: Settings) -> None:
    # The first view waits until the second has run: on one shared thread it never would.
    from tests.config import urls_threads

    settings.ROOT_URLCONF = "tests.config.urls_threads"
    urls_threads.met.clear()
    urls_threads.waiting.clear()
    handler = SyncChainASGIHandler()

    @async_to_sync
    async def both() -> list[tuple[int, bytes]]:
        waiting = asyncio.ensure_future(asgi_get_async(handler, "/wait/"))
        await until(urls_threads.waiting.is_set, "the first request waiting in its view")
        return [await asgi_get_async(handler, "/meet/"), await waiting]

    assert both() == [(200, b'{"met": true}'), (200, b'{"met": true}')]
    assert len(handler.idle_threads) == 2


def test_idle_request_threads_are_kept_up_to_a_limit(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    import web.http.handlers
    from tests.config import urls_threads

    monkeypatch.setattr(web.http.handlers, "MAX_IDLE_THREADS", 1)
    settings.ROOT_URLCONF = "tests.config.urls_threads"
    urls_threads.met.clear()
    urls_threads.waiting.clear()
    handler = SyncChainASGIHandler()

    @async_to_sync
    async def both() -> None:
        waiting = asyncio.ensure_future(asgi_get_async(handler, "/wait/"))
        await until(urls_threads.waiting.is_set, "the first request waiting in its view")
        await asgi_get_async(handler, "/meet/")
        await waiting

    both()
    [kept] = handler.idle_threads
    served_on = json.loads(asgi_get(handler, "/thread/")[1])["thread"]
    assert served_on in {thread.ident for thread in kept._threads}


@async_to_sync
async def asgi_post_in_chunks(
    application: Any, path: str, chunks: list[bytes], headers: list
) -> tuple[int, Any]:
    """A POST whose body comes in pieces with no Content-Length (Transfer-Encoding: chunked)."""
    chunked = [(b"transfer-encoding", b"chunked"), *headers]
    status, body = await asgi_request(application, "POST", path, chunks, chunked)
    return status, json.loads(body)


@pytest.mark.django_db(transaction=True)
def test_a_body_sent_in_chunks_is_read_like_any_other() -> None:
    from rest_framework.authtoken.models import Token

    user = User.objects.create_user("chunky", password="x")
    auth = [(b"authorization", f"Token {Token.objects.create(user=user).key}".encode())]
    headers = [*auth, (b"content-type", b"application/json")]
    handler = SyncChainASGIHandler()  # its request threads end with the test
    try:
        chunks = [b'{"variant": "gold', b'-mine", "seed": 3}']
        status, body = asgi_post_in_chunks(handler, "/api/games/", chunks, headers)
        assert status == 201, body
        assert body["variant"] == "gold-mine"
        chunks = [b"x" * 700_000] * 2
        status, body = asgi_post_in_chunks(handler, "/api/games/", chunks, headers)
        assert (status, body["error"]["code"]) == (413, "body_too_large")
    finally:
        for thread in handler.idle_threads:
            thread.shutdown()


@async_to_sync
async def announce_and_stall(application: Any, length: int, sent: bytes) -> tuple[dict, Any]:
    """A POST announcing a body of ``length`` bytes that sends ``sent`` and then nothing more:
    the answer, which must come without the rest of the body."""
    scope = {
        "type": "http",
        "http_version": "1.1",
        "method": "POST",
        "path": "/api/games/",
        "raw_path": b"/api/games/",
        "query_string": b"",
        "headers": [
            (b"host", b"testserver"),
            (b"content-type", b"application/json"),
            (b"content-length", str(length).encode()),
        ],
    }
    communicator = ApplicationCommunicator(application, scope)
    await communicator.send_input({"type": "http.request", "body": sent, "more_body": True})
    start = await communicator.receive_output(timeout=5)  # no waiting for the 2 GB
    body = b""
    while True:
        message = await communicator.receive_output(timeout=5)
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    await communicator.wait(timeout=5)
    return start, json.loads(body)


@pytest.mark.django_db(transaction=True)
def test_a_body_announced_over_the_limit_is_refused_before_it_is_read() -> None:
    handler = SyncChainASGIHandler()
    try:
        start, body = announce_and_stall(handler, 2_000_000_000, b'{"variant": ')
        assert start["status"] == 413
        assert dict(start["headers"])[b"Content-Type"] == b"application/json"
        assert body["error"]["code"] == "body_too_large"
        assert "256 KiB" in body["error"]["message"]
    finally:
        for thread in handler.idle_threads:
            thread.shutdown()


@pytest.mark.django_db(transaction=True)
def test_the_limit_on_bodies_is_the_setting(settings: Settings) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10
    handler = SyncChainASGIHandler()
    try:
        start, body = announce_and_stall(handler, 11, b"{")
        assert (start["status"], body["error"]["code"]) == (413, "body_too_large")
        # At the limit the body is read (and the request goes on to be signed in: 401).
        status, _ = async_to_sync(asgi_request)(
            handler, "POST", "/api/games/", [b"{}" * 5], [(b"content-length", b"10")]
        )
        assert status == 401
    finally:
        for thread in handler.idle_threads:
            thread.shutdown()
