"""Look-ahead hints searched in child processes of the server process, at the lowest CPU
priority, so that a hint never takes a core from another player's move.

A hint's search keeps a core busy for up to ``HINT_SECONDS``. In the web process's own thread
(the core releases the GIL) it still competed for the machine's cores with the requests as
their equal: five hints a second raised the moves' p99 from about 30 ms to 60-140 ms
(bench/README.md, "Moves while hints are asked"). Here each server process has
``HINT_PROCESSES`` spawned children (``games.solver.children``) at nice 19, each in a CPU
scheduling group of its own at the lowest weight (``own_cpu_group``): the kernel gives a core
to a request first, and a hint the leftover.

The pool is bounded: at most ``IN_FLIGHT_PER_PROCESS`` searches per child are taken (running or
waiting their turn). A hint asked past that, or while the pool's process is dead (killed, out
of memory; a new pool is started for the next hint), or whose answer is not back a little
after its cap, gets ``None`` here and the rule-of-thumb hint from the service: at once, never
a queue that grows with the load nor an error.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from django.conf import settings

from games.solver import lookahead
from games.solver.children import solver_pool
from games.solver.lookahead import JSON, LookaheadHint, hint_in_child

logger = logging.getLogger("patience.hints")

#: The hint processes' priority: the lowest, so that a move never waits for a hint.
NICE = 19
#: Searches taken per hint process, the running one and those waiting their turn: a second
#: keeps the child busy between two requests; more would only wait past their deadline.
IN_FLIGHT_PER_PROCESS = 2
#: How long past its cap a request waits for its hint: sending the view and the answer, the
#: search's last check of its clock, a child just started (spawned: its imports take ~0.2 s).
GRACE_S = 0.5


class HintProcesses:
    """``processes`` hint processes and their bounded share of searches in flight."""

    def __init__(self, processes: int) -> None:
        self.executor: ProcessPoolExecutor = solver_pool(
            nice=NICE, max_workers=processes, own_group=True
        )
        self.slots = threading.BoundedSemaphore(IN_FLIGHT_PER_PROCESS * processes)

    def submit(self, *args: Any) -> Future | None:
        """``hint_in_child(*args)`` in a hint process, or None if every slot is taken. The
        slot is given back when the search ends (or fails), not when its request stops
        waiting: a search its request gave up on still holds the child until its deadline."""
        if not self.slots.acquire(blocking=False):
            return None
        try:
            future = self.executor.submit(hint_in_child, *args)
        except BaseException:
            self.slots.release()
            raise
        future.add_done_callback(lambda _: self.slots.release())
        return future

    def shutdown(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


_lock = threading.Lock()
_processes: HintProcesses | None = None


def processes() -> HintProcesses:
    """This server process's hint processes, started on first use."""
    global _processes
    with _lock:
        if _processes is None:
            _processes = HintProcesses(max(1, int(settings.HINT_PROCESSES)))
        return _processes


def stop(broken: HintProcesses | None = None) -> None:
    """Stop the hint processes (``broken``: only if they are still the current ones); the next
    hint starts new ones."""
    global _processes
    with _lock:
        if _processes is None or (broken is not None and _processes is not broken):
            return
        gone, _processes = _processes, None
    gone.shutdown()


def search(
    slug: str, view: JSON, seen: frozenset[str], seconds: float
) -> tuple[LookaheadHint, int] | None:
    """The look-ahead hint for a player's ``view`` and the id of the process that searched it,
    searched in a hint process within ``seconds`` and the positions ``seconds`` get in the
    request's thread (``lookahead.POSITIONS_PER_SECOND``); None when the pool could not give
    it in time."""
    deadline = time.monotonic() + seconds
    positions = max(1, round(seconds * lookahead.POSITIONS_PER_SECOND))
    pool = processes()
    try:
        future = pool.submit(slug, view, seen, positions, deadline)
        if future is None:
            logger.info("every hint process is busy: a rule-of-thumb hint given")
            return None
        hint, pid = future.result(timeout=max(0.0, deadline - time.monotonic()) + GRACE_S)
    except FutureTimeout:
        logger.warning("a hint's search was not back within its cap: a rule-of-thumb hint given")
        return None
    except BrokenProcessPool:
        logger.warning("a hint process died: a rule-of-thumb hint given, new ones started")
        stop(pool)
        return None
    except RuntimeError:  # stopped by another request (its search found the process dead)
        return None
    if hint is None:  # it waited its turn past its deadline
        return None
    return hint, pid
