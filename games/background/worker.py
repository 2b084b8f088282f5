"""The worker role (``manage.py worker``): the service's background jobs, each done by one
instance at a time however many run, taken over when that instance dies.

Jobs (``JOBS``):

- ``days`` (``games.daily.day_closer.run``): close the ranked attempts of days that have
  ended, then prepare today's challenges and the next ``DAILY_PREPARE_DAYS`` days'; as it
  starts, just after each midnight UTC, and every ``RECHECK_S`` between.
- ``winnable-pool`` (``games.play.winnable_pool.fill_forever``): keep each game's pool of
  proven-winnable deals at ``WINNABLE_POOL_SIZE``.
- ``guests`` (``accounts.guests.run``): remove the guests untouched for ``GUEST_TTL_DAYS``,
  with their games; as it starts and every hour.
- ``tidy-games`` (``games.background.tidy.run``): delete games where no move was ever made,
  left so for ``UNTOUCHED_GAME_MINUTES``, and end casual games left at a dead end for
  ``DEAD_END_MINUTES``, lost; every minute.
- ``analyses`` (``games.analysis.job.run``): make the analyses players asked for ("Where the
  game was lost"), one at a time, each search in a solver child process.
- ``races`` (``games.races.job.run``): settle the races whose countdown or time limit is over,
  every second, so that a room nobody moves in or reads ends on time.

Each job has a runner thread. The runner tries the job's lock (``games.background.locks``:
a PostgreSQL advisory lock, or a file lock on SQLite) every ``poll`` seconds; the instance
that gets it does the job for as long as it holds it, checking every ``poll`` seconds that its
lock session still answers (if not, it stops the job: another instance may have it by then).
When the holder dies its lock is freed by PostgreSQL (or the kernel), and another instance
takes the job within ``poll`` seconds (25 s more when a whole host vanishes).

Once at a time is the lock's part; exactly once is the jobs' own, so that a job cut short and
done again by another instance, or done twice in a partition, finishes once: a day's challenge
is stored under a unique (date, game) and the second store reads the first's
(``challenges.prepare``); an attempt is closed under its row lock, only while it is still in
play (``daily.services.close_attempt``); a pool deal is stored under a unique (game, seed) and
dealt by the request that takes it (``winnable_pool.take``); an analysis is claimed under its
row lock and stored only while it is still running (``analysis.services``).

Stopping (SIGTERM or SIGINT) sets every job's stop event and ends the solver's child processes
at once (a search under way is dropped: nothing of it was stored), then waits for the runners.
The solver children also watch this process and exit if it is killed outright
(``games.solver.children``).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.background import locks

logger = logging.getLogger("patience.worker")

#: Default seconds between two tries of a job's lock, and between two checks of a held one.
POLL_S = 5.0
#: How long a stopping worker waits for its jobs to end before it exits anyway.
STOP_GRACE_S = 20.0


@dataclass(frozen=True)
class Job:
    name: str
    #: Does the job until the event is set (which it must check between its steps).
    run: Callable[[threading.Event], None]


def _days(stop: threading.Event) -> None:
    from games.daily import day_closer

    day_closer.run(stop)


def _winnable_pool(stop: threading.Event) -> None:
    from games.play import winnable_pool

    winnable_pool.fill_forever(stop)


def _tidy_games(stop: threading.Event) -> None:
    from games.background import tidy

    tidy.run(stop)


def _analyses(stop: threading.Event) -> None:
    from games.analysis import job

    job.run(stop)


def _races(stop: threading.Event) -> None:
    from games.races import job

    job.run(stop)


def _guests(stop: threading.Event) -> None:
    from accounts import guests

    guests.run(stop)


JOBS: dict[str, Job] = {
    "days": Job("days", _days),
    "winnable-pool": Job("winnable-pool", _winnable_pool),
    "guests": Job("guests", _guests),
    "tidy-games": Job("tidy-games", _tidy_games),
    "analyses": Job("analyses", _analyses),
    "races": Job("races", _races),
}


class Runner:
    """One job in one instance: wait for its lock, do the job while holding it."""

    def __init__(
        self,
        job: Job,
        *,
        poll: float,
        stopping: threading.Event,
        try_lock: Callable[[str], locks.HeldLock | None] = locks.try_lock,
    ) -> None:
        self.job = job
        self.poll = poll
        self.stopping = stopping
        self.try_lock = try_lock
        self.ending: threading.Event | None = None

    def run(self) -> None:
        while not self.stopping.is_set():
            lock = self._try()
            if lock is None:
                self.stopping.wait(self.poll)
                continue
            if self.stopping.is_set():
                # Stopping while the lock was tried (freed by an instance stopping too): it is
                # not this instance's to start, whatever may take it next.
                lock.release()
                break
            self.hold(lock)
            # Lost, or the job ended by itself: a pause before trying again.
            self.stopping.wait(self.poll)

    def _try(self) -> locks.HeldLock | None:
        try:
            return self.try_lock(self.job.name)
        except Exception as error:  # the database is away: try again at the next poll
            logger.warning("cannot try the lock of job %s: %s", self.job.name, error)
            return None

    def hold(self, lock: locks.HeldLock) -> None:
        ending = threading.Event()
        self.ending = ending
        if self.stopping.is_set():  # stop() ran before self.ending was set
            ending.set()
        logger.info("worker %s: doing job %s", os.getpid(), self.job.name)
        watcher = threading.Thread(
            target=self._watch, args=(lock, ending), name=f"lock-{self.job.name}", daemon=True
        )
        watcher.start()
        try:
            self.job.run(ending)
        except Exception:
            logger.exception("job %s failed", self.job.name)
        finally:
            ending.set()
            watcher.join()
            lock.release()
            logger.info("worker %s: no longer doing job %s", os.getpid(), self.job.name)

    def _watch(self, lock: locks.HeldLock, ending: threading.Event) -> None:
        while not ending.wait(self.poll):
            if not lock.still_held():
                logger.error(
                    "the lock of job %s was lost (its database session ended): stopping the job",
                    self.job.name,
                )
                ending.set()

    def stop(self) -> None:
        if self.ending is not None:
            self.ending.set()


def end_solver_processes(grace: float = 5.0) -> None:
    """End this process's child processes (the solver pools'): SIGTERM, then SIGKILL."""
    children = multiprocessing.active_children()
    for child in children:
        child.terminate()
    deadline = time.monotonic() + grace
    for child in children:
        child.join(max(0.0, deadline - time.monotonic()))
        if child.is_alive():
            child.kill()
            child.join(1.0)


class Worker:
    """A worker instance: a runner thread per job."""

    def __init__(
        self,
        jobs: list[Job],
        *,
        poll: float = POLL_S,
        try_lock: Callable[[str], locks.HeldLock | None] = locks.try_lock,
    ) -> None:
        self.stopping = threading.Event()
        self.runners = [
            Runner(job, poll=poll, stopping=self.stopping, try_lock=try_lock) for job in jobs
        ]
        self.threads: list[threading.Thread] = []
        self._signalled: int | None = None

    def start(self) -> None:
        for runner in self.runners:
            thread = threading.Thread(target=runner.run, name=f"job-{runner.job.name}", daemon=True)
            thread.start()
            self.threads.append(thread)

    def stop(self) -> None:
        """Ask every job to end, and end the solver's processes now (their searches dropped)."""
        self.stopping.set()
        for runner in self.runners:
            runner.stop()
        end_solver_processes()

    def join(self, timeout: float) -> bool:
        """Wait for the runners; True if every one has ended."""
        deadline = time.monotonic() + timeout
        for thread in self.threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        return not any(thread.is_alive() for thread in self.threads)

    def _on_signal(self, signum: int, frame: Any) -> None:
        # Only a flag: the main loop stops the jobs (taking locks in a signal handler could
        # deadlock with the code it interrupted).
        self._signalled = signum

    def run_until_signalled(self) -> None:
        """The command's main thread: start, then on SIGTERM or SIGINT stop and wait."""
        signal.signal(signal.SIGTERM, self._on_signal)
        signal.signal(signal.SIGINT, self._on_signal)
        self.start()
        while self._signalled is None and any(thread.is_alive() for thread in self.threads):
            time.sleep(0.1)
        logger.info("worker %s: stopping", os.getpid())
        self.stop()
        if not self.join(STOP_GRACE_S):
            logger.warning("worker %s: a job did not end within %s s", os.getpid(), STOP_GRACE_S)
        end_solver_processes()  # any a job started while it was stopping
        logger.info("worker %s: stopped", os.getpid())
