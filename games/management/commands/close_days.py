"""Close the ranked daily attempts left unfinished when their day ended. The worker's ``days`` job
does this at midnight UTC by itself (``games.daily.day_closer``, ``manage.py worker``); this is
to catch up by hand."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.daily import services as daily_services


class Command(BaseCommand):
    help = "Close the ranked daily attempts still in play whose day has ended."

    def handle(self, *args: Any, **options: Any) -> None:
        closed = daily_services.close_unfinished_attempts()
        for game_id in closed:
            self.stdout.write(f"game {game_id}: closed")
        self.stdout.write(f"{len(closed)} unfinished ranked attempts of past days closed.")
