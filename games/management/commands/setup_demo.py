"""Demo data for a local machine: a player with a game of each kind saved, and an admin."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games.play import services as play_services
from games.play import winnable_pool
from games.rules import VARIANTS

#: The games whose deals the solver proves winnable in well under a second: their pools are
#: filled here so that "Winnable deals only" works at once; the server fills the rest (and
#: these up to WINNABLE_POOL_SIZE) in the background.
QUICK_GAMES = ("grandfathers-clock", "selective-castle")
DEMO_POOL_SIZE = 5

DEMO_ACCOUNTS = [
    # (username, password, staff): printed by bin/run; for a local machine only.
    ("demo", "demo-patience", False),
    ("admin", "admin-patience", True),
]


class Command(BaseCommand):
    help = "Create the demo accounts (and the demo player's saved games) if missing."

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError("demo accounts are for local development (DEBUG on) only")
        users = get_user_model()
        for username, password, staff in DEMO_ACCOUNTS:
            user, created = users.objects.get_or_create(
                username=username, defaults={"is_staff": staff, "is_superuser": staff}
            )
            if created:
                user.set_password(password)
                user.save()
            role = "admin (staff)" if staff else "player"
            note = "created" if created else "exists; password as first set"
            self.stdout.write(f"  {role:<14} {username} / {password}   ({note})")
            if not staff and not user.games.exists():
                self._start_saved_games(user)
        self._fill_quick_pools()

    def _fill_quick_pools(self) -> None:
        added = winnable_pool.fill(
            QUICK_GAMES,
            DEMO_POOL_SIZE,
            seconds=2.0,
            positions=settings.WINNABLE_POOL_POSITIONS,
            executor=winnable_pool.InThisProcess(),
            tries=4 * DEMO_POOL_SIZE,
        )
        sizes = winnable_pool.sizes()
        pools = ", ".join(f"{slug} {sizes[slug]}" for slug in QUICK_GAMES)
        note = f" ({sum(added.values())} just found)" if any(added.values()) else ""
        self.stdout.write(f"Winnable deals ready: {pools}{note}; the server finds more.")

    def _start_saved_games(self, user: Any) -> None:
        """One game of each kind, a few moves in, so the demo player has games to resume."""
        for slug in VARIANTS:
            outcome = play_services.create_game(user=user, variant_slug=slug)
            for _ in range(3):
                moves = outcome.variant.legal_moves(outcome.state)
                if not moves:
                    break
                outcome = play_services.play_move(
                    user=user, game_id=outcome.game.pk, move=moves[0].to_json()
                )
