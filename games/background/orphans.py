"""Solver child processes that end with their parent, however it ends.

A worker stopped with SIGTERM or SIGINT ends its solver processes itself
(``games.background.worker``). One killed outright (SIGKILL, the out-of-memory killer) cannot:
its child would go on searching, holding its memory, until the search ended and it found the
pipe to its parent closed. Each solver child therefore watches its parent and exits as soon as
it is gone (within ``WATCH_S``). Django-free: this runs in the spawned child.
"""

from __future__ import annotations

import os
import threading
import time

from games.solver.winnability import lower_priority

#: How often a child looks whether its parent is still there.
WATCH_S = 0.5


def exit_with_parent(parent_pid: int) -> None:
    """In a child: exit at once (no cleanup to do) when ``parent_pid`` is no longer its parent."""

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(WATCH_S)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def solver_child(parent_pid: int, nice: bool = True) -> None:
    """A solver pool's initializer: yield the CPU to others (``nice``) and end with the parent."""
    if nice:
        lower_priority()
    exit_with_parent(parent_pid)
