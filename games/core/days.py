"""The calendar of daily challenges: UTC days, and the secret seed of each day's deal."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac

from django.conf import settings
from django.utils import timezone

from games.rules import MAX_SEED


def today() -> dt.date:
    """The current UTC day: every player and every server process agree on it."""
    return timezone.now().astimezone(dt.UTC).date()


def day_closed(date: dt.date) -> bool:
    """A day's challenges close at midnight UTC; only then may their seeds be shown."""
    return date < today()


def closes_at(date: dt.date) -> dt.datetime:
    """The midnight (UTC) after ``date``. The calendar's last day (9999-12-31) closes a
    microsecond early: the midnight after it is past what a datetime holds."""
    if date == dt.date.max:
        return dt.datetime.max.replace(tzinfo=dt.UTC)
    return dt.datetime.combine(date + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)


def daily_seed(date: dt.date, variant: str, candidate: int = 0) -> int:
    """The day's ``candidate``-th seed for a game (0, 1, 2, …): HMAC-SHA256 of the date, game
    and candidate number under ``DAILY_SECRET``, unknowable without the key. The day deals the
    first candidate the solver proves winnable (``games.daily.challenges``). Candidate 0 keeps the
    message of the days before candidates (``patience-daily-v1:DATE:GAME``), so the seeds of
    those days stay what they were; candidate n > 0 appends ``:n``."""
    if candidate < 0:
        raise ValueError("a candidate number is 0 or more")
    suffix = f":{candidate}" if candidate else ""
    message = f"patience-daily-v1:{date.isoformat()}:{variant}{suffix}".encode()
    digest = hmac.new(settings.DAILY_SECRET.encode(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") & MAX_SEED
