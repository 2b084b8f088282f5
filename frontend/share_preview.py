"""What a link to a day's page shows where it is shared (Open Graph and Twitter meta): the day
and its five games in words, and the project's picture (``bin/share-image``). The same for
everyone and every day but the date, so a preview tells nothing of any deal."""

from __future__ import annotations

import datetime as dt

from django.http import HttpRequest
from django.templatetags.static import static

from frontend.games import GAMES


def asked_day(request: HttpRequest) -> dt.date | None:
    """The page's ?date=, when it is a day (the page's script says what is wrong otherwise)."""
    try:
        return dt.date.fromisoformat(request.GET.get("date", ""))
    except ValueError:
        return None


def day_preview(request: HttpRequest, day: dt.date) -> dict[str, str]:
    names = list(GAMES.values())
    games = ", ".join(names[:-1]) + " and " + names[-1]
    return {
        "shown_name": f"{day.day} {day:%B %Y}",
        "description": (
            f"The five daily deals of {day.day} {day:%B %Y}, the same for everyone: {games}. "
            "Play them, and follow the day's leaderboards live."
        ),
        "page_url": request.build_absolute_uri(f"/daily/?date={day.isoformat()}"),
        "image_url": request.build_absolute_uri(static("frontend/share/daily.png")),
    }
