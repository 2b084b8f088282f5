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


def solver_pool(
    nice: int = NICE, max_workers: int = 1, own_group: bool = False
) -> ProcessPoolExecutor:
    """``max_workers`` child processes for the solver, which end with this process and run
    ``nice`` steps below it (0: at its priority), in a scheduling group of their own if
    ``own_group`` (``own_cpu_group``). Spawned, not forked: a fork would copy the parent's
    threads' locks and database connections mid-use; the child imports only the Django-free
    modules its job needs."""
    return ProcessPoolExecutor(
        max_workers=max_workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=solver_child,
        initargs=(os.getpid(), nice, own_group),
    )


def solver_child(parent_pid: int, nice: int = NICE, own_group: bool = False) -> None:
    """A solver pool's initializer: yield the CPU to others (``nice``, ``own_group``) and end
    with the parent."""
    if own_group:
        own_cpu_group(nice)
    if nice:
        lower_priority(nice)
    exit_with_parent(parent_pid)


def lower_priority(nice: int = NICE) -> None:
    """In the child: yield the CPU to the server's requests (``nice`` steps; Linux stops at 19,
    the lowest priority)."""
    with contextlib.suppress(OSError):
        os.nice(nice)


def own_cpu_group(nice: int) -> None:
    """In the child: a CPU scheduling group of its own, ``nice`` steps below the others.

    Linux with autogroups (``/proc/sys/kernel/sched_autogroup_enabled``, on in most kernels)
    shares the CPU between sessions first, and by nice only within each. A child at nice 19 in
    its parent's session keeps that session busy: the session is charged for the child's CPU,
    and a request of the parent, waking, waits behind the other sessions' work as if the
    parent itself were busy (``players_bench --hints``: the moves' p99 130-140 ms against
    40-70 ms with the child in a session of its own, bench/README.md). So the child leads a
    session of its own and lowers that session's group; where there are no autogroups (the
    file missing, or under a cgroup's CPU controller) this does nothing more than the nice.
    The child stays the parent's (it still ends with it, ``exit_with_parent``), but leaves its
    process group: a signal to that group no longer reaches it."""
    with contextlib.suppress(OSError):
        os.setsid()
        with open("/proc/self/autogroup", "w") as group:
            group.write(str(nice))


def exit_with_parent(parent_pid: int) -> None:
    """In a child: exit at once (no cleanup to do) when ``parent_pid`` is no longer its parent."""

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(WATCH_S)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()
