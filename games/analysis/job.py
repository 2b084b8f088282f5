"""The worker's ``analyses`` job: each queued analysis in turn, its searches made in a solver
child process (``games.solver.children``: off the worker's interpreter lock, ended with the
worker), within the budgets of the ``ANALYSIS_*`` settings."""

from __future__ import annotations

import logging
import threading
from typing import Any

from django.conf import settings
from django.db import close_old_connections

from games.analysis import services
from games.analysis.models import Analysis
from games.analysis.search import Budgets, Searcher, expected_searches, locate, solve_position
from games.core.history import line_of_play, standing_entries
from games.models import Game, Move
from games.rules import ReplayError, get_variant
from games.solver import WON, Budget, SolverBug

logger = logging.getLogger("patience.worker")

#: Seconds the job rests when the queue is empty.
IDLE_S = 1.0


def budgets() -> Budgets:
    """The settings' budgets of one analysis."""
    position = Budget(
        positions=settings.ANALYSIS_POSITION_POSITIONS,
        seconds=float(settings.ANALYSIS_POSITION_SECONDS),
    )
    return Budgets(position, float(settings.ANALYSIS_SECONDS))


def analyse(analysis: Analysis, searcher: Searcher, limits: Budgets) -> dict[str, Any]:
    """What the searches along ``analysis``'s game prove, as stored in ``Analysis.result``.
    Positions are counted in the moves that stood (undone ones left out); each is also given
    as the replay's step (history entries) at which the board showed it."""
    game: Game = analysis.game
    variant = get_variant(game.deal.variant)
    entries = list(
        Move.objects.filter(game=game).order_by("number").values_list("payload", flat=True)
    )
    line = line_of_play(variant, game.deal, entries)
    standing = standing_entries(entries)

    def at(position: int | None) -> dict[str, int] | None:
        if position is None:
            return None
        return {"position": position, "step": standing[position - 1] + 1 if position else 0}

    moves = len(line) - 1
    expected = 1 if game.status == Game.Status.WON else expected_searches(moves)
    services.record_progress(analysis.pk, 0, expected)

    def progress(searched: int) -> None:
        services.record_progress(analysis.pk, searched, expected)

    spent = {"positions": limits.position.positions, "seconds": limits.position.seconds}
    if game.status == Game.Status.WON:
        # The player's line beside the solver's from the deal (one found, not a shortest).
        outcome, won_line = searcher(variant.slug, line[0], limits.position)
        progress(1)
        return {
            "kind": "won",
            "moves": moves,
            "line_from": at(0) if outcome == WON else None,
            "line": won_line,
            "searches": [{"position": 0, "outcome": outcome}],
            "budget": spent,
        }
    finding = locate(variant, line, searcher, limits, progress)
    return {
        "kind": finding.kind,
        "moves": moves,
        "winnable": at(finding.winnable),
        "lost": at(finding.lost),
        "line_from": at(finding.winnable),
        "line": finding.line,
        "searches": finding.searches,
        "budget": spent,
    }


def run_one(searcher: Searcher, limits: Budgets | None = None) -> Analysis | None:
    """Claim the next queued analysis and make it; the analysis (None: none was queued)."""
    analysis = services.claim_next()
    if analysis is None:
        return None
    try:
        services.finish(analysis.pk, analyse(analysis, searcher, limits or budgets()))
    except (ReplayError, SolverBug) as error:
        logger.exception("analysis %s failed", analysis.pk)
        services.fail(analysis.pk, str(error))
    return Analysis.objects.get(pk=analysis.pk)


def run(stop: threading.Event) -> None:
    from games.solver.children import solver_pool

    services.requeue_interrupted()
    with solver_pool() as pool:

        def searcher(slug: str, state: Any, budget: Budget) -> Any:
            return pool.submit(solve_position, slug, state, budget).result()

        while not stop.is_set():
            close_old_connections()
            try:
                if run_one(searcher) is None:
                    stop.wait(IDLE_S)
            except Exception:
                logger.exception("analyses failed; trying again in %s s", IDLE_S)
                stop.wait(IDLE_S)
