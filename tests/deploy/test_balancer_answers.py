"""What HAProxy (``deploy/haproxy.cfg``, unchanged) answers itself: JSON with the API's stable
codes (``deploy/errors/``), never a bare HTML 502. A host that went away before answering is
503 ``service_unavailable`` with ``Retry-After``, done or not, as the service's own lost
COMMIT: the client sends it again with its ``Idempotency-Key`` (docs/api.md, "Errors").

The web hosts here are stand-ins on loopback that pass the health check and then close every
other request unanswered; the cluster test (``tests/cluster/``) has the real ones die and
vanish under players. Needs HAProxy: skipped without it, failed under CI, which installs it."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import httpx
import pytest

from tests.support.servers import reserved_port

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "deploy" / "haproxy.cfg"
HEALTHY = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"


@pytest.fixture(scope="module", autouse=True)
def haproxy_installed() -> None:
    if shutil.which("haproxy") is None:
        if os.environ.get("PATIENCE_REQUIRE_POSTGRES") == "1":
            pytest.fail("HAProxy is missing (PATIENCE_REQUIRE_POSTGRES=1: .ci/run installs it)")
        pytest.skip("HAProxy is not installed")


@contextmanager
def host_that_hangs_up() -> Iterator[int]:
    """A web host that answers its health checks and closes every other request unanswered."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    stopping = threading.Event()

    def serve() -> None:
        while not stopping.is_set():
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            with connection:
                request = connection.recv(65536)
                if b" /api/health/ " in request:
                    connection.sendall(HEALTHY)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stopping.set()
        thread.join(timeout=5)
        listener.close()


@contextmanager
def balancer(web1: int, web2: int, until_status: int | None = None) -> Iterator[str]:
    """HAProxy in front of the two ports, once it answers (with ``until_status``, once its
    answer to the health path has that status: the hosts are in)."""
    with reserved_port() as port:
        env = dict(
            os.environ,
            PATIENCE_LISTEN=f"127.0.0.1:{port}",
            PATIENCE_HOST="127.0.0.1",
            PATIENCE_WEB1=f"127.0.0.1:{web1}",
            PATIENCE_WEB2=f"127.0.0.1:{web2}",
        )
        process = subprocess.Popen(
            ["haproxy", "-db", "-f", str(CONFIG)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 10
        while True:
            assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
            try:
                status = httpx.get(url + "/api/health/", timeout=2, trust_env=False).status_code
                if until_status in (None, status):
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "HAProxy did not start, or the hosts are not in"
            time.sleep(0.1)
        yield url
    finally:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)


def closed_port() -> int:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        return unused.getsockname()[1]


def assert_service_unavailable(answer: httpx.Response) -> None:
    assert answer.status_code == 503, answer.text
    assert answer.headers["content-type"] == "application/json"
    assert int(answer.headers["retry-after"]) >= 1
    assert answer.json()["error"]["code"] == "service_unavailable"
    assert answer.json()["error"]["message"]


def test_a_host_gone_before_answering_is_a_json_503_with_retry_after() -> None:
    with (
        host_that_hangs_up() as web1,
        host_that_hangs_up() as web2,
        balancer(web1, web2, until_status=200) as url,
        httpx.Client(base_url=url, timeout=10, trust_env=False) as client,
    ):
        # A write with a key is sent on to the other host first (retry-on empty-response), one
        # without is not: both end as the same answer, never a bare 502.
        keyed = client.post("/api/games/", json={}, headers={"Idempotency-Key": "k-1"})
        unkeyed = client.post("/api/games/", json={})
        read = client.get("/api/games/1/")
    for answer in (keyed, unkeyed, read):
        assert_service_unavailable(answer)
        assert "went away before answering" in answer.json()["error"]["message"]


def test_no_host_up_is_a_json_503_with_retry_after() -> None:
    with balancer(closed_port(), closed_port()) as url:
        answer = httpx.get(url + "/api/games/1/", timeout=10, trust_env=False)
    assert_service_unavailable(answer)
    assert "No server can answer" in answer.json()["error"]["message"]
