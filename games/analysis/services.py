"""The analyses' writes, each one transaction: a player's request (queued once per game), and
the job's claim, progress and result. No live update: the page polls while one runs (an
analysis's progress says nothing of the game's board, which is what the game's websocket
carries)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from games.analysis import eligibility
from games.analysis.models import Analysis
from games.errors import GameError
from games.models import Game

#: An analysis not done or failed yet: it holds a place in its player's queue.
UNDER_WAY = (Analysis.State.QUEUED, Analysis.State.RUNNING)


def request_analysis(user: AbstractBaseUser, game_id: int) -> tuple[Analysis, bool]:
    """Queue the analysis of the player's finished game, once: (the analysis, whether this
    request made it). Refused (nothing changed) for a game not theirs (``not_found``), one in
    play (``game_in_play``), one whose day or race is not over (``not_yet``), or when the
    player already has ``ANALYSES_QUEUED_PER_PLAYER`` waiting (``analyses_queued``)."""
    with transaction.atomic():
        # The player's row, locked (through the user model: a session's user is a lazy
        # object): two requests at once cannot both pass the queue's cap.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        game = Game.objects.select_related("deal", "daily").filter(pk=game_id, owner=user).first()
        if game is None:
            raise GameError("not_found", "There is no such game.")
        eligibility.check(game)
        existing = Analysis.objects.filter(game=game).first()
        if existing is not None:
            return existing, False
        cap = settings.ANALYSES_QUEUED_PER_PLAYER
        if cap and Analysis.objects.filter(game__owner=user, state__in=UNDER_WAY).count() >= cap:
            raise GameError(
                "analyses_queued",
                f"You have {cap} analyses waiting already: ask again once one is done.",
            )
        return Analysis.objects.create(game=game), True


def requeue_interrupted() -> int:
    """Put back in the queue the analyses left running by a job that stopped (the job runs
    once at a time: when it starts, none is really running); how many."""
    with transaction.atomic():
        return Analysis.objects.filter(state=Analysis.State.RUNNING).update(
            state=Analysis.State.QUEUED, searched=0, started_at=None
        )


def claim_next() -> Analysis | None:
    """The oldest queued analysis, now running (None: the queue is empty)."""
    with transaction.atomic():
        analysis = (
            Analysis.objects.select_for_update(skip_locked=True)
            .filter(state=Analysis.State.QUEUED)
            .order_by("requested_at", "pk")
            .first()
        )
        if analysis is None:
            return None
        analysis.state = Analysis.State.RUNNING
        analysis.started_at = timezone.now()
        analysis.searched = 0
        analysis.save(update_fields=["state", "started_at", "searched"])
    return Analysis.objects.select_related("game__deal", "game__daily").get(pk=analysis.pk)


def record_progress(analysis_id: int, searched: int, expected: int) -> None:
    """How many of the about ``expected`` searches are made, for the page's progress line."""
    with transaction.atomic():
        Analysis.objects.filter(pk=analysis_id, state=Analysis.State.RUNNING).update(
            searched=searched, expected=max(expected, searched)
        )


def finish(analysis_id: int, result: dict[str, Any]) -> None:
    """The analysis is done: ``result`` kept with the game for good."""
    with transaction.atomic():
        Analysis.objects.filter(pk=analysis_id, state=Analysis.State.RUNNING).update(
            state=Analysis.State.DONE, result=result, finished_at=timezone.now()
        )


def fail(analysis_id: int, reason: str) -> None:
    """The analysis could not be made (a history that no longer replays, a solver bug)."""
    with transaction.atomic():
        Analysis.objects.filter(pk=analysis_id, state=Analysis.State.RUNNING).update(
            state=Analysis.State.FAILED, result={"error": reason}, finished_at=timezone.now()
        )
