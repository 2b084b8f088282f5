"""An analysis of a finished game (``games.analysis``): made once, kept with the game."""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class Analysis(models.Model):
    """Where a game was lost, as the worker's job (``games.analysis.job``) found it.

    ``result`` shows every card (the solver's line, the positions searched): it is only made
    once the game, its day or its race is over (``games.analysis.eligibility``), for its own
    player."""

    class State(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="analysis")
    state = models.CharField(max_length=8, choices=State.choices, default=State.QUEUED)
    #: Searches made so far, and about how many the line needs (``search.expected_searches``).
    searched = models.PositiveSmallIntegerField(default=0)
    expected = models.PositiveSmallIntegerField(default=0)
    #: What the searches proved (``selectors`` shapes it for the player), once done.
    result = models.JSONField(null=True, blank=True)
    requested_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        app_label = "games"
        indexes = [
            models.Index(
                fields=["requested_at"],
                condition=models.Q(state="queued"),
                name="analysis_queue",
            )
        ]

    def __str__(self) -> str:
        return f"Analysis of game {self.game_id} ({self.state})"
