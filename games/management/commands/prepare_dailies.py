"""Prepare the daily challenges of a run of days: each game's deal proven winnable by the
solver, stored with its certificate. The worker's ``days`` job keeps today and the next
``DAILY_PREPARE_DAYS`` days prepared by itself (``games.daily.day_closer``, ``manage.py
worker``); this is to prepare further ahead, or to fill in past days that have no challenge.
Days already prepared are left as they are."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.core.days import today
from games.daily import challenges


def a_day(value: str) -> dt.date:
    try:
        if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value):
            return dt.date.fromisoformat(value)
    except ValueError:
        pass
    raise CommandError(f"--from takes a day written YYYY-MM-DD, not {value!r}")


class Command(BaseCommand):
    help = "Prepare (solve and store) the daily challenges of the given days that have none."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--from", dest="first", type=str, help="the first day, YYYY-MM-DD (today by default)"
        )
        parser.add_argument(
            "--days",
            type=int,
            default=None,
            help="how many days from the first (today and the next DAILY_PREPARE_DAYS by default)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        first = a_day(options["first"]) if options["first"] else today()
        count = options["days"]
        if count is None:
            count = 1 + int(settings.DAILY_PREPARE_DAYS)
        if count < 1:
            raise CommandError("--days is a whole number of days, 1 or more")
        made = 0
        for challenge, created in challenges.prepare_days(challenges.days_from(first, count)):
            made += created
            what = "prepared" if created else "already prepared"
            label = challenge.outcome
            if challenge.difficulty:
                label += f", {challenge.difficulty}"
            self.stdout.write(f"{challenge.date} {challenge.variant}: {what} ({label})")
        self.stdout.write(f"{made} daily challenges prepared.")
