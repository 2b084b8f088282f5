"""Real ``manage.py worker`` processes on the shared PostgreSQL: two at once do each job once;
one killed (-9) in the middle of preparing a day has its job taken over by the other, and the
day is prepared once; a worker stopped with SIGTERM or SIGINT leaves no solver process behind.

Every wait is for an event (a line in a log, a row, a process gone) within a generous bound;
no test asserts how long anything took."""

from __future__ import annotations

import datetime as dt
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from games.core import days
from games.models import DailyChallenge, Game, WinnableDeal
from games.rules import DEAL_VERSION
from tests.games.helpers import DailyClock, client_for, history, start_daily
from tests.support.servers import ROOT, database_url

pytestmark = [
    pytest.mark.django_db(transaction=True),
    # Under PATIENCE_REQUIRE_POSTGRES=1 (CI) a run without PostgreSQL fails (tests/conftest.py).
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="needs PostgreSQL (CI has it and fails without)"
    ),
]

#: Generous bounds on events waited for (a loaded machine is slow, never wrong).
BOUND_S = 90.0
POLL = "0.2"
#: A stopped worker and its solver processes are gone within this (it takes about a second).
STOPPED_WITHIN_S = 10.0
PREPARED = re.compile(r"prepared the ([a-z-]+) challenge of (\d{4}-\d{2}-\d{2})")


def wait_for(
    condition: Callable[[], object],
    what: str,
    bound: float = BOUND_S,
    explain: Callable[[], str] = lambda: "",
) -> None:
    deadline = time.monotonic() + bound
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {bound} s: {what}\n{explain()}")
        time.sleep(0.05)


class WorkerProcess:
    """A ``manage.py worker`` subprocess, its output in a log file."""

    def __init__(self, log: Path, env: dict[str, str], *args: str) -> None:
        self.log = log
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "manage.py", "worker", "--poll", POLL, *args],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.pid = self.process.pid

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def says(self, words: str) -> bool:
        return words in self.text()

    def prepared(self) -> list[tuple[str, str]]:
        return [(date, slug) for slug, date in PREPARED.findall(self.text())]

    def end(self) -> None:
        """Stop it however it is (the test's cleanup)."""
        if self.process.poll() is None:
            with _gone_already():
                os.killpg(self.pid, signal.SIGKILL)
            self.process.wait(30)


class _gone_already:
    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, error: object, trace: object) -> bool:
        return isinstance(error, ProcessLookupError)


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid:
            found.append(int(entry.name))
    return found


def descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        for child in children_of(todo.pop()):
            found.append(child)
            todo.append(child)
    return found


def alive(pid: int, started: str | None = None) -> bool:
    """Running (a zombie waiting to be reaped is not), and the same process if ``started``."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] != "Z" and (started is None or fields[19] == started)


def start_time(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except OSError:
        return None


def solver_children(pid: int) -> list[int]:
    found = []
    for child in descendants(pid):
        try:
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.append(child)
        except OSError:
            pass
    return found


@pytest.fixture
def worker_env() -> dict[str, str]:
    """A development configuration (DEBUG on) on the test database and Redis, telling what it
    does (LOG_LEVEL=INFO), with the test run's small solver budget."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "LOG_LEVEL": "INFO",
        "DAILY_SOLVER_POSITIONS": "3000",
        "DAILY_SOLVER_SECONDS": "600",
        "DAILY_SOLVER_CANDIDATES": "2",
        "DAILY_PREPARE_DAYS": "1",
        "WINNABLE_POOL_SIZE": "1",
        "WINNABLE_POOL_SECONDS": "600",
        "WINNABLE_POOL_POSITIONS": "3000",
    }
    env.pop("DEBUG", None)
    connection.close()  # the workers, not this process, hold the database while they run
    return env


@pytest.fixture
def workers(tmp_path: Path, worker_env: dict[str, str]) -> Iterator[Callable[..., WorkerProcess]]:
    started: list[WorkerProcess] = []

    def start(*args: str, **env: str) -> WorkerProcess:
        log = tmp_path / f"worker-{len(started)}.log"
        started.append(WorkerProcess(log, {**worker_env, **env}, *args))
        return started[-1]

    try:
        yield start
    finally:
        for worker in started:
            worker.end()


#: The order the days job prepares a day's games in (games.daily.challenges.GAMES_IN_ORDER).
SLUGS = [
    "grandfathers-clock",
    "selective-castle",
    "blondes-and-brunettes",
    "gold-mine",
    "grounds-for-divorce",
]


def test_two_workers_at_once_do_each_job_once(
    workers: Callable[..., WorkerProcess], monkeypatch: pytest.MonkeyPatch
) -> None:
    today = days.today()
    yesterday = today - dt.timedelta(days=1)
    clock = DailyClock(monkeypatch, yesterday)
    player = client_for()
    attempt = start_daily(player, yesterday, "gold-mine")  # left in play at midnight
    clock.day = today
    coming = {(str(today + dt.timedelta(days=n)), slug) for n in (0, 1) for slug in SLUGS}
    connection.close()

    pair = [workers(), workers()]  # both at once

    def done() -> bool:
        stored = DailyChallenge.objects.filter(date__gte=today).count()
        closed = Game.objects.get(pk=attempt["id"]).status == "closed"
        pooled = WinnableDeal.objects.filter(variant="grandfathers-clock").exists()
        connection.close()
        return stored == len(coming) and closed and pooled

    wait_for(done, "the coming days prepared, the attempt closed and a deal in the pool")
    for worker in pair:
        worker.process.send_signal(signal.SIGTERM)
    for worker in pair:
        assert worker.process.wait(BOUND_S) == 0, worker.text()

    for job in ("days", "winnable-pool"):
        holders = [worker for worker in pair if worker.says(f"doing job {job}")]
        assert len(holders) == 1, f"job {job} was done by {len(holders)} workers at once"
    # A day prepared once, an attempt closed once, a pool deal added once.
    prepared = [entry for worker in pair for entry in worker.prepared()]
    assert sorted(prepared) == sorted(coming)
    assert sum(w.text().count("closed 1 unfinished ranked attempts") for w in pair) == 1
    assert [entry["move"]["type"] for entry in history(player, attempt["id"])].count("close") == 1
    added = sum(worker.text().count("deal added to the pool") for worker in pair)
    assert added == WinnableDeal.objects.count()
    for slug in SLUGS:
        assert WinnableDeal.objects.filter(variant=slug).count() <= 1, slug  # WINNABLE_POOL_SIZE


def test_a_worker_killed_while_preparing_a_day_has_it_finished_by_another_once(
    workers: Callable[..., WorkerProcess], worker_env: dict[str, str]
) -> None:
    """The first worker prepares today's first game, then waits on a row this test holds
    (an uncommitted challenge for the second game): killed -9 there, its lock is freed, the
    other worker takes the job over and prepares the rest, and nothing twice."""
    today = days.today()
    held = psycopg.connect(worker_env["DATABASE_URL"].replace("postgres://", "postgresql://"))
    try:
        deal = held.execute(
            "INSERT INTO games_deal (variant, seed, deal_version, created_at)"
            " VALUES (%s, -1, %s, now()) RETURNING id",
            (SLUGS[1], DEAL_VERSION),
        ).fetchone()[0]
        held.execute(
            "INSERT INTO games_dailychallenge (date, variant, deal_id, seed_set_by_staff,"
            " outcome, solver, difficulty, created_at)"
            " VALUES (%s, %s, %s, false, 'unsolved', '{}', '', now())",
            (today, SLUGS[1], deal),
        )
        first = workers("--jobs", "days", DAILY_PREPARE_DAYS="0")

        def first_waits_on_the_held_row() -> bool:
            if not first.says(f"prepared the {SLUGS[0]} challenge of {today}"):
                return False
            # Only the first worker can be blocked by this connection (sessions that earlier
            # tests left on the database, whatever they wait for, are not counted). ``held``
            # stays in its transaction, where PostgreSQL would keep answering from the first
            # read's snapshot of pg_stat_activity: each read clears it first.
            held.execute("SELECT pg_stat_clear_snapshot()")
            waiting = held.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))"
                " AND query LIKE %s",
                (held.info.backend_pid, "%games_dailychallenge%"),
            ).fetchone()[0]
            return waiting == 1

        def sessions() -> str:
            held.execute("SELECT pg_stat_clear_snapshot()")
            rows = held.execute(
                "SELECT pid, state, wait_event_type, pg_blocking_pids(pid), left(query, 120)"
                " FROM pg_stat_activity WHERE datname = current_database()"
            ).fetchall()
            listed = "\n".join(map(str, rows))
            return f"the first worker's log:\n{first.text()}\nsessions:\n{listed}"

        wait_for(
            first_waits_on_the_held_row,
            "the first worker between two games of the day",
            explain=sessions,
        )
        solvers = [(pid, start_time(pid)) for pid in descendants(first.pid)]
        second = workers("--jobs", "days", DAILY_PREPARE_DAYS="0")
        wait_for(lambda: second.says("started"), "the second worker started")
        assert not second.says("doing job days")
        first.process.kill()
        first.process.wait(BOUND_S)
    finally:
        held.rollback()
        held.close()

    wait_for(lambda: second.says("doing job days"), "the second worker took the job over")

    def day_prepared() -> bool:
        count = DailyChallenge.objects.filter(date=today).count()
        connection.close()
        return count == len(SLUGS)

    wait_for(day_prepared, "the day prepared")
    wait_for(lambda: second.says("prepared 4 daily challenges"), "the second worker's pass")
    assert first.prepared() == [(str(today), SLUGS[0])]
    assert sorted(second.prepared()) == sorted((str(today), slug) for slug in SLUGS[1:])
    assert not DailyChallenge.objects.filter(deal__seed=-1).exists()
    # The killed worker's solver process ended with it.
    wait_for(
        lambda: not any(alive(pid, started) for pid, started in solvers),
        "the killed worker's solver processes gone",
    )


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_stopping_a_worker_stops_its_solver_processes(
    workers: Callable[..., WorkerProcess], stop: signal.Signals
) -> None:
    # A search that would last ten minutes: stopping must not wait for it.
    worker = workers(
        "--jobs",
        "winnable-pool",
        WINNABLE_POOL_SIZE="5",
        WINNABLE_POOL_SECONDS="600",
        WINNABLE_POOL_POSITIONS="1000000000",
    )
    wait_for(lambda: solver_children(worker.pid), "the worker's solver process")
    wait_for(lambda: worker.says("doing job winnable-pool"), "the worker doing its job")
    family = [(pid, start_time(pid)) for pid in descendants(worker.pid)]
    assert family
    worker.process.send_signal(stop)
    # Well within the worker's own grace for its jobs (STOP_GRACE_S, 20 s): a worker that
    # waited for the search to end, and only then ended the solver, would not make it.
    wait_for(
        lambda: (
            worker.process.poll() is not None
            and not any(alive(pid, started) for pid, started in family)
        ),
        "the worker and every process it started gone",
        bound=STOPPED_WITHIN_S,
    )
    assert worker.process.returncode == 0, worker.text()
    assert "stopped" in worker.text()
