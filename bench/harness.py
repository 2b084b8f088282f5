"""What the benchmarks that need a real server share: the bench database, its players, the
server's process group, and the resources it uses (from /proc).

This module never imports Django: the benchmarks only speak HTTP (and websockets) to a server
started in its own process group, and run ``manage.py`` in subprocesses for the database, so
they cannot pick up a different database than the server's.

- ``prepare_database(env, players)`` creates the database named by ``env["DATABASE_URL"]`` if
  missing, migrates and flushes it, and returns one API token per player (users ``bench-000``,
  ``bench-001``, ..., written in bulk).
- ``running_server(workers, env)`` starts ``python -m deploy.serve --workers N`` (as the
  README's production recipe: each worker on a listening socket of its own) on a free port of
  127.0.0.1, waits for ``GET /api/health/``, and stops its whole process group at the end,
  whatever happens (SIGTERM, then SIGKILL after a grace period). ``shared_socket=True`` starts
  ``uvicorn --workers N`` instead, whose workers share one socket (the benchmarks' launcher
  before the fifth session, kept for comparison).
- ``raise_open_files_limit``, ``event_loop_factory``: for clients holding many connections.
- ``process_ticks``, ``machine_busy_ticks``, ``Snapshot``, ``resources_between``: CPU used by
  the server's process group (and its descendants: the hint processes), this process and the
  machine over a window; ``group_rss``: the server's memory; ``pg_counters``: the bench
  database's sessions and transactions.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import resource
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
DB_NAME = "patience_bench"
PG_ADMIN_URL = f"postgresql://postgres@{HOST}:5432/postgres"
DEFAULT_REDIS_URL = f"redis://{HOST}:6379/0"
SERVER_START_TIMEOUT_S = 60.0
SERVER_STOP_TIMEOUT_S = 10.0
CLK_TCK = os.sysconf("SC_CLK_TCK")


def database_url(name: str = DB_NAME) -> str:
    return f"postgres://postgres@{HOST}:5432/{name}"


DATABASE_URL = database_url()


def database_name(env: dict[str, str]) -> str:
    return urlsplit(env["DATABASE_URL"]).path.lstrip("/")


def server_env(redis_url: str | None, db_name: str = DB_NAME) -> dict[str, str]:
    """The environment of every project process: the bench database, production-like settings
    (DEBUG off, a random SECRET_KEY and DAILY_SECRET), and Redis as the channel layer unless
    ``redis_url`` is None. ``DJANGO_SETTINGS_MODULE``, when set in this environment, is passed
    on."""
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    env.update(
        DATABASE_URL=database_url(db_name),
        DEBUG="0",
        HTTPS="0",  # the clients speak plain HTTP to 127.0.0.1
        SECRET_KEY=secrets.token_urlsafe(50),
        DAILY_SECRET=secrets.token_urlsafe(50),
        ALLOWED_HOSTS=HOST,
        PYTHONUNBUFFERED="1",
    )
    if redis_url:
        env["REDIS_URL"] = redis_url
    else:
        env.pop("REDIS_URL", None)
    return env


def without_background_solver(env: dict[str, str]) -> dict[str, str]:
    """``env`` with the server's background solver jobs off: the day closer's preparation of
    the daily challenges (``CLOSE_DAYS_IN_SERVER``) and the filling of the winnable-deal pools
    (``WINNABLE_POOL_IN_SERVER``). On a flushed database both start as the server does and run
    the solver for minutes, in child processes of the server's group (four seen, 0.6 cores on
    a busy machine, all its idle CPU on a quiet one): counted as the server's CPU, and
    competing with it. For benchmarks that play casual games only."""
    return dict(env, CLOSE_DAYS_IN_SERVER="0", WINNABLE_POOL_IN_SERVER="0")


# -- database and players --------------------------------------------------------------------


def ensure_database(name: str = DB_NAME) -> None:
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def manage(env: dict[str, str], *args: str, timeout: float = 300.0) -> str:
    """Run ``manage.py`` with ``env``; its stdout, or exit with its output on failure."""
    command = [sys.executable, "manage.py", *args]
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    if done.returncode != 0:
        sys.exit(f"manage.py {args[0]} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return done.stdout


CREATE_PLAYERS = """
import json
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
User = get_user_model()
users = [User(username=f"bench-{{i:03d}}") for i in range({count})]
for user in users:
    user.set_unusable_password()
users = User.objects.bulk_create(users, batch_size=1000)
tokens = Token.objects.bulk_create(
    [Token(key=Token.generate_key(), user=user) for user in users], batch_size=1000
)
print("TOKENS " + json.dumps([token.key for token in tokens]))
"""


def player_name(index: int) -> str:
    """The username of the player whose token is ``create_players(...)[index]``."""
    return f"bench-{index:03d}"


def create_players(env: dict[str, str], count: int) -> list[str]:
    """``count`` users (unusable passwords: nothing to hash) and their API tokens, written in
    bulk (a thousand players take a second, not the sign-up's throttle and password hashing)."""
    out = manage(env, "shell", "-c", CREATE_PLAYERS.format(count=count))
    line = next(line for line in out.splitlines() if line.startswith("TOKENS "))
    return json.loads(line.removeprefix("TOKENS "))


def prepare_database(env: dict[str, str], players: int) -> list[str]:
    ensure_database(database_name(env))
    manage(env, "migrate", "--no-input")
    manage(env, "flush", "--no-input")
    return create_players(env, players)


# -- the server ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def wait_until_healthy(base_url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    with httpx.Client(base_url=base_url, trust_env=False, timeout=2.0) as client:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"the server exited ({process.returncode}):\n{tail(log)}")
            with contextlib.suppress(httpx.HTTPError):
                if client.get("/api/health/").status_code == 200:
                    return
            time.sleep(0.2)
    raise RuntimeError(f"the server did not answer within {SERVER_START_TIMEOUT_S:.0f} s")


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def stop_process_group(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM the server's whole group, SIGKILL whatever is left after a grace period."""
    pgid = process.pid  # start_new_session=True: the server leads its own group
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGTERM)
    deadline = time.monotonic() + SERVER_STOP_TIMEOUT_S
    while time.monotonic() < deadline and (process.poll() is None or group_alive(pgid)):
        time.sleep(0.1)
    if process.poll() is None or group_alive(pgid):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pgid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)


@dataclass
class Server:
    base_url: str
    pgid: int
    log: Path

    @property
    def port(self) -> int:
        return int(self.base_url.rsplit(":", 1)[1])


def launcher(shared_socket: bool) -> list[str]:
    """The module (and arguments) that starts the server's worker processes."""
    return ["uvicorn", "config.asgi:application"] if shared_socket else ["deploy.serve"]


def launcher_description(workers: int, shared_socket: bool) -> str:
    if shared_socket:
        return f"uvicorn config.asgi:application --workers {workers} (one shared socket)"
    return f"python -m deploy.serve --workers {workers} (uvicorn, a socket per worker)"


@contextlib.contextmanager
def running_server(
    workers: int,
    env: dict[str, str],
    *,
    log_prefix: str = "bench_server_",
    extra_args: Sequence[str] = (),
    shared_socket: bool = False,
    root: Path = ROOT,
) -> Iterator[Server]:
    """``python -m deploy.serve --workers N`` (or, with ``shared_socket``, ``uvicorn --workers
    N``) with ``env``, in its own process group, its output in a temporary log file
    (``Server.log``, left for the caller to read). ``root``: the checkout whose code it serves
    (another commit's worktree, to compare; this venv's packages either way)."""
    port = free_port()
    command = [sys.executable, "-m", *launcher(shared_socket), "--host", HOST]
    command += ["--port", str(port), "--workers", str(workers)]
    command += ["--no-access-log", "--log-level", "warning", *extra_args]
    log = Path(tempfile.mkstemp(prefix=log_prefix, suffix=".log")[1])
    with log.open("wb") as log_file:
        process = subprocess.Popen(
            command,
            cwd=root,
            env=env,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # its own process group, stopped as a whole
        )
    try:
        server = Server(f"http://{HOST}:{port}", process.pid, log)
        wait_until_healthy(server.base_url, process, log)
        yield server
    finally:
        stop_process_group(process)


def raise_open_files_limit() -> tuple[int, int]:
    """Soft RLIMIT_NOFILE up to the hard limit (for this process and the server it starts):
    the (soft, hard) limits found."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return soft, hard


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's loop for the benchmarks' clients when installed (cheaper per message)."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


# -- resources: CPU and memory from /proc (no psutil), PostgreSQL's statistics ---------------


def process_ticks() -> dict[int, tuple[int, int, int]]:
    """pid -> (process group, user + system clock ticks, parent), for every process we may
    read."""
    ticks = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks[int(entry.name)] = (int(fields[2]), int(fields[11]) + int(fields[12]), int(fields[1]))
    return ticks


def in_group(processes: dict[int, tuple[int, int, int]], pgid: int) -> set[int]:
    """The processes of a process group and their descendants. The server's hint processes
    leave its group for a session of their own (``games.solver.children.own_cpu_group``), but
    their CPU and memory are the server's."""
    found = {pid for pid, (group, _, _) in processes.items() if group == pgid}
    while more := {pid for pid, (_, _, parent) in processes.items() if parent in found} - found:
        found |= more
    return found


def group_pids(pgid: int) -> list[int]:
    """The processes of a process group and their descendants (the server: its supervisor,
    its workers and their hint processes)."""
    return sorted(in_group(process_ticks(), pgid))


def process_rss(pid: int) -> int:
    """Resident memory of one process in bytes (``VmRSS`` of /proc/<pid>/status), 0 if gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def group_rss(pgid: int) -> dict[int, int]:
    """pid -> resident bytes, for every process of the group."""
    return {pid: process_rss(pid) for pid in group_pids(pgid)}


def open_sockets(pid: int) -> int:
    """How many sockets a process holds (client connections, its listener, database and Redis
    connections), from /proc/<pid>/fd; 0 if unreadable."""
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return 0
    count = 0
    for fd in fds:
        with contextlib.suppress(OSError):
            count += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
    return count


def machine_busy_ticks() -> tuple[int, int]:
    """(busy, total) clock ticks of all CPUs since boot, from /proc/stat."""
    with open("/proc/stat") as stat:
        values = [int(v) for v in stat.readline().split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return sum(values) - idle, sum(values)


PG_COUNTERS = (
    "SELECT sessions, xact_commit + xact_rollback FROM pg_stat_database WHERE datname = %s"
)


def stats_connection() -> psycopg.Connection[Any] | None:
    try:
        return psycopg.connect(PG_ADMIN_URL, autocommit=True)
    except psycopg.Error:
        return None


def pg_counters(
    conn: psycopg.Connection[Any] | None, db_name: str = DB_NAME
) -> tuple[int, int] | None:
    """(sessions opened, transactions) of the bench database so far, or None if unreadable.

    PostgreSQL publishes these about once a second, so a window's figures are approximate.
    """
    if conn is None:
        return None
    try:
        row = conn.execute(PG_COUNTERS, [db_name]).fetchone()
    except psycopg.Error:
        return None
    return (int(row[0]), int(row[1])) if row else None


@dataclass
class Snapshot:
    pg: tuple[int, int] | None = None
    at: float = field(default_factory=time.perf_counter)
    processes: dict[int, tuple[int, int, int]] = field(default_factory=process_ticks)
    machine: tuple[int, int] = field(default_factory=machine_busy_ticks)
    client: float = field(default_factory=time.process_time)


@dataclass(frozen=True)
class Resources:
    """Over a window: cores used on average (2.0 = two cores busy), PostgreSQL activity."""

    server: float
    client: float
    machine: float
    pg_sessions: int | None
    pg_transactions: int | None
    seconds: float = 0.0  # the window's length


def resources_between(start: Snapshot, end: Snapshot, server_pgid: int) -> Resources:
    wall = end.at - start.at
    server_ticks = sum(
        end.processes[pid][1] - start.processes.get(pid, (0, 0, 0))[1]
        for pid in in_group(end.processes, server_pgid)
    )
    busy = end.machine[0] - start.machine[0]
    total = end.machine[1] - start.machine[1]
    pg = (end.pg[0] - start.pg[0], end.pg[1] - start.pg[1]) if start.pg and end.pg else None
    return Resources(
        server=server_ticks / CLK_TCK / wall,
        client=(end.client - start.client) / wall,
        machine=(busy / total if total else 0.0) * (os.cpu_count() or 1),
        pg_sessions=pg[0] if pg else None,
        pg_transactions=pg[1] if pg else None,
        seconds=wall,
    )


# -- figures ---------------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (NaN without any value)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]
