"""Serve the site with several uvicorn processes on one address, each on a socket of its own.

    python -m deploy.serve [--host 127.0.0.1] [--port 8000] [--workers 2] [--proxy-headers]
                           [--forwarded-allow-ips IPS] [--log-level info] [--no-access-log]

``uvicorn --workers N`` shares one listening socket among its processes, and whichever process
wakes first accepts every connection waiting. Connections that arrive together (players
opening the site at once, clients reconnecting after a restart) land on one process while the
others idle, and they stay there: keep-alive and websocket connections last minutes. Seen with
``bench/api_bench.py``: all 10 clients on one of two workers, that worker's core saturated and
the other idle. Here each process listens on a socket of its own bound with ``SO_REUSEPORT``,
and the kernel spreads new connections across the sockets by a hash of the two addresses.

The parent opens the sockets, one per worker slot, and keeps them open for as long as it
runs; each worker serves its slot's socket. With ``SO_REUSEPORT`` each socket has a queue of
its own, and closing a socket resets the connections waiting in it (Linux moves them to
another socket only with the ``net.ipv4.tcp_migrate_req`` sysctl). So a socket is never
closed while the service runs: a slot's new worker takes over its socket, queue and all.

The parent replaces a worker that dies (one that dies within its first seconds stops the
service: it would die again); the connections that arrive for its slot meanwhile wait in the
queue. On SIGHUP it replaces the workers one by one: the new worker serves the slot's socket
beside the old one, then the old one stops accepting, finishes its requests and exits, so no
connection is refused or dropped (after a deploy or a ``migrate``). On SIGINT or SIGTERM it
asks every worker to finish its requests (uvicorn's graceful shutdown) and waits for them.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import multiprocessing
import signal
import socket
import sys
import time
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from multiprocessing.synchronize import Event
from typing import Any

APP = "config.asgi:application"
#: A worker that exits sooner than this after starting is not restarted: the service stops.
MIN_WORKER_LIFE_S = 5.0
#: How long a new worker may take to serve, on SIGHUP, before the old one is kept instead.
READY_TIMEOUT_S = 60.0
#: Between a stopping worker's last accept and its closing idle connections: a connection it
#: has just accepted gets this long for its request to arrive (and then be answered).
ACCEPTED_GRACE_S = 0.5
LISTEN_BACKLOG = 2048

logger = logging.getLogger("patience.serve")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m deploy.serve", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=2, help="server processes (default 2)")
    parser.add_argument(
        "--proxy-headers",
        action="store_true",
        help="trust X-Forwarded-For and X-Forwarded-Proto from --forwarded-allow-ips",
    )
    parser.add_argument("--forwarded-allow-ips", default=None)
    parser.add_argument("--log-level", default="info")
    parser.add_argument("--no-access-log", action="store_true")
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    if not 0 < args.port < 65536:
        parser.error("--port must be between 1 and 65535")
    if not hasattr(socket, "SO_REUSEPORT"):
        parser.error("this system has no SO_REUSEPORT; use uvicorn --workers instead")
    return args


def bound_socket(host: str, port: int, *, reuse_port: bool = True) -> socket.socket:
    """A TCP socket bound to host:port (not listening yet), by default with SO_REUSEPORT."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(address)
    except BaseException:
        sock.close()
        raise
    return sock


def uvicorn_options(args: argparse.Namespace) -> dict[str, Any]:
    # The settings as the workers will read them from the environment (Django is not set up
    # in this parent process).
    from config import settings

    options: dict[str, Any] = {
        "host": args.host,
        "port": args.port,
        "proxy_headers": args.proxy_headers,
        "log_level": args.log_level,
        "access_log": not args.no_access_log,
        # A larger websocket message is refused by uvicorn (close 1009) before it is buffered
        # whole (its default is 16 MiB); the consumers check it too, under any server (4413).
        "ws_max_size": settings.WEBSOCKET_MAX_MESSAGE_BYTES,
    }
    if args.forwarded_allow_ips is not None:
        options["forwarded_allow_ips"] = args.forwarded_allow_ips
    return options


def listening_socket(host: str, port: int) -> socket.socket:
    """One slot's socket: bound with ``SO_REUSEPORT`` beside the others, and listening."""
    sock = bound_socket(host, port)
    try:
        sock.listen(LISTEN_BACKLOG)
    except BaseException:
        sock.close()
        raise
    return sock


def serve_worker(options: dict[str, Any], sock: socket.socket, ready: Event) -> None:
    """One worker process: one uvicorn server on its slot's socket, until stopped; ``ready``
    is set once it serves."""
    import uvicorn

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            if not self.should_exit:
                ready.set()

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            # uvicorn stops accepting and at once closes every connection without a request
            # in progress, including one accepted a moment ago whose request is on its way:
            # its client would see the connection close unanswered. Stop accepting first
            # (closing this process's copy of the socket; the parent's keeps it open), then
            # give such requests time to arrive.
            for server in self.servers:
                server.close()
            await asyncio.sleep(ACCEPTED_GRACE_S)
            await super().shutdown(sockets=sockets)

    Server(uvicorn.Config(APP, **options)).run(sockets=[sock])


@dataclass
class WorkerProcess:
    process: BaseProcess
    started: float
    ready: Event

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.terminate()  # SIGTERM: uvicorn finishes the requests in flight.


class Supervisor:
    def __init__(self, options: dict[str, Any], sockets: list[socket.socket]) -> None:
        self.options = options
        self.sockets = sockets
        self.context = multiprocessing.get_context("spawn")
        self.running: list[WorkerProcess] = []
        self.stopping = False
        self.restart_requested = False

    def start_worker(self, slot: int) -> WorkerProcess:
        ready = self.context.Event()
        process = self.context.Process(
            target=serve_worker, args=(self.options, self.sockets[slot], ready)
        )
        process.start()
        return WorkerProcess(process, time.monotonic(), ready)

    def run(self) -> int:
        signal.signal(signal.SIGINT, self.stop)
        signal.signal(signal.SIGTERM, self.stop)
        signal.signal(signal.SIGHUP, self.request_restart)
        self.running = [self.start_worker(slot) for slot in range(len(self.sockets))]
        status = 0
        while not self.stopping:
            if self.restart_requested:
                self.restart_requested = False
                self.restart_all()
            if not self.replace_dead():
                status = 1
                self.stop()
            time.sleep(0.2)
        for worker in self.running:
            worker.process.join()
        return status

    def replace_dead(self) -> bool:
        """Start a worker for each that died; False if one died while starting."""
        for slot, worker in enumerate(self.running):
            if worker.process.is_alive() or self.stopping:
                continue
            if time.monotonic() - worker.started < MIN_WORKER_LIFE_S:
                logger.error(
                    "worker %s exited with %s while starting; stopping the service",
                    worker.process.pid,
                    worker.process.exitcode,
                )
                return False
            logger.warning(
                "worker %s exited with %s; starting another",
                worker.process.pid,
                worker.process.exitcode,
            )
            self.running[slot] = self.start_worker(slot)
        return True

    def restart_all(self) -> None:
        """Replace each worker by a new one, which serves before the old one stops."""
        logger.info("restarting the workers one by one")
        for slot, old in enumerate(list(self.running)):
            if self.stopping:
                return
            new = self.start_worker(slot)
            if not self.wait_ready(new):
                logger.error("a new worker did not start; keeping the old ones")
                new.stop()
                new.process.join()
                return
            self.running[slot] = new
            old.stop()
            old.process.join()
        logger.info("every worker restarted")

    def wait_ready(self, worker: WorkerProcess) -> bool:
        deadline = time.monotonic() + READY_TIMEOUT_S
        while time.monotonic() < deadline and not self.stopping:
            if worker.ready.wait(0.1):
                return True
            if not worker.process.is_alive():
                return False
        return False

    def request_restart(self, signum: int, frame: Any) -> None:
        self.restart_requested = True

    def stop(self, signum: int | None = None, frame: Any = None) -> None:
        self.stopping = True
        for worker in self.running:
            worker.stop()


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s:     %(message)s")
    args = parse_args(argv)
    try:
        # One clear message, here, if the address is taken. Bound without SO_REUSEPORT, so
        # that another server sharing the port (an older instance of this one) counts too.
        bound_socket(args.host, args.port, reuse_port=False).close()
        sockets = [listening_socket(args.host, args.port) for _ in range(args.workers)]
    except OSError as error:
        logger.error("cannot listen on %s port %s: %s", args.host, args.port, error)
        return 1
    logger.info(
        "Patience on http://%s:%s/ with %s worker processes", args.host, args.port, args.workers
    )
    try:
        return Supervisor(uvicorn_options(args), sockets).run()
    finally:
        for sock in sockets:
            sock.close()


if __name__ == "__main__":
    sys.exit(main())
