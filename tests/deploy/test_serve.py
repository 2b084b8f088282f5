"""``python -m deploy.serve``: several worker processes on one address, each on its own socket."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import httpx
import pytest

from deploy import serve
from tests.support.servers import production_secret, reserved_port, wait_until_up

ROOT = Path(__file__).resolve().parents[2]


def server_env(**extra: str) -> dict[str, str]:
    """The embedded default (nothing here touches a database or Redis), production-like."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DEBUG="0", SECRET_KEY=production_secret("serve"), ALLOWED_HOSTS="127.0.0.1")
    env.update(DAILY_SECRET=production_secret("daily-serve"))
    env.update(extra)
    return env


def start(port: int, workers: int = 2, *options: str, **env: str) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "deploy.serve", "--port", str(port)]
    command += ["--workers", str(workers), "--log-level", "warning", "--no-access-log", *options]
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env=server_env(**env),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


@contextmanager
def running(workers: int = 2, *options: str) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    with reserved_port() as port:
        process = start(port, workers, *options)
        try:
            wait_until_up(f"http://127.0.0.1:{port}", process)
        except BaseException:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
            raise
    try:
        yield process, port
    finally:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


def worker_pids(parent: int) -> set[int]:
    """The parent's worker processes (not multiprocessing's resource tracker)."""
    pids = set()
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        with suppress(OSError):
            stat = Path(f"/proc/{entry.name}/stat").read_text()
            command = Path(f"/proc/{entry.name}/cmdline").read_bytes()
            if int(stat.rsplit(")", 1)[1].split()[1]) == parent and b"spawn_main" in command:
                pids.add(int(entry.name))
    return pids


def wait_for_workers(parent: int, count: int, timeout: float = 30) -> set[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pids = worker_pids(parent)
        if len(pids) == count:
            return pids
        time.sleep(0.1)
    raise AssertionError(f"expected {count} workers, found {worker_pids(parent)}")


def established_on(port: int) -> set[int]:
    """Socket inodes of the server side of established IPv4 connections on ``port``."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == port and fields[3] == "01":
            inodes.add(int(fields[9]))
    return inodes


def socket_inodes(pid: int) -> set[int]:
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with suppress(OSError):
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
            if target.startswith("socket:["):
                inodes.add(int(target[8:-1]))
    return inodes


def open_connections(port: int, count: int) -> list[socket.socket]:
    """``count`` keep-alive connections, each having had one answer (so it was accepted)."""
    connections = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", port), timeout=10)
        connection.sendall(b"GET /api/health/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert connection.recv(4096).startswith(b"HTTP/1.1 200")
        connections.append(connection)
    return connections


def test_connections_opened_together_are_spread_over_the_workers() -> None:
    with running(workers=2) as (process, port):
        workers = wait_for_workers(process.pid, 2)
        connections = open_connections(port, 40)
        try:
            server_side = established_on(port)
            held = {pid: len(socket_inodes(pid) & server_side) for pid in workers}
        finally:
            for connection in connections:
                connection.close()
    assert sum(held.values()) == 40
    # A hash of the addresses picks the socket: 40 connections split 20/20 on average; fewer
    # than 5 on one of two workers has a probability under one in ten million.
    assert min(held.values()) >= 5, held


def test_behind_a_tls_proxy_plain_http_is_redirected_and_https_is_served_strictly() -> None:
    # Production settings (DEBUG off: HTTPS on), as the README's recipe runs them.
    with running(1, "--proxy-headers") as (_, port):
        site = f"http://127.0.0.1:{port}"
        plain = httpx.get(f"{site}/api/variants/", timeout=30)
        assert plain.status_code == 301
        assert plain.headers["location"] == f"https://127.0.0.1:{port}/api/variants/"
        # A load balancer's health check over plain HTTP is answered.
        assert httpx.get(f"{site}/api/health/", timeout=30).status_code == 200

        # What the proxy passes on from an HTTPS request.
        forwarded = {"X-Forwarded-Proto": "https"}
        secure = httpx.get(f"{site}/api/auth/csrf/", headers=forwarded, timeout=30)
        assert secure.status_code == 200
        assert secure.headers["strict-transport-security"] == "max-age=31536000"
        assert "script-src 'self'" in secure.headers["content-security-policy"]
        cookie = secure.headers["set-cookie"]
        assert cookie.startswith("csrftoken=") and "Secure" in cookie


def test_a_worker_that_dies_is_replaced_and_the_service_keeps_answering() -> None:
    with running(workers=2) as (process, port):
        workers = wait_for_workers(process.pid, 2)
        # A worker that dies while starting stops the service; this one has been serving.
        time.sleep(serve.MIN_WORKER_LIFE_S + 0.5)
        killed = min(workers)
        os.kill(killed, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            now = worker_pids(process.pid)
            if len(now) == 2 and killed not in now:
                break
            time.sleep(0.1)
        assert len(now) == 2 and killed not in now, now
        # The connections that arrive for the dead worker's socket wait in its queue for the
        # new worker: none is refused.
        for _ in range(20):
            answer = httpx.get(f"http://127.0.0.1:{port}/api/health/", timeout=60)
            assert answer.status_code == 200
        assert process.poll() is None


def test_sigterm_stops_every_worker_and_the_parent_cleanly() -> None:
    with running(workers=2) as (process, _port):
        workers = wait_for_workers(process.pid, 2)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
        # The parent waited for its workers (and reaped them) before exiting.
        assert not any(Path(f"/proc/{pid}").exists() for pid in workers)


def test_a_taken_address_is_refused_with_a_message() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        process = start(taken.getsockname()[1])
        output, _ = process.communicate(timeout=30)
    assert process.returncode == 1
    assert b"Address already in use" in output


def test_a_worker_that_cannot_start_stops_the_service_instead_of_restarting_forever() -> None:
    with reserved_port() as port:
        process = start(port, DJANGO_SETTINGS_MODULE="no_such_settings_module")
        output, _ = process.communicate(timeout=60)
    assert process.returncode == 1
    assert b"while starting; stopping the service" in output


@pytest.mark.parametrize("argument", [["--workers", "0"], ["--port", "0"]])
def test_bad_arguments_are_refused(argument: list[str]) -> None:
    with pytest.raises(SystemExit):
        serve.parse_args(argument)


def test_sighup_replaces_every_worker_without_refusing_or_dropping_a_connection() -> None:
    with running(workers=2) as (process, port):
        old = wait_for_workers(process.pid, 2)
        url = f"http://127.0.0.1:{port}/api/health/"
        answers: list[int | str] = []
        restarted = threading.Event()

        def keep_asking() -> None:
            # A new connection each time: each goes to whichever socket its addresses hash to,
            # and some arrive while that socket's worker is being replaced. With 16 clients
            # a launcher that dropped such connections failed this test one run in two.
            while not restarted.is_set():
                try:
                    response = httpx.get(url, headers={"Connection": "close"}, timeout=30)
                    answers.append(response.status_code)
                except BaseException as error:  # any failure is an answer that is not 200
                    answers.append(repr(error))

        clients = [threading.Thread(target=keep_asking) for _ in range(16)]
        for client in clients:
            client.start()
        try:
            process.send_signal(signal.SIGHUP)
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                now = worker_pids(process.pid)
                if len(now) == 2 and not now & old:
                    break
                time.sleep(0.05)
            # The last old worker may still be finishing its requests: let them end.
            time.sleep(1)
        finally:
            restarted.set()
            for client in clients:
                client.join()
        assert len(now) == 2 and not now & old, (old, now)
        failures = [answer for answer in answers if answer != 200]
        assert len(answers) > 20 and not failures, (len(answers), failures[:5])
        assert process.poll() is None
