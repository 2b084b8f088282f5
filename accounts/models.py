"""Account models."""

from __future__ import annotations

from django.conf import settings
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models
from django.utils import timezone

from accounts.preferences import CHOICES


class UserSession(AbstractBaseSession):
    """A browser session (Django's, stored as Django's database sessions store them) with the
    account it signs in, so that a player can end every session but the current one
    ("Sign out of other devices") without scanning everyone's sessions."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="browser_sessions",
    )

    @classmethod
    def get_session_store_class(cls) -> type:
        from accounts.sessions import SessionStore

        return SessionStore


class GuestProfile(models.Model):
    """Marks a user as a guest (``accounts.guests``): a player made for a visitor's browser
    session on its first game, with no password, who may become an account (signing up keeps
    the row's user, signing in moves its games) and is removed once untouched for
    ``GUEST_TTL_DAYS``."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="guest_profile",
    )
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    def __str__(self) -> str:
        return f"Guest {self.user_id}"


def _choices(name: str) -> list[tuple[str, str]]:
    return [(value, value) for value in CHOICES[name]]


class PlayerSettings(models.Model):
    """An account's settings of the play page (``accounts.preferences`` lists each one and its
    choices): served with every page, so the table is drawn in the player's colours and layout
    from the first paint, on any device the account signs in on. A row exists once the player
    has saved a setting; until then the defaults hold (and a page adopts the settings the
    browser kept locally, as a guest's). Guests keep theirs in the browser only."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="player_settings",
    )
    speed = models.CharField(max_length=8, choices=_choices("speed"), default="normal")
    autoplay = models.CharField(max_length=8, choices=_choices("autoplay"), default="off")
    sound = models.BooleanField(default=False)
    card_back = models.CharField(max_length=8, choices=_choices("card_back"), default="blue")
    table = models.CharField(max_length=8, choices=_choices("table"), default="green")
    left_handed = models.BooleanField(default=False)
    winnable_only = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Settings of {self.user_id}"


class SpentConfirmationLink(models.Model):
    """An email confirmation link that was followed (``accounts.services.confirm_email``), by
    its digest: a link works once, even after its address is removed and the account has none
    again. A row outlives its link by at most ``PASSWORD_RESET_TIMEOUT`` (a link older than that
    is refused anyway), so it is removed then."""

    digest = models.CharField(max_length=64, primary_key=True)
    spent_at = models.DateTimeField(default=timezone.now, db_index=True)

    def __str__(self) -> str:
        return f"Confirmation link spent at {self.spent_at:%Y-%m-%d %H:%M}"


class Follow(models.Model):
    """One account following another (``accounts.follows``): no approval asked, as lichess's
    follow; it only puts the followed player on the follower's friends' boards, which show
    nothing the public boards do not. Guests follow nobody and cannot be followed (they have
    no public name); an account removed takes its follows both ways with it."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="following_set"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers_set"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(
                condition=~models.Q(follower=models.F("followed")), name="follow_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"
