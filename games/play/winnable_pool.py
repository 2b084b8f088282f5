"""The pool of deals the solver has proven winnable, from which "winnable" casual games are
dealt (``services.create_game(winnable=True)``), and its filling.

A request never runs the solver: it takes a deal out of the pool (``take``), or is refused
with 503 ``no_winnable_deal`` when the pool of that game is empty. The pool is topped up in
the background, up to ``WINNABLE_POOL_SIZE`` deals per game, by the worker's
``winnable-pool`` job (``fill_forever``; ``manage.py worker``, one instance at a time) and by
``manage.py fill_winnable_pool`` run by hand; never in a web process.

A deal is stored once (unique per game and seed, ``store``) and dealt once (``take``): two
fillers at once (one cut off from the database while another took over) can only add a few
deals past the target, never deal one twice.

The seeds are random (``secrets``), so a pool deal is as secret as any random deal: its seed,
and its certificate (a winning line), are shown to nobody before its game is over.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from django.conf import settings
from django.db import IntegrityError, close_old_connections, connections, transaction
from django.db.models import Count
from django.utils import timezone

from games.models import Game, WinnableDeal
from games.rules import DEAL_VERSION, VARIANTS
from games.solver.children import solver_pool
from games.solver.winnability import find_winnable_deal

logger = logging.getLogger("patience.winnable_pool")

#: How long the filler rests once every pool is full before it looks again.
REST_S = 30.0


# -- dealing ----------------------------------------------------------------------------------


def in_pool(variant_slug: str | None = None) -> Any:
    """The deals waiting to be dealt (of one game, or of all), under today's dealing."""
    pool = WinnableDeal.objects.filter(dealt_at__isnull=True, deal_version=DEAL_VERSION)
    return pool.filter(variant=variant_slug) if variant_slug else pool


def take(variant_slug: str) -> WinnableDeal | None:
    """A deal out of the pool for a game about to start (call inside the transaction that
    starts it, then ``mark_dealt``); None when the pool of that game is empty.

    The row is locked (PostgreSQL: ``FOR UPDATE SKIP LOCKED``, so two requests each get a
    different deal without waiting on each other); ``mark_dealt`` also takes it only if it is
    still undealt, which keeps SQLite (no row locks) from dealing one twice."""
    for _ in range(5):
        found = in_pool(variant_slug).select_for_update(skip_locked=True).order_by("pk").first()
        if found is None:
            return None
        claimed = WinnableDeal.objects.filter(pk=found.pk, dealt_at__isnull=True).update(
            dealt_at=timezone.now()
        )
        if claimed:
            return found
    return None


def mark_dealt(deal: WinnableDeal, game: Game) -> None:
    WinnableDeal.objects.filter(pk=deal.pk).update(game=game)


def sizes() -> dict[str, int]:
    """Deals waiting in each game's pool."""
    rows = in_pool().values("variant").annotate(n=Count("pk")).values_list("variant", "n")
    counts = dict(rows)
    return {slug: counts.get(slug, 0) for slug in VARIANTS}


# -- filling ----------------------------------------------------------------------------------


def store(variant_slug: str, found: dict[str, Any]) -> WinnableDeal | None:
    """A deal the solver proved winnable, into the pool (None if it is there already)."""
    try:
        with transaction.atomic():
            return WinnableDeal.objects.create(
                variant=variant_slug,
                seed=found["seed"],
                deal_version=DEAL_VERSION,
                moves=found["moves"],
                positions=found["positions"],
                seconds=found["seconds"],
            )
    except IntegrityError:
        return None


def solver_process() -> ProcessPoolExecutor:
    """One child process for the solver.

    The search is CPU-bound pure Python: run in a thread of the worker it would hold the
    process's interpreter lock (the GIL) for whole seconds, against its other job and its lock
    checks. In a child process it holds its own interpreter's, at a lower priority, and ends
    with this process however it ends (``games.solver.children``). (The child imports only
    Django-free modules: the job lives in ``games.solver.winnability``.)"""
    return solver_pool()


class InThisProcess(Executor):
    """Runs each search at once, in this process: for a command run by hand, and tests."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def fill(
    slugs: Iterable[str],
    target: int,
    *,
    seconds: float,
    positions: int,
    executor: Executor,
    tries: int | None = None,
    stop: threading.Event | None = None,
    report: Callable[[str, WinnableDeal | None], None] | None = None,
) -> dict[str, int]:
    """Top up the pools of ``slugs`` to ``target`` deals each: one random deal searched per
    game in turn (so the quick games fill first), in ``executor``. At most ``tries`` searches
    per game (no limit: until each pool is full or ``stop`` is set). Returns the deals added."""
    slugs = list(slugs)
    added = dict.fromkeys(slugs, 0)
    tried = dict.fromkeys(slugs, 0)
    while stop is None or not stop.is_set():
        waiting = sizes()
        wanted = [
            slug
            for slug in slugs
            if waiting[slug] < target and (tries is None or tried[slug] < tries)
        ]
        if not wanted:
            break
        for slug in wanted:
            if stop is not None and stop.is_set():
                break
            tried[slug] += 1
            found = executor.submit(find_winnable_deal, slug, seconds, positions).result()
            deal = store(slug, found) if found is not None else None
            if deal is not None:
                added[slug] += 1
            if report is not None:
                report(slug, deal)
    return added


def fill_forever(stop: threading.Event) -> None:
    """The worker's ``winnable-pool`` job: keep every pool at ``WINNABLE_POOL_SIZE`` until
    ``stop`` is set. Errors are logged and tried again after a rest, never raised; a solver
    process that died (killed, out of memory) is replaced."""

    def report(slug: str, deal: WinnableDeal | None) -> None:
        if deal is not None:  # not its seed: a pool deal's seed is secret until played
            logger.info("a winnable %s deal added to the pool (#%s)", slug, deal.pk)

    executor = solver_process()
    try:
        while not stop.is_set():
            try:
                close_old_connections()
                fill(
                    VARIANTS,
                    settings.WINNABLE_POOL_SIZE,
                    seconds=settings.WINNABLE_POOL_SECONDS,
                    positions=settings.WINNABLE_POOL_POSITIONS,
                    executor=executor,
                    stop=stop,
                    report=report,
                )
            except BrokenProcessPool:
                if stop.is_set():  # the worker stopping ended the solver's process
                    logger.info("filling the winnable-deal pools stopped")
                    break
                logger.exception("the solver's process died; starting another")
                executor.shutdown(wait=False)
                executor = solver_process()
            except Exception:
                logger.exception("filling the winnable-deal pools failed")
            finally:
                connections.close_all()
            stop.wait(REST_S)
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
