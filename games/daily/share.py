"""A day's result worth sharing: the text the Share button hands to the phone's share sheet or
the clipboard, built here rather than in the page so that one tested function decides what it
may say, from the same rows and ranks as the leaderboards.

It says only what the day's leaderboards show anyone already: per game played, won or not,
moves, time, rank of how many, and cards home when not won (of the game's whole pack, a number
no deal changes). Never a card, a move, the seed or anything else of the deal, so a friend who
has not played yet learns nothing that helps them play it.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, TypedDict

from django.contrib.auth.models import AbstractBaseUser

from games.daily import leaderboards
from games.models import Game
from games.rules import VARIANTS
from web.errors import ServiceError
from web.http.schema import IsoDate

WON, NOT_WON = "\u2705", "\u274c"  # ✅ ❌


class SharedGame(TypedDict):
    variant: str
    name: str
    won: bool
    moves: int
    time_seconds: float
    rank: int
    of: Annotated[int, "Attempts on the day's board."]
    cards_home: int
    cards: Annotated[int, "The game's pack (52 a deck)."]


class ShareCard(TypedDict):
    date: IsoDate
    path: Annotated[str, "The day's page, for anyone."]
    games: list[SharedGame]
    text: Annotated[str, "What Share copies: a line per game, then the day's page."]


def day_path(date: dt.date) -> str:
    return f"/daily/?date={date.isoformat()}"


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def clock(seconds: float) -> str:
    """3:07, or 1:02:03 past an hour (whole seconds, as the boards show them)."""
    total = int(seconds)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def game_line(game: SharedGame) -> str:
    parts = [
        f"{WON if game['won'] else NOT_WON} {game['name']}",
        f"{game['moves']} {'move' if game['moves'] == 1 else 'moves'}",
        clock(game["time_seconds"]),
        f"{ordinal(game['rank'])} of {game['of']}",
    ]
    if not game["won"]:
        parts.append(f"{game['cards_home']}/{game['cards']} home")
    return " · ".join(parts)


def share_text(date: dt.date, games: list[SharedGame], site_url: str) -> str:
    heading = f"Patience · {date.day} {date:%b %Y}"
    return "\n".join([heading, *map(game_line, games), f"{site_url}{day_path(date)}"])


def shared_games(date: dt.date, user: AbstractBaseUser) -> list[SharedGame]:
    """The player's finished attempts of the day that are on its boards, in the catalogue's
    order, each as its board shows it (its rank now: a live day's may still change)."""
    played = set(
        Game.objects.filter(owner=user, ranked=True, daily__date=date)
        .exclude(status=Game.Status.PLAYING)
        .values_list("daily__variant", flat=True)
    )
    games: list[SharedGame] = []
    for slug, variant in VARIANTS.items():
        if slug not in played:
            continue
        ranking = leaderboards.daily_ranking(date, slug)
        entry = next((entry for owner, entry in ranking if owner == user.pk), None)
        if entry is None:  # taken off the board by staff, or ended with no move made
            continue
        games.append(
            {
                "variant": slug,
                "name": variant.name,
                "won": entry["won"],
                "moves": entry["moves"],
                "time_seconds": entry["time_seconds"],
                "rank": entry["rank"],
                "of": len(ranking),
                "cards_home": entry["cards_home"],
                "cards": 52 * variant.decks,
            }
        )
    return games


def share_card(date: dt.date, user: AbstractBaseUser, site_url: str) -> ShareCard:
    """The day's result of ``user`` to share; ``nothing_to_share`` (404) before any of the
    day's five attempts is over."""
    games = shared_games(date, user)
    if not games:
        raise ServiceError(
            "nothing_to_share", "Finish one of the day's challenges first: then share it."
        )
    return {
        "date": date,
        "path": day_path(date),
        "games": games,
        "text": share_text(date, games, site_url.rstrip("/")),
    }
