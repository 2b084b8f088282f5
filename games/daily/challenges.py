"""Preparing the daily challenges ahead: each day's deal is proven winnable before anyone plays.

A day's deal for a game is the first of its candidate seeds (``days.daily_seed(date, game,
n)`` for n = 0, 1, 2, …) that the solver proves winnable within the budget (settings
``DAILY_SOLVER_SECONDS``, ``DAILY_SOLVER_POSITIONS``); where the game's solver profile names a
first rung, its first candidates are tried within that smaller budget of positions first
(``games.solver.ladder``). The challenge keeps the winning line
(the certificate), the candidate number, what the solver spent and the deal's difficulty.
After ``DAILY_SOLVER_CANDIDATES`` candidates without a proof, the day deals the first one not
proven lost, marked ``unknown`` (and logged as an error): a day always has its challenge.

Who prepares: the worker's ``days`` job (``games.daily.day_closer``, ``manage.py worker``: today
and the next ``DAILY_PREPARE_DAYS`` days, as it starts and after each midnight) and ``manage.py
prepare_dailies``. Never a player's request: one that finds no challenge is told to come back
(``services.daily_challenge``, 503 ``daily_not_ready``).

The search is pure-Python and CPU-bound: run in a thread of the server it would hold the GIL
against the requests for seconds at a time. So it runs in a separate process (a
``ProcessPoolExecutor`` of one worker, started on first use, spawned rather than forked from
the threaded server), and the calling thread only waits for the answer. Staff setting a seed in
the admin wait on a pool of their own, not behind a day's preparation.
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
import threading
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction

from games.core import days
from games.daily import certify
from games.models import DailyChallenge, Deal
from games.rules import DEAL_VERSION, VARIANTS
from games.solver import LOST, WON, SolverBug, ladder
from games.solver.children import solver_pool
from games.solver.tactics import PREPARATION_ORDER

logger = logging.getLogger("patience.daily")

_pools: dict[str, ProcessPoolExecutor] = {}
_pools_lock = threading.Lock()


@dataclass(frozen=True)
class Certificate:
    """The solver's answer on one deal, as a challenge stores it."""

    slug: str
    seed: int
    outcome: str  # won, lost or unknown (the solver's words)
    moves: list[dict[str, Any]] | None
    solver: dict[str, Any]
    difficulty: str

    @property
    def challenge_outcome(self) -> str:
        return {
            WON: DailyChallenge.Outcome.PROVEN,
            LOST: DailyChallenge.Outcome.LOST,
        }.get(self.outcome, DailyChallenge.Outcome.UNKNOWN)

    def fields(self) -> dict[str, Any]:
        """The challenge's fields that hold this answer."""
        return {
            "outcome": self.challenge_outcome,
            "solution": self.moves,
            "solver": self.solver,
            "difficulty": self.difficulty,
        }


def budget() -> tuple[int, float]:
    return int(settings.DAILY_SOLVER_POSITIONS), float(settings.DAILY_SOLVER_SECONDS)


def _pool(name: str) -> ProcessPoolExecutor:
    with _pools_lock:
        if name not in _pools:
            # Ends with this process, even one killed outright (a worker: -9, OOM); not niced.
            _pools[name] = solver_pool(nice=0)
        return _pools[name]


def _run(pool: str, slug: str, seed: int, positions: int, seconds: float) -> dict[str, Any]:
    if not settings.DAILY_SOLVER_SUBPROCESS:
        return certify.solve_seed(slug, seed, positions, seconds)
    try:
        return _pool(pool).submit(certify.solve_seed, slug, seed, positions, seconds).result()
    except BrokenProcessPool:
        with _pools_lock:  # the worker died (killed, out of memory): a new one next time
            _pools.pop(pool, None)
        raise


@functools.lru_cache(maxsize=512)
def _solved(
    slug: str, seed: int, deal_version: int, positions: int, seconds: float, pool: str
) -> Certificate:
    """Memoized per (game, seed, deal version, budget) in this process: a retry after an
    error, or a test run, pays for each deal once."""
    found = _run(pool, slug, seed, positions, seconds)
    return Certificate(slug=slug, seed=seed, **found)


def solve_seed(
    slug: str, seed: int, *, pool: str = "daily", positions: int | None = None
) -> Certificate:
    """The solver's answer on one deal within the configured budget, or within ``positions``
    (a rung of the day's ladder) when given (waits for it)."""
    full, seconds = budget()
    return _solved(slug, seed, DEAL_VERSION, positions or full, seconds, pool)


def choose(date: dt.date, slug: str) -> tuple[int, Certificate]:
    """The day's candidate for a game and its certificate: the first proven winnable, on the
    game's ladder of budgets (``games.solver.ladder``: its first candidates on a small budget
    first, where it has one, then every candidate on the full budget)."""

    def solve(seed: int, rung: int | None) -> Certificate | None:
        try:
            return solve_seed(slug, seed, positions=rung)  # None: the full budget
        except SolverBug:  # a win the engine does not confirm: not this deal, try the next
            logger.exception("solving %s %s candidate %d failed", date, slug, seeds.index(seed))
            return None
        # Anything else (the solver's process died, the server is shutting down) stops here,
        # storing nothing: the next pass tries again.

    seeds = [
        days.daily_seed(date, slug, n) for n in range(max(1, int(settings.DAILY_SOLVER_CANDIDATES)))
    ]
    climbed = ladder.climb(slug, seeds, solve, budget()[0])
    if climbed.won is not None:
        return climbed.won
    tried = climbed.tried
    logger.error(
        "no candidate of %s %s proven winnable in %d tries: it deals one not proven",
        date,
        slug,
        len(tried),
    )
    for candidate, answer in tried:
        if answer.outcome != LOST:
            return candidate, answer
    if tried:  # every candidate proven lost: the first one, marked so
        return tried[0]
    raise SolverBug(f"no candidate of {date} {slug} could be solved")


def prepared(date: dt.date, slug: str) -> DailyChallenge | None:
    return DailyChallenge.objects.select_related("deal").filter(date=date, variant=slug).first()


def prepare(date: dt.date, slug: str) -> tuple[DailyChallenge, bool]:
    """The day's challenge for a game, solved and stored if it is not yet: (challenge,
    whether it was made now). May take a while (the solver); every process makes one that
    is proven winnable, and the first stored stands."""
    if found := prepared(date, slug):
        return found, False
    candidate, answer = choose(date, slug)
    with transaction.atomic():
        deal, _ = Deal.objects.get_or_create(
            variant=slug, seed=answer.seed, deal_version=DEAL_VERSION
        )
        try:
            with transaction.atomic():
                challenge = DailyChallenge.objects.create(
                    date=date, variant=slug, deal=deal, candidate=candidate, **answer.fields()
                )
        except IntegrityError:  # another process stored the day's challenge first
            return DailyChallenge.objects.select_related("deal").get(date=date, variant=slug), False
    logger.info(
        "prepared the %s challenge of %s: candidate %d, %s%s",
        slug,
        date,
        candidate,
        challenge.outcome,
        f" ({challenge.difficulty})" if challenge.difficulty else "",
    )
    return challenge, True


#: The order games are prepared in: the ones the solver proves quickly first, so that a day
#: prepared late opens them while the slow ones are still being solved (each game's module
#: says where it stands: its solver profile's ``daily_order``).
GAMES_IN_ORDER = list(PREPARATION_ORDER)


def days_from(first: dt.date, days: int) -> list[dt.date]:
    return [first + dt.timedelta(days=n) for n in range(days)]


def prepare_days(
    dates: Iterable[dt.date],
    slugs: Iterable[str] = GAMES_IN_ORDER,
    *,
    stop: threading.Event | None = None,
) -> list[tuple[DailyChallenge, bool]]:
    """Every listed game's challenge of every listed day, a day at a time (the quickest
    games first); only those before ``stop`` was set, when it is given."""
    slugs = list(slugs)
    made = []
    for date in dates:
        for slug in slugs:
            if stop is not None and stop.is_set():
                return made
            made.append(prepare(date, slug))
    return made


def prepare_ahead(*, stop: threading.Event | None = None) -> list[tuple[DailyChallenge, bool]]:
    """Today's challenges and the next ``DAILY_PREPARE_DAYS`` days'. A day that has opened
    without its challenge (the service was down, or the solver slow) is prepared first, and
    said so: players are being told to come back in a minute meanwhile."""
    today = days.today()
    for slug in VARIANTS:
        if not DailyChallenge.objects.filter(date=today, variant=slug).exists():
            logger.warning("no challenge prepared for %s %s; preparing it now", today, slug)
    return prepare_days(days_from(today, 1 + int(settings.DAILY_PREPARE_DAYS)), stop=stop)
