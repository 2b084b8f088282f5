"""The end of a game as its player sees it: moves, time, hints, the player's best at that game
and whether this one beat it, the streak of wins, a ranked daily attempt's rank. Read from the
stored games only, never from what a page sends."""

from __future__ import annotations

from django.db.models import Q

from games.core.clock import seconds
from games.core.ranking import ranked_attempts
from games.models import UNTOUCHED, Game
from games.play import responses


def game_result(game: Game, moves: int) -> responses.Result:
    """A finished game's result. ``best_*`` are the player's bests at this game over the wins
    that finished before this one; ``streak`` counts this game's player's wins at this game in
    a row, in the order the games finished, ending with this one (a game lost, resigned or
    closed ends a run; games still in play, and games where no move was made, do not count).
    Times are the games' active times (``games.core.clock``)."""
    before = Q(pk__lt=game.pk)  # an end with no time (written so by hand): by creation
    if game.finished_at is not None:
        before = Q(finished_at__lt=game.finished_at) | Q(
            finished_at=game.finished_at, pk__lt=game.pk
        )
    earlier = (
        Game.objects.filter(owner_id=game.owner_id, deal__variant=game.deal.variant)
        .exclude(status=Game.Status.PLAYING)
        .exclude(UNTOUCHED)
        .exclude(pk=game.pk)
        .filter(before)
        .order_by("-finished_at", "-pk")
        .values_list("status", "state__move_number", "active_ms")
    )
    won = game.status == Game.Status.WON
    best_moves: int | None = None
    best_time: float | None = None
    streak = 1 if won else 0
    in_run = won
    for status, earlier_moves, earlier_ms in earlier:
        if status != Game.Status.WON:
            in_run = False
            continue
        if in_run:
            streak += 1
        best_moves = earlier_moves if best_moves is None else min(best_moves, earlier_moves)
        earlier_time = seconds(earlier_ms)
        best_time = earlier_time if best_time is None else min(best_time, earlier_time)
    time = seconds(game.active_ms)
    return {
        "moves": moves,
        "time_seconds": time,
        "hints": game.hint_count,
        "undos": game.undo_count,
        "best_moves": best_moves,
        "best_time_seconds": best_time,
        "first_win": won and best_moves is None,
        "beat_moves": won and best_moves is not None and moves < best_moves,
        "beat_time": bool(won and best_time is not None and time < best_time),
        "streak": streak,
        "daily_rank": daily_rank(game),
    }


def daily_rank(game: Game) -> responses.DailyRank | None:
    """A ranked daily attempt's place on its day's leaderboard now; None for any other game
    and for an attempt staff took off the leaderboard."""
    if game.daily_id is None or not game.ranked or game.excluded:
        return None
    order = list(ranked_attempts(game.daily.date, game.daily.variant).values_list("pk", flat=True))
    if game.pk not in order:
        return None
    return {"rank": order.index(game.pk) + 1, "count": len(order)}
