"""A database connection lost under a request: run again once, or 503, never a 500.

PostgreSQL restarting, a failover, or its connections terminated (``pg_terminate_backend``)
leaves the connections of the process's pool dead; the next statement on each fails. A
request that meets a dead connection is run again once, from the start, on a fresh one, when
nothing of it can have been committed; otherwise (or if the second run fails too) it is
answered 503 ``service_unavailable`` with ``Retry-After``, and the client sends it again: with
its ``Idempotency-Key`` (``games.play.idempotency``) the repeat gets the first answer if the first
run did commit, and acts if it did not.

Nothing of a request can have been committed when the statement that failed ran inside a
transaction (PostgreSQL rolls back the transaction of a connection it loses) and, before it,
the request only read outside transactions and committed no transaction. A statement is
watched by an execute wrapper (``watch_statements``, installed on each connection); a
transaction's commit by an ``on_commit`` mark. A COMMIT that fails is not a statement: its
outcome is unknown, so that request is answered 503.

The pool hands out connections without testing them (psycopg's ``check`` callback would cost a
round trip on every request): once one is found dead, the pool's idle connections are tested
(``ConnectionPool.check``) before the request runs again, so that the second run does not take
another dead one.

Websockets (``WebsocketGuard``): a consumer's database calls are reads; a lost connection
closes the socket with 4503, as a Redis outage does (``web.live.layer_watch``), and the page
reconnects and catches up.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import threading
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError, connections
from django.db.backends.signals import connection_created
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse

try:
    import psycopg
except ImportError:  # SQLite only
    psycopg = None

logger = logging.getLogger("patience.database")

#: What a 503 asks the client to wait, in seconds: a lost connection is replaced at once, a
#: restarting database is back within seconds.
RETRY_AFTER_SECONDS = 1
#: The websocket close code that makes a page reconnect and catch up (``web.live.layer_watch``).
SERVICE_INTERRUPTED = 4503
MESSAGE = "The service is unavailable for a moment. Try again shortly: nothing was lost."


class Attempt:
    """What one run of a request did on the database, as far as a lost connection matters."""

    def __init__(self) -> None:
        #: A write outside a transaction was sent, or a transaction committed.
        self.may_have_committed = False
        #: The error of the statement that met a lost connection, if one did.
        self.failed: BaseException | None = None
        #: Whether a lost connection was met at all (a failed COMMIT, a failed connect too).
        self.lost = False
        self.committed = self._committed  # one object: found again in run_on_commit

    def _committed(self) -> None:
        self.may_have_committed = True

    def retry_is_safe(self, error: BaseException | None) -> bool:
        return error is not None and error is self.failed and not self.may_have_committed


_attempt: ContextVar[Attempt | None] = ContextVar("db_outage_attempt", default=None)

_READS = ("SELECT", "SHOW", "SET ")


def _reads_only(sql: str) -> bool:
    return sql.lstrip()[:6].upper().startswith(_READS)


def watch_statements(execute: Callable, sql: str, params: Any, many: bool, context: Any) -> Any:
    """The execute wrapper on every connection: notes what may have been committed, and the
    statement that met a lost connection (``Attempt``). Outside a request it does nothing."""
    attempt = _attempt.get()
    if attempt is None:
        return execute(sql, params, many, context)
    db = context["connection"]
    if db.in_atomic_block:
        if not any(func is attempt.committed for _, func, _ in db.run_on_commit):
            db.on_commit(attempt.committed)
    elif not _reads_only(sql):
        attempt.may_have_committed = True  # autocommit: committed as it runs
    try:
        return execute(sql, params, many, context)
    except (OperationalError, InterfaceError) as error:
        if is_lost_connection(error):
            attempt.failed, attempt.lost = error, True
        raise


@receiver(connection_created)
def _watch_new_connection(sender: Any, connection: Any, **kwargs: Any) -> None:
    if watch_statements not in connection.execute_wrappers:
        connection.execute_wrappers.insert(0, watch_statements)


#: PostgreSQL's codes for a connection it ends or refuses: class 08 (connection exception),
#: and 57P01-57P03 (terminated by an administrator, a crash, a database starting up).
_CONNECTION_CODES = ("08", "57P01", "57P02", "57P03")


def is_lost_connection(error: BaseException | None) -> bool:
    """Whether ``error`` is the database connection failing (lost, refused, or none to be had
    from the pool), as opposed to a statement's own error on a working connection (a lock
    timeout, a serialization failure: those keep their SQLSTATE and stay errors).

    Judged from the error, not the connection: by the time a handler sees the error, Django
    has closed the broken connection and may have taken a fresh one from the pool."""
    if not isinstance(error, (OperationalError, InterfaceError)):
        return False
    cause = error.__cause__
    if psycopg is None or not isinstance(cause, psycopg.Error):
        return False  # SQLite's errors ("database is locked") are not a lost connection
    sqlstate = cause.sqlstate
    return sqlstate is None or sqlstate.startswith(_CONNECTION_CODES)


def note_lost(error: BaseException | None) -> bool:
    """For the error handlers: whether ``error`` is a lost connection (noted for the retry)."""
    if not is_lost_connection(error):
        return False
    attempt = _attempt.get()
    if attempt is not None:
        attempt.lost = True
    return True


_check_lock = threading.Lock()


def drop_dead_connections() -> None:
    """Close this thread's connection (the pool discards a broken one) and test the pool's
    idle connections, discarding the dead ones (the pool opens new ones in their place)."""
    db = connections[DEFAULT_DB_ALIAS]
    try:
        db.close()
    except Exception:  # already gone
        db.connection = None
    pool = getattr(db, "pool", None) if db.vendor == "postgresql" else None
    if pool is not None:
        with _check_lock:
            try:
                pool.check()
            except Exception as error:
                logger.warning("testing the database pool's connections failed: %s", error)


# -- answers ----------------------------------------------------------------------------------


def unavailable_body() -> dict[str, Any]:
    from web.http.errors import error_body

    return error_body("service_unavailable", MESSAGE)


def unavailable(request: HttpRequest, error: BaseException | None) -> HttpResponse:
    """The 503 for a request whose connection was lost, outside DRF's views (handler500);
    ``RetryOnLostConnection`` logs it."""
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(unavailable_body(), status=503)
    else:
        response = HttpResponse(MESSAGE, status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response._has_been_logged = True  # one line by RetryOnLostConnection, not a traceback
    return response


def current_error() -> BaseException | None:
    return sys.exc_info()[1]


class RetryOnLostConnection:
    """First of the middleware: a run of the request that met a lost connection is run once
    more when that is safe (``Attempt.retry_is_safe``); its 503 stands otherwise."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        attempt = Attempt()
        token = _attempt.set(attempt)
        try:
            response = self.get_response(request)
            if not attempt.lost:
                return response
            drop_dead_connections()
            if not (attempt.retry_is_safe(attempt.failed) and _body_readable_again(request)):
                return _as_unavailable(request, response, attempt.failed)
            logger.warning(
                "%s %s: database connection lost before anything was committed (%s); "
                "running the request again",
                request.method,
                request.path,
                attempt.failed,
            )
            retry = Attempt()
            _attempt.set(retry)
            response = self.get_response(request)
            if retry.lost:
                drop_dead_connections()
                return _as_unavailable(request, response, retry.failed)
            return response
        finally:
            _attempt.reset(token)


def _body_readable_again(request: HttpRequest) -> bool:
    return hasattr(request, "_body") or not getattr(request, "_read_started", False)


def _as_unavailable(
    request: HttpRequest, response: HttpResponse, error: BaseException | None
) -> HttpResponse:
    """The handlers answered 503 already; a 500 the lost connection led to (a page's error in
    DEBUG) becomes one too."""
    logger.warning(
        "%s %s: database connection lost (%s); answered 503",
        request.method,
        request.path,
        error or "at COMMIT or while connecting: the outcome is unknown",
    )
    if response.status_code == 503 or response.status_code < 500:
        return response
    return unavailable(request, error)


# -- websockets -------------------------------------------------------------------------------


class WebsocketGuard:
    """Around the websocket application: a database error (a consumer's reads, the sign-in
    lookups) closes the socket with 4503, one line in the log, not a traceback; the page
    reconnects with its backoff and catches up with ``?since=``."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        try:
            return await self.app(scope, receive, send)
        except (OperationalError, InterfaceError) as error:
            from asgiref.sync import sync_to_async

            logger.warning("websocket %s closed: database error (%s)", scope.get("path"), error)
            await sync_to_async(drop_dead_connections, thread_sensitive=False)()
            with contextlib.suppress(Exception):  # the connection may be gone already
                await send({"type": "websocket.close", "code": SERVICE_INTERRUPTED})
