"""What the service stores: deals, games with a snapshot of their state, and full histories."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.rules import DEAL_VERSION, VARIANTS

VARIANT_CHOICES = [(slug, variant.name) for slug, variant in VARIANTS.items()]


class Deal(models.Model):
    """One deal of one game: the engine deals it again, identically, from these three values."""

    variant = models.CharField(max_length=32, choices=VARIANT_CHOICES)
    seed = models.BigIntegerField()
    deal_version = models.PositiveSmallIntegerField(default=DEAL_VERSION)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["variant", "seed", "deal_version"], name="deal_unique_variant_seed"
            )
        ]

    def __str__(self) -> str:
        return f"{self.variant} #{self.seed} (v{self.deal_version})"


class DailyChallenge(models.Model):
    """One game's challenge of one UTC day: the same deal for everybody.

    The seed comes from an HMAC of the date and game under a server secret, so nobody can
    compute it ahead; staff may set a day's seed before the day starts.
    """

    date = models.DateField()
    variant = models.CharField(max_length=32, choices=VARIANT_CHOICES)
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="daily_challenges")
    seed_set_by_staff = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["date", "variant"], name="daily_unique_date_variant")
        ]
        ordering = ["-date", "variant"]

    def __str__(self) -> str:
        return f"{self.date} {self.variant}"


class Game(models.Model):
    """A player's game of a deal.

    ``state`` is the full engine state (hidden cards included: never sent to players as is);
    it always equals the replay of the history (``manage.py verify_games`` checks).
    ``move_number`` counts history entries (moves, undos, a resignation): it is the game's
    version, which clients send back as ``expected_move_number``.
    """

    class Status(models.TextChoices):
        PLAYING = "playing"
        WON = "won"
        LOST = "lost"
        RESIGNED = "resigned"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="games"
    )
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="games")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLAYING)
    move_number = models.PositiveIntegerField(default=0)
    state = models.JSONField()
    ranked = models.BooleanField(default=False)
    #: The player picked the seed ("deal number 1234"): theirs to see, never on a leaderboard.
    seed_chosen = models.BooleanField(default=False)
    #: The daily challenge this game is on: its ranked attempt, or a casual replay of it.
    daily = models.ForeignKey(
        DailyChallenge, null=True, blank=True, on_delete=models.PROTECT, related_name="games"
    )
    #: Taken off the leaderboards by staff.
    excluded = models.BooleanField(default=False)
    #: Cards on the foundations (Grounds for Divorce: in the discard): progress, for ranking.
    cards_home = models.PositiveSmallIntegerField(default=0)
    #: Moves on the board (undone ones not counted).
    board_moves = models.PositiveIntegerField(default=0)
    undo_count = models.PositiveIntegerField(default=0)
    hint_count = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    last_move_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["owner", "status", "-created_at"])]
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "daily"],
                condition=models.Q(ranked=True),
                name="game_one_ranked_attempt_per_daily",
            )
        ]
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.deal.variant}, {self.owner})"

    @property
    def variant(self) -> str:
        return self.deal.variant

    @property
    def is_finished(self) -> bool:
        return self.status != self.Status.PLAYING


class Move(models.Model):
    """One entry of a game's history, kept for good.

    ``payload`` is an engine move (``{"type": "move", ...}`` or ``{"type": "deal"}``) or a
    service action (``{"type": "undo"}``, ``{"type": "resign"}``); an undo is an entry of its
    own, never a deletion. ``events`` are what the engine (or the service) reported.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField()
    payload = models.JSONField()
    events = models.JSONField(default=list)
    received_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="move_unique_number")
        ]
        ordering = ["game", "number"]

    def __str__(self) -> str:
        return f"Game {self.game_id} move {self.number}"


class IdempotencyRecord(models.Model):
    """The response to a request sent with an ``Idempotency-Key``, replayed on a retry."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    key = models.CharField(max_length=100)
    fingerprint = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField(null=True)
    body = models.JSONField(null=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_unique_key")
        ]
