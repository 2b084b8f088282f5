"""The worker role's locks and runners, in this process (games.background): a job is done by one
instance at a time, another takes it when the holder lets go or loses its lock, and a job
cut short stops between its steps. The real processes (two at once, one killed, a clean stop):
test_worker_processes.py."""

from __future__ import annotations

import datetime as dt
import threading
from typing import Any

import pytest
from django.db import connection

from games.background import locks
from games.background.worker import Job, Runner
from games.daily import challenges
from games.models import DailyChallenge
from tests.games.helpers import DailyClock

pytestmark = pytest.mark.django_db(transaction=True)

#: Generous: each of these is an event waited for, never a time the test asserts.
BOUND_S = 30.0
POLL_S = 0.05


class CountingTries:
    """``locks.try_lock``, counting the tries that found the lock taken."""

    def __init__(self) -> None:
        self.refused = 0
        self.refused_thrice = threading.Event()

    def __call__(self, name: str) -> locks.HeldLock | None:
        held = locks.try_lock(name)
        if held is None:
            self.refused += 1
            if self.refused >= 3:
                self.refused_thrice.set()
        return held


class RecordingJob:
    """A job that says when it starts and waits until told to end."""

    def __init__(self, name: str) -> None:
        self.started = threading.Event()
        self.ended = threading.Event()
        self.job = Job(name, self.run)

    def run(self, stop: threading.Event) -> None:
        self.started.set()
        stop.wait()
        self.ended.set()


class Instance:
    """One worker instance of one job, on a thread of its own."""

    def __init__(self, name: str) -> None:
        self.tries = CountingTries()
        self.work = RecordingJob(name)
        self.stopping = threading.Event()
        self.runner = Runner(
            self.work.job, poll=POLL_S, stopping=self.stopping, try_lock=self.tries
        )
        self.thread = threading.Thread(target=self.runner.run, daemon=True)

    def start(self) -> Instance:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self.runner.stop()
        self.thread.join(BOUND_S)
        assert not self.thread.is_alive()


def test_a_jobs_lock_has_one_holder_at_a_time() -> None:
    first = locks.try_lock("test-job")
    assert first is not None
    try:
        assert locks.try_lock("test-job") is None
        other = locks.try_lock("another-job")  # one lock per job kind
        assert other is not None
        other.release()
    finally:
        first.release()
    again = locks.try_lock("test-job")
    assert again is not None
    again.release()


def test_two_instances_do_a_job_one_at_a_time_and_the_second_takes_over() -> None:
    first = Instance("test-takeover").start()
    assert first.work.started.wait(BOUND_S)
    second = Instance("test-takeover").start()
    try:
        # The second keeps trying, and is refused while the first holds the job.
        assert second.tries.refused_thrice.wait(BOUND_S)
        assert not second.work.started.is_set()
        first.stop()
        assert first.work.ended.is_set()
        assert second.work.started.wait(BOUND_S), "the second instance did not take over"
    finally:
        first.stop()
        second.stop()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's sessions")
def test_an_instance_whose_lock_session_ends_stops_its_job_and_another_takes_it() -> None:
    """The holder's database session dies (a network cut, a restart): PostgreSQL has freed
    its lock, so the holder stops the job at its next check; another instance takes it."""
    holder = Instance("test-lost").start()
    assert holder.work.started.wait(BOUND_S)
    other = Instance("test-lost").start()
    try:
        assert other.tries.refused_thrice.wait(BOUND_S)
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_locks"
                " WHERE locktype = 'advisory' AND classid = %s AND objid = %s AND granted",
                [locks.ADVISORY_CLASS, locks.job_key("test-lost")],
            )
            assert cursor.fetchall() == [(True,)]
        assert holder.work.ended.wait(BOUND_S), "the holder went on without its lock"
        assert other.work.started.wait(BOUND_S), "no instance took the job over"
    finally:
        holder.stop()
        other.stop()


def test_a_preparation_told_to_stop_ends_between_two_challenges(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    DailyClock(monkeypatch, dt.date(2031, 5, 10))
    stop = threading.Event()
    prepare = challenges.prepare

    def prepare_then_stop(date: dt.date, slug: str) -> Any:
        made = prepare(date, slug)
        stop.set()  # the worker is told to stop during the first challenge
        return made

    monkeypatch.setattr(challenges, "prepare", prepare_then_stop)
    made = challenges.prepare_ahead(stop=stop)
    assert [(c.date, c.variant, created) for c, created in made] == [
        (dt.date(2031, 5, 10), challenges.GAMES_IN_ORDER[0], True)
    ]
    assert DailyChallenge.objects.count() == 1
