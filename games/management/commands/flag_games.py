"""Run the fair-play checks on ranked attempts (all, a day's, or the ones named) and flag
those that fail. Finishing a ranked attempt already runs them; this catches the rest: an
attempt left unfinished, a history edited later, thresholds changed since."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Game
from games.moderation import fair_play


class Command(BaseCommand):
    help = "Check ranked attempts for fair play; flag the ones that fail a check."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_ids", nargs="*", type=int, help="only these games")
        parser.add_argument(
            "--date", type=dt.date.fromisoformat, help="only this day's attempts (YYYY-MM-DD)"
        )

    def handle(self, *args: Any, game_ids: list[int], date: dt.date | None, **options: Any) -> None:
        games = Game.objects.filter(ranked=True).order_by("pk")
        if game_ids:
            games = games.filter(pk__in=game_ids)
            missing = set(game_ids) - set(games.values_list("pk", flat=True))
            if missing:
                raise CommandError(f"no ranked game with id {', '.join(map(str, sorted(missing)))}")
        if date:
            games = games.filter(daily__date=date)
        checked = raised = 0
        for game_id in games.values_list("pk", flat=True).iterator(chunk_size=500):
            checked += 1
            for flag in fair_play.check_fair_play(game_id=game_id):
                raised += 1
                self.stdout.write(f"game {game_id}: {flag.get_reason_display()}: {flag.detail}")
        self.stdout.write(f"{checked} ranked attempts checked, {raised} new flags.")
