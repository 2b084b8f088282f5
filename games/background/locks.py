"""One holder per job kind across every worker instance: a lock per job, held as long as the
instance does the job, released by the system when the instance dies.

PostgreSQL: a session-level advisory lock (``pg_try_advisory_lock``) on a connection of its
own, opened for the lock alone (not one of Django's pooled connections, which are shared
between threads and given back between queries). PostgreSQL releases it when that session
ends: at once when the holder's process dies (its socket is closed by the kernel); when the
holder's host vanishes without closing anything, after the TCP keepalives set on the session
(``KEEPALIVE_*``: 10 + 3 x 5 = 25 s, or ``tcp_user_timeout`` with data unacknowledged).

SQLite (one machine): an exclusive ``flock`` on a file beside the database, released by the
kernel when the holder's process dies.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import logging
import os
import tempfile
import zlib
from pathlib import Path
from typing import Any, Protocol

from django.db import connection

logger = logging.getLogger("patience.worker")

#: The first half of every advisory lock key of this service (the second is the job's).
ADVISORY_CLASS = zlib.crc32(b"patience.worker") & 0x7FFFFFFF
#: The lock session's TCP keepalives (seconds, probes): a vanished holder is dropped by
#: PostgreSQL after idle + count x interval = 25 s.
KEEPALIVE_IDLE_S = 10
KEEPALIVE_INTERVAL_S = 5
KEEPALIVE_COUNT = 3
DEAD_HOST_S = KEEPALIVE_IDLE_S + KEEPALIVE_COUNT * KEEPALIVE_INTERVAL_S
#: The most a check of the lock session may take before the holder counts it as lost.
CHECK_TIMEOUT_S = 5


def job_key(name: str) -> int:
    """The second half of a job's advisory lock key, from its name (stable across versions)."""
    return zlib.crc32(name.encode()) & 0x7FFFFFFF


class HeldLock(Protocol):
    def still_held(self) -> bool: ...

    def release(self) -> None: ...


class AdvisoryLock:
    """A held PostgreSQL advisory lock and the session that holds it."""

    def __init__(self, session: Any, key: int) -> None:
        self.session = session
        self.key = key

    def still_held(self) -> bool:
        """True while the session answers: the lock lives as long as the session does."""
        try:
            self.session.execute("SELECT 1").fetchone()
        except Exception:
            return False
        return True

    def release(self) -> None:
        with contextlib.suppress(Exception):
            self.session.execute(
                "SELECT pg_advisory_unlock(%s, %s)", (ADVISORY_CLASS, self.key)
            ).fetchone()
        with contextlib.suppress(Exception):
            self.session.close()


def _postgres_session() -> Any:
    """A connection of its own to the database Django uses, in autocommit, with keepalives."""
    import psycopg

    params = connection.settings_dict
    return psycopg.connect(
        dbname=params["NAME"],
        user=params.get("USER") or None,
        password=params.get("PASSWORD") or None,
        host=params.get("HOST") or None,
        port=params.get("PORT") or None,
        autocommit=True,
        connect_timeout=10,
        application_name=f"patience-worker-{os.getpid()}",
        # Our end: notice a vanished server, or that this host's network is gone (a check of
        # the lock left unacknowledged fails after DEAD_HOST_S, and the holder stops the job).
        keepalives=1,
        tcp_user_timeout=1000 * DEAD_HOST_S,
        keepalives_idle=KEEPALIVE_IDLE_S,
        keepalives_interval=KEEPALIVE_INTERVAL_S,
        keepalives_count=KEEPALIVE_COUNT,
        # The server's end: end the session (and free the lock) when this host vanishes.
        options=(
            f"-c tcp_keepalives_idle={KEEPALIVE_IDLE_S}"
            f" -c tcp_keepalives_interval={KEEPALIVE_INTERVAL_S}"
            f" -c tcp_keepalives_count={KEEPALIVE_COUNT}"
            f" -c tcp_user_timeout={1000 * DEAD_HOST_S}"
            f" -c statement_timeout={1000 * CHECK_TIMEOUT_S}"
        ),
    )


def try_advisory_lock(name: str) -> AdvisoryLock | None:
    key = job_key(name)
    session = _postgres_session()
    try:
        got = session.execute(
            "SELECT pg_try_advisory_lock(%s, %s)", (ADVISORY_CLASS, key)
        ).fetchone()[0]
    except BaseException:
        session.close()
        raise
    if not got:
        session.close()
        return None
    return AdvisoryLock(session, key)


class FileLock:
    """A held ``flock`` (SQLite): the kernel holds it for this process, nothing to check."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def still_held(self) -> bool:
        return True

    def release(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.fd)  # closing the file releases the lock


def lock_path(name: str) -> Path:
    """The lock file of a job: beside the SQLite file (``db.sqlite3-worker-days.lock``, which
    git ignores); in the temporary directory for a database with no file (in-memory, in tests)."""
    database = str(connection.settings_dict["NAME"])
    if database and ":memory:" not in database and "mode=memory" not in database:
        return Path(f"{database}-worker-{name}.lock")
    digest = hashlib.sha256(database.encode()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / f"patience-{digest}.worker-{name}.lock"


def try_file_lock(name: str) -> FileLock | None:
    fd = os.open(lock_path(name), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    except BaseException:
        os.close(fd)
        raise
    return FileLock(fd)


def try_lock(name: str) -> HeldLock | None:
    """The job's lock if no other instance holds it, else None (never waits)."""
    if connection.vendor == "postgresql":
        return try_advisory_lock(name)
    return try_file_lock(name)
