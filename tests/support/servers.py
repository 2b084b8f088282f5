"""Real server processes for end-to-end tests: uvicorn serving config.asgi on a free port."""

from __future__ import annotations

import hashlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "artifacts" / "server-logs"


@contextmanager
def reserved_port() -> Iterator[int]:
    """A free port kept bound (not listening) while the block runs, for a server that binds it
    with ``SO_REUSEPORT`` (``deploy.serve``): the kernel gives a bound port to no outgoing
    connection, so nothing else can take it between choosing it and the server binding it."""
    with socket.socket() as holder:
        holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        holder.bind(("127.0.0.1", 0))
        yield holder.getsockname()[1]


def database_url(settings_dict: dict) -> str:
    """The URL of the database Django is using now (in tests: the test database)."""
    user = settings_dict.get("USER") or "postgres"
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{user}@{host}:{port}/{settings_dict['NAME']}"


def production_secret(name: str) -> str:
    """A secret strong enough for DEBUG off (config/settings.py: 50 characters or more, five
    different ones or more, no word repeated), the same for every process given ``name``."""
    return hashlib.sha256(f"patience-tests:{name}".encode()).hexdigest()


def production_env(settings_dict: dict, secret_key: str, **extra: str) -> dict[str, str]:
    """The environment of servers set up as in production (DEBUG off, PostgreSQL and Redis
    shared), on the test database, reached over plain HTTP at 127.0.0.1; ``extra`` added.
    ``secret_key`` names the SECRET_KEY and DAILY_SECRET made strong for production."""
    return {
        "DATABASE_URL": database_url(settings_dict),
        "REDIS_URL": os.environ["REDIS_URL"],
        "DEBUG": "0",
        "HTTPS": "0",  # reached over plain HTTP
        "SECRET_KEY": production_secret(secret_key),
        "DAILY_SECRET": production_secret(f"daily-{secret_key}"),
        "ALLOWED_HOSTS": "127.0.0.1",
        **extra,
    }


@contextmanager
def servers(count: int, env: dict[str, str]) -> Iterator[list[str]]:
    """Start ``count`` server processes; yields their base URLs; always stops them."""
    processes, urls = [], []
    try:
        for _ in range(count):
            with listening_socket() as listener:
                port = listener.getsockname()[1]
                serve = [sys.executable, "-m", "tests.support.serve_socket"]
                command = [*serve, str(listener.fileno())]
                # Each server's output goes to a log under artifacts/, for when a test fails.
                LOGS.mkdir(parents=True, exist_ok=True)
                with (LOGS / f"server-{port}.log").open("wb") as log:
                    processes.append(
                        subprocess.Popen(
                            command,
                            cwd=ROOT,
                            env={**os.environ, **env},
                            stdout=log,
                            stderr=subprocess.STDOUT,
                            start_new_session=True,
                            pass_fds=(listener.fileno(),),
                        )
                    )
            urls.append(f"http://127.0.0.1:{port}")
        for url, process in zip(urls, processes, strict=True):
            wait_until_up(url, process)
        yield urls
    finally:
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)


@contextmanager
def listening_socket() -> Iterator[socket.socket]:
    """A socket listening on a port the kernel chose; connections queue until a server serves it."""
    with socket.socket() as listener:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen(128)
        yield listener


def wait_until_up(url: str, process: subprocess.Popen, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                f"the server for {url} exited with {process.returncode}: {log_tail(url)}"
            )
        try:
            if httpx.get(f"{url}/api/health/", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise RuntimeError(f"the server at {url} did not answer within {timeout} s")


def log_tail(url: str, characters: int = 2000) -> str:
    """The end of a server's log, to say why it stopped."""
    log = LOGS / f"server-{url.rsplit(':', 1)[1]}.log"
    return log.read_text(errors="replace")[-characters:] if log.exists() else "(no log)"


def prepare_dailies_around_today() -> None:
    """Yesterday's, today's and tomorrow's challenges, prepared through the real service (as a
    server's day-closing thread does ahead; these servers run none), with the test run's small
    solver budget (tests/conftest.py)."""
    import datetime as dt

    from games.core import days
    from games.daily import challenges

    today = days.today()
    challenges.prepare_days(today + dt.timedelta(days=n) for n in (-1, 0, 1))
