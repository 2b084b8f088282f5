"""Threads in tests that cannot hide a failure.

A plain ``threading.Thread`` whose target raises only prints the traceback (pytest turns it into
a warning) and the test goes on: a 500 or a crash in 7 of 8 threads could pass unseen. Here every
thread's return value and exception are collected, and the caller is failed if any thread raised
or is still running when the time is up.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import connection

T = TypeVar("T")


class ThreadFailed(AssertionError):
    """One or more threads raised, or did not finish in time."""


def run_in_threads(
    target: Callable[[int], T], count: int, *, timeout: float = 120.0, close_db: bool = True
) -> list[T]:
    """Run ``target(index)`` in ``count`` threads started together; return their results in
    index order. Fails the test if any thread raised or had not finished after ``timeout``.
    Each thread closes its own database connection at the end (Django opens one per thread)."""
    results: dict[int, T] = {}
    errors: dict[int, BaseException] = {}
    start = threading.Barrier(count)

    def run(index: int) -> None:
        try:
            start.wait(timeout)
            results[index] = target(index)
        except BaseException as exc:
            errors[index] = exc
        finally:
            if close_db:
                connection.close()

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    alive = [i for i, thread in enumerate(threads) if thread.is_alive()]
    if errors or alive:
        lines = [f"thread {i}: {type(exc).__name__}: {exc}" for i, exc in sorted(errors.items())]
        lines += [f"thread {i}: still running after {timeout} s" for i in alive]
        failure = ThreadFailed(
            f"{len(errors) + len(alive)} of {count} threads failed:\n" + "\n".join(lines)
        )
        raise failure from next(iter(errors.values()), None)
    missing = [i for i in range(count) if i not in results]
    assert not missing, f"threads {missing} returned nothing"
    return [results[i] for i in range(count)]


def answered(response: Any) -> tuple[int, Any]:
    """A response's status and JSON body; fails on a server error, so a 500 in a thread fails."""
    status = response.status_code
    assert status < 500, f"server error {status}: {response.content[:300]!r}"
    body = response.json() if response.content else None
    return status, body
