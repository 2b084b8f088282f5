"""The solver's child processes: a search runs in one, at a lower priority, and ends with its
parent however the parent ends.

The search is CPU-bound pure Python: in a child process it holds its own interpreter's lock,
not the parent's (a web process's or a worker's, with their other threads). A worker stopped
with SIGTERM or SIGINT ends its solver processes itself (``games.background.worker``). One
killed outright (SIGKILL, the out-of-memory killer) cannot: its child would go on searching,
holding its memory, until the search ended and it found the pipe to its parent closed. Each
child therefore watches its parent and exits as soon as it is gone (within ``WATCH_S``).
Django-free: this runs in the spawned child.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor

#: How often a child looks whether its parent is still there.
WATCH_S = 0.5


#: How far a solver child lowers its CPU priority (``os.nice``): below the server's requests.
NICE = 10


def solver_pool(nice: int = NICE, max_workers: int = 1) -> ProcessPoolExecutor:
    """``max_workers`` child processes for the solver, which end with this process and run
    ``nice`` steps below it (0: at its priority). Spawned, not forked: a fork would copy the
    parent's threads' locks and database connections mid-use; the child imports only the
    Django-free modules its job needs."""
    return ProcessPoolExecutor(
        max_workers=max_workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=solver_child,
        initargs=(os.getpid(), nice),
    )


def solver_child(parent_pid: int, nice: int = NICE) -> None:
    """A solver pool's initializer: yield the CPU to others (``nice``) and end with the parent."""
    if nice:
        lower_priority(nice)
    exit_with_parent(parent_pid)


def lower_priority(nice: int = NICE) -> None:
    """In the child: yield the CPU to the server's requests (``nice`` steps; Linux stops at 19,
    the lowest priority)."""
    with contextlib.suppress(OSError):
        os.nice(nice)


def exit_with_parent(parent_pid: int) -> None:
    """In a child: exit at once (no cleanup to do) when ``parent_pid`` is no longer its parent."""

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(WATCH_S)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()
