"""A throwaway redis-server of a test's own, which it may stop and start again (a Redis outage
under the channel layer). CI has ``redis-server``; without it such a test skips locally and
fails under ``PATIENCE_REQUIRE_POSTGRES=1``."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator

import pytest


class PrivateRedis:
    """A throwaway redis-server on a free port, which a test may stop and start again."""

    def __init__(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        options = [
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ]
        self.process = subprocess.Popen(
            ["redis-server", *options],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the private redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None


def private_redis() -> Iterator[PrivateRedis]:
    """For a fixture: a started PrivateRedis, stopped afterwards."""
    if shutil.which("redis-server") is None:
        if os.environ.get("PATIENCE_REQUIRE_POSTGRES") == "1":
            pytest.fail("redis-server is needed for the channel layer's outage tests")
        pytest.skip("no redis-server here")
    server = PrivateRedis()
    server.start()
    try:
        yield server
    finally:
        server.stop()
