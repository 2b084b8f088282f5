"""Replay every game's history (or the ones named) and report any that does not match."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Game
from games.moderation.verification import verify_game


class Command(BaseCommand):
    help = "Replay games through the rules engine; report histories that fail or differ."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_ids", nargs="*", type=int, help="only these games")

    def handle(self, *args: Any, game_ids: list[int], **options: Any) -> None:
        games = Game.objects.select_related("deal").order_by("pk")
        if game_ids:
            games = games.filter(pk__in=game_ids)
            missing = set(game_ids) - set(games.values_list("pk", flat=True))
            if missing:
                raise CommandError(f"no game with id {', '.join(map(str, sorted(missing)))}")
        checked = failed = 0
        for game in games.iterator(chunk_size=200):
            checked += 1
            problem = verify_game(game)
            if problem:
                failed += 1
                self.stderr.write(f"game {game.pk} ({game.deal.variant}): {problem}")
        self.stdout.write(f"{checked} games checked, {failed} failed verification.")
        if failed:
            raise CommandError(f"{failed} of {checked} games failed verification")
