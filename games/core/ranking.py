"""A day's ranking of the ranked attempts: which attempts count (``on_the_boards``) and their
order, best first (``RANKING_ORDER``). The daily leaderboards (``games.daily``), a finished
attempt's rank in its result (``games.play.results``) and the public profiles all rank by it."""

from __future__ import annotations

import datetime as dt

from django.db.models import Case, Q, QuerySet, Value, When
from django.db.models.functions import Coalesce

from games.models import UNTOUCHED, Game

# A day's ranking, best first: won before not won, then more cards home, fewer moves, less
# time (the game's active time, games.core.clock), and who got there first.
RANKING_ORDER = ("-won", "-cards_home", "board_moves", "active_ms", "reached", "pk")


def with_ranking_keys(games: QuerySet[Game]) -> QuerySet[Game]:
    """The computed keys RANKING_ORDER sorts by: ``won`` and ``reached``."""
    return games.annotate(
        won=Case(When(status=Game.Status.WON, then=Value(1)), default=Value(0)),
        reached=Coalesce("last_move_at", "created_at"),
    )


def on_the_boards(games: QuerySet[Game]) -> QuerySet[Game]:
    """Ranked attempts the leaderboards count: not taken off by staff, and not one that ended
    with no move made (``models.UNTOUCHED``: resigned or closed so, it counts as neither played
    nor lost). An attempt in play is on its day's board from its start, as watchers see it."""
    ended_untouched = UNTOUCHED & ~Q(status=Game.Status.PLAYING)
    return games.filter(ranked=True, excluded=False).exclude(ended_untouched)


def ranked_attempts(date: dt.date, variant: str) -> QuerySet[Game]:
    """A day's ranked attempts at one game, best first (RANKING_ORDER)."""
    attempts = on_the_boards(Game.objects.filter(daily__date=date, daily__variant=variant))
    return with_ranking_keys(attempts).order_by(*RANKING_ORDER)
