"""Top up the pools of deals the solver has proven winnable (``games.play.winnable_pool``).

The worker's ``winnable-pool`` job does this in the background by itself (``manage.py worker``);
this is to fill the pools by hand."""

from __future__ import annotations

import contextlib
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import WinnableDeal
from games.play import winnable_pool
from games.rules import VARIANTS


class Command(BaseCommand):
    help = "Top up each game's pool of proven-winnable deals (all games unless named)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("games", nargs="*", metavar="GAME", help="game slugs (default: all)")
        parser.add_argument("--size", type=int, default=None, help="deals per game's pool")
        parser.add_argument("--seconds", type=float, default=None, help="search per deal")
        parser.add_argument("--positions", type=int, default=None, help="search per deal")
        parser.add_argument(
            "--tries", type=int, default=None, help="most deals searched per game (no limit)"
        )
        parser.add_argument(
            "--here", action="store_true", help="search in this process, not a child process"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        slugs = options["games"] or list(VARIANTS)
        unknown = [slug for slug in slugs if slug not in VARIANTS]
        if unknown:
            raise CommandError(f"no such game: {', '.join(unknown)} (games: {', '.join(VARIANTS)})")
        size = options["size"] if options["size"] is not None else settings.WINNABLE_POOL_SIZE
        seconds = options["seconds"] or settings.WINNABLE_POOL_SECONDS
        positions = options["positions"] or settings.WINNABLE_POOL_POSITIONS

        def report(slug: str, deal: WinnableDeal | None) -> None:
            if deal is not None:
                self.stdout.write(f"  {slug}: a winnable deal added ({deal.seconds:.2f} s)")

        executor: Any = (
            contextlib.nullcontext(winnable_pool.InThisProcess())
            if options["here"]
            else winnable_pool.solver_process()
        )
        with executor as running:
            added = winnable_pool.fill(
                slugs,
                size,
                seconds=seconds,
                positions=positions,
                executor=running,
                tries=options["tries"],
                report=report,
            )
        sizes = winnable_pool.sizes()
        for slug in slugs:
            self.stdout.write(f"{slug}: {added[slug]} added, {sizes[slug]} in the pool")
