"""A race and its players (``games.races``): kept after the end, with each player's game."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.rules import VARIANTS

VARIANT_CHOICES = [(slug, variant.name) for slug, variant in VARIANTS.items()]


class Race(models.Model):
    """Players racing on one deal. ``code`` is the room's link (``/races/<code>/``): random, so
    that an unlisted room is found only by those it was sent to.

    ``state`` is waiting (players join and get ready), countdown (``starts_at`` in the future:
    every game is dealt, no move taken before then), running, finished (``ended_at``; the
    seed and the replays are shown from then on). The deal's seed is as secret as a casual
    game's until the race ends."""

    class State(models.TextChoices):
        WAITING = "waiting"
        COUNTDOWN = "countdown"
        RUNNING = "running"
        FINISHED = "finished"

    code = models.CharField(max_length=16, unique=True)
    variant = models.CharField(max_length=32, choices=VARIANT_CHOICES)
    deal = models.ForeignKey("games.Deal", on_delete=models.PROTECT, related_name="races")
    #: Dealt from the pool of deals the solver proved winnable.
    winnable = models.BooleanField(default=False)
    #: The room's rule: its games take undo (as casual games do) or not.
    undo = models.BooleanField(default=True)
    #: On the lobby's list of open races; an unlisted room is joined by its link only.
    listed = models.BooleanField(default=True)
    #: Who opened it, and may start it; null once that account is gone.
    opener = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="races_opened",
    )
    state = models.CharField(max_length=16, choices=State.choices, default=State.WAITING)
    time_limit_seconds = models.PositiveIntegerField(default=600)
    created_at = models.DateTimeField(default=timezone.now)
    #: The countdown's end: the games take moves from then on.
    starts_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    #: The room's next race (a new deal, the same players), once one is asked for.
    rematch = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch_of"
    )

    class Meta:
        app_label = "games"
        indexes = [
            models.Index(
                fields=["variant", "created_at"],
                condition=models.Q(state="waiting", listed=True),
                name="race_open_by_variant",
            ),
            models.Index(
                fields=["starts_at"],
                condition=models.Q(state__in=["countdown", "running"]),
                name="race_under_way",
            ),
        ]

    def __str__(self) -> str:
        return f"Race {self.code} ({self.variant}, {self.state})"

    @property
    def ends_at(self) -> dt.datetime | None:
        """When the time limit ends the race (None before it starts)."""
        if self.starts_at is None:
            return None
        return self.starts_at + dt.timedelta(seconds=self.time_limit_seconds)


class RacePlayer(models.Model):
    """A player in a race: their game on the race's deal (dealt at the start), and their
    place once the race has ended."""

    race = models.ForeignKey(Race, on_delete=models.CASCADE, related_name="players")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="race_entries"
    )
    game = models.OneToOneField(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="race_entry"
    )
    ready = models.BooleanField(default=False)
    joined_at = models.DateTimeField(default=timezone.now)
    #: Still in play when the time limit ended the race (the service resigned the game).
    out_of_time = models.BooleanField(default=False)
    #: 1 for the best, ties sharing a place; null until the race has ended.
    place = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        app_label = "games"
        constraints = [
            models.UniqueConstraint(fields=["race", "player"], name="raceplayer_once_per_race")
        ]
        ordering = ["race", "joined_at", "pk"]

    def __str__(self) -> str:
        return f"{self.player_id} in race {self.race_id}"


class RaceInvitation(models.Model):
    """An account asked a player it follows to join a race it is in (``games.races.
    invitations``): shown on that player's lobby until the race starts, they join, or they
    decline it (``declined_at``: kept, so that the race asks them no more)."""

    race = models.ForeignKey(Race, on_delete=models.CASCADE, related_name="invitations")
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="race_invitations_sent"
    )
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="race_invitations"
    )
    created_at = models.DateTimeField(default=timezone.now)
    #: "Not now": no longer pending, and not sent again for this race.
    declined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        app_label = "games"
        constraints = [
            models.UniqueConstraint(
                fields=["race", "recipient"], name="raceinvitation_once_per_race"
            )
        ]
        indexes = [models.Index(fields=["recipient", "created_at"], name="raceinvitation_inbox")]

    def __str__(self) -> str:
        return f"{self.sender_id} invites {self.recipient_id} to race {self.race_id}"
