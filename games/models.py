"""What the service stores: deals, games with a snapshot of their state, and full histories."""

from __future__ import annotations

from typing import Any

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

    The seed is the first of the day's candidates (an HMAC of the date, game and candidate
    number under a server secret, so nobody can compute it ahead) that the solver proves
    winnable: ``games.daily.challenges`` prepares it days ahead. Staff may set a day's seed
    before the day starts; it is solved too, and kept even when not proven winnable.

    The certificate (``solution``, the winning line) shows every card: like the seed, nobody
    sees it before the day has closed.
    """

    class Outcome(models.TextChoices):
        PROVEN = "proven", "Proven winnable"
        UNKNOWN = "unknown", "Not proven (the solver's budget ran out)"
        LOST = "lost", "Proven lost"
        UNSOLVED = "unsolved", "Not solved"  # made before the solver (migration 0008)

    date = models.DateField()
    variant = models.CharField(max_length=32, choices=VARIANT_CHOICES)
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="daily_challenges")
    seed_set_by_staff = models.BooleanField(default=False)
    #: Which candidate seed (``core.days.daily_seed``'s n) the day deals; null for staff's.
    candidate = models.PositiveIntegerField(null=True, blank=True)
    outcome = models.CharField(max_length=16, choices=Outcome.choices, default=Outcome.UNSOLVED)
    #: The winning line (engine moves as JSON) when proven: secret until the day has closed.
    solution = models.JSONField(null=True, blank=True)
    #: What the solver spent on the deal it kept: {"positions": ..., "seconds": ...}.
    solver = models.JSONField(default=dict, blank=True)
    #: easy, medium, hard or expert (games.solver.difficulty) when proven; else "".
    difficulty = models.CharField(max_length=8, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["date", "variant"], name="daily_unique_date_variant")
        ]
        ordering = ["-date", "variant"]

    def __str__(self) -> str:
        return f"{self.date} {self.variant}"

    @property
    def proven(self) -> bool:
        return self.outcome == self.Outcome.PROVEN


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
        #: A ranked daily attempt still in play when its day closed: it stands as it was left.
        CLOSED = "closed", "Day closed"

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
    #: Dealt from the pool of deals the solver proved winnable (``WinnableDeal``): the player
    #: may be told "this deal can be won" (games/rules/RULINGS.md §Solutions and hints).
    winnable = models.BooleanField(default=False)
    #: Taken off the leaderboards by staff.
    excluded = models.BooleanField(default=False)
    #: Cards on the foundations (Grounds for Divorce: in the discard): progress, for ranking.
    cards_home = models.PositiveSmallIntegerField(default=0)
    #: Moves on the board (undone ones not counted).
    board_moves = models.PositiveIntegerField(default=0)
    undo_count = models.PositiveIntegerField(default=0)
    #: An undo would be accepted now: a casual game in play with a move on the board
    #: (``games.core.history.has_a_move_to_undo``).
    can_undo = models.BooleanField(default=False)
    #: A casual game in play at a dead end (no legal move left, the engine's ``lost``): it stays
    #: in play so that its player may undo out of it, and is recorded as lost when they end it,
    #: start another game or leave it (``DEAD_END_MINUTES``). A ranked attempt is lost at once.
    dead_end = models.BooleanField(default=False)
    hint_count = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    last_move_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    #: The game's time (games.core.clock), in milliseconds: what the player, the leaderboards
    #: and staff are shown; added to as each history entry is recorded.
    active_ms = models.PositiveBigIntegerField(default=0)
    #: A race's game (``games.races`` sets it as it deals the race): only then do the race's
    #: rules look the race up, rather than on every action of every game (one query each,
    #: 11-15 % of a move's server CPU: bench/README.md, "Where a move's server time goes").
    in_race = models.BooleanField(default=False, editable=False)

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

    @property
    def untouched(self) -> bool:
        """No move was ever made (``UNTOUCHED``)."""
        return self.board_moves == 0 and self.undo_count == 0


#: Games in which no move was ever made: no move stands on the board and none was taken back
#: (an undo needs a move). Never shown as in progress nor counted as played, won or lost; one in
#: play is deleted when its player starts another game or after UNTOUCHED_GAME_MINUTES.
UNTOUCHED = models.Q(board_moves=0, undo_count=0)


class WinnableDeal(models.Model):
    """A deal the solver has proven winnable, with its certificate (a winning line, every card
    shown: as secret as the seed). Rows with no ``dealt_at`` are the pool a new "winnable"
    game is dealt from (``games.play.winnable_pool``); each is dealt once, and stays afterwards
    with the game it went to, so its line can be shown once that game is over."""

    variant = models.CharField(max_length=32, choices=VARIANT_CHOICES)
    seed = models.BigIntegerField()
    deal_version = models.PositiveSmallIntegerField(default=DEAL_VERSION)
    #: The winning line (engine moves as JSON), replayed to a win by the solver before it was
    #: stored.
    moves = models.JSONField()
    positions = models.PositiveIntegerField()
    seconds = models.FloatField()
    created_at = models.DateTimeField(default=timezone.now)
    dealt_at = models.DateTimeField(null=True, blank=True)
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="winnable_deal"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["variant", "seed", "deal_version"], name="winnabledeal_unique_deal"
            )
        ]
        indexes = [
            models.Index(
                fields=["variant", "deal_version"],
                condition=models.Q(dealt_at__isnull=True),
                name="winnabledeal_pool",
            )
        ]

    def __str__(self) -> str:
        state = "dealt" if self.dealt_at else "in the pool"
        return f"{self.variant} #{self.seed} (v{self.deal_version}, {state})"


class Move(models.Model):
    """One entry of a game's history, kept for good.

    ``payload`` is an engine move (``{"type": "move", ...}`` or ``{"type": "deal"}``) or a
    service action (``{"type": "undo"}``, ``{"type": "resign"}``); an undo is an entry of its
    own, never a deletion. ``events`` are what the engine (or the service) reported.
    """

    # No index of its own: the unique (game, number) index serves lookups by game, and every
    # move would otherwise write both.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves", db_index=False)
    number = models.PositiveIntegerField()
    payload = models.JSONField()
    events = models.JSONField(default=list)
    received_at = models.DateTimeField(default=timezone.now)
    #: The time before this entry that the game was out of the player's sight, as the page
    #: said and the service accepted it (games.core.clock.accepted_away_ms), in milliseconds.
    away_ms = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="move_unique_number")
        ]
        ordering = ["game", "number"]

    def __str__(self) -> str:
        return f"Game {self.game_id} move {self.number}"


class IdempotencyRecord(models.Model):
    """The response to a request sent with an ``Idempotency-Key``, replayed on a retry."""

    # Lookups by user use the unique (user, key) index.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, db_index=False)
    key = models.CharField(max_length=100)
    fingerprint = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField(null=True)
    body = models.JSONField(null=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_unique_key")
        ]


class GameFlag(models.Model):
    """A reason to look at a game: found by the fair-play checks, or raised by staff.

    A flag is open until staff clear it; cleared flags stay, with who cleared them and why.
    A game is "flagged" while it has an open flag.
    """

    class Reason(models.TextChoices):
        HISTORY_INVALID = "history_invalid", "history fails verification"
        MOVE_BURST = "move_burst", "burst of moves faster than a person plays"
        IMPLAUSIBLE_TIME = "implausible_time", "win implausibly fast for its moves"
        FAST_WINDOW = "fast_window", "moves faster than a person reads and clicks"
        STAFF = "staff", "flagged by staff"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="flags")
    reason = models.CharField(max_length=32, choices=Reason.choices)
    detail = models.TextField()
    automatic = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    cleared_at = models.DateTimeField(null=True, blank=True)
    cleared_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    cleared_reason = models.TextField(blank=True)

    class Meta:
        constraints = [
            # A check raises its flag once: a flag staff cleared is not raised again.
            models.UniqueConstraint(
                fields=["game", "reason"],
                condition=models.Q(automatic=True),
                name="gameflag_one_automatic_per_reason",
            )
        ]
        indexes = [models.Index(fields=["reason", "cleared_at"])]
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        state = "cleared" if self.cleared_at else "open"
        return f"Game {self.game_id}: {self.get_reason_display()} ({state})"

    @property
    def is_open(self) -> bool:
        return self.cleared_at is None


class AuditLog(models.Model):
    """One staff action (flag, unflag, exclude, reinstate, a daily seed set or removed, an
    account deleted): who, when, what and why. Written once by ``games.moderation.services``, never
    changed. A player closing their own account is not a staff action: it leaves no entry."""

    class Action(models.TextChoices):
        FLAG = "flag"
        UNFLAG = "unflag"
        EXCLUDE = "exclude"
        REINSTATE = "reinstate"
        SET_SEED = "set_seed", "Set daily seed"
        REMOVE_SEED = "remove_seed", "Remove daily seed"
        DELETE_ACCOUNT = "delete_account", "Delete account"

    created_at = models.DateTimeField(default=timezone.now)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: The actor's username at the time: the entry outlives the account.
    actor_name = models.CharField(max_length=150)
    action = models.CharField(max_length=16, choices=Action.choices)
    #: What was acted on, in words that outlive the rows ("game 12 (gold-mine, alice)").
    target = models.CharField(max_length=200)
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="audit_entries"
    )
    daily = models.ForeignKey(
        DailyChallenge,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="audit_entries",
    )
    reason = models.TextField(blank=True)
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["action", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor_name} {self.action} {self.target}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # An audit trail that can be rewritten proves nothing.
        if not self._state.adding:
            raise ValueError("audit log entries are never changed")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        raise ValueError("audit log entries are never deleted")


# Defined with its feature (games/analysis/), registered with the app's models here.
from games.analysis.models import Analysis  # noqa: E402, F401
from games.races.models import Race, RaceInvitation, RacePlayer  # noqa: E402, F401
