"""Reads shared by the API and the pages: games as a player may see them, histories, stats."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import (
    Case,
    Count,
    DurationField,
    ExpressionWrapper,
    F,
    FloatField,
    Min,
    Q,
    QuerySet,
    Value,
    When,
)
from django.db.models.functions import Coalesce

from config.api import ApiError
from games import daily
from games.history import RESIGN, line_of_play
from games.models import DailyChallenge, Game, Move
from games.rules import VARIANTS, ReplayError, State, Variant, get_variant


def variant_catalogue() -> list[dict[str, Any]]:
    """Each game: slug, name, description and its piles, in the engine's order."""
    return [
        {
            "slug": variant.slug,
            "name": variant.name,
            "description": variant.description,
            "decks": variant.decks,
            "piles": [
                {"id": pile_id, "kind": kind}
                for pile_id, kind in zip(variant.pile_ids, variant.kinds, strict=True)
            ],
        }
        for variant in VARIANTS.values()
    ]


def own_games(
    user: AbstractBaseUser, *, status: str | None = None, variant: str | None = None
) -> QuerySet[Game]:
    games = Game.objects.filter(owner=user).select_related("deal", "daily")
    if status:
        games = games.filter(status=status)
    if variant:
        games = games.filter(deal__variant=variant)
    return games.order_by("-created_at", "-pk")


def own_game(user: AbstractBaseUser, game_id: int) -> Game:
    """The player's game; anyone else's is "not found", so its existence does not leak."""
    game = Game.objects.select_related("deal", "daily").filter(pk=game_id, owner=user).first()
    if game is None:
        raise ApiError("not_found", "There is no such game.", 404)
    return game


def seed_visible(game: Game) -> bool:
    """A seed reveals its whole deal: shown for a deal the player chose, or once the game is
    over; a daily challenge's deal stays secret until its day has closed, for everybody."""
    if game.daily_id is not None:
        return daily.day_closed(game.daily.date)
    return game.seed_chosen or game.is_finished


def game_representation(
    game: Game, state: State | None = None, events: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """A game as its player sees it: never a face-down card, the seed only when allowed."""
    variant = get_variant(game.deal.variant)
    if state is None:
        state = variant.state_from_json(game.state)
    body = {
        "id": game.pk,
        "variant": variant.slug,
        "seed": game.deal.seed if seed_visible(game) else None,
        "status": game.status,
        "move_number": game.move_number,
        "ranked": game.ranked,
        "daily": game.daily.date if game.daily_id else None,
        "state": variant.player_view(state, reveal_seed=seed_visible(game)),
        "legal_moves": (
            [move.to_json() for move in variant.legal_moves(state)] if not game.is_finished else []
        ),
        "counts": {"moves": state.move_number, "undos": game.undo_count},
        "created_at": game.created_at,
        "last_move_at": game.last_move_at,
        "finished_at": game.finished_at,
    }
    if events is not None:
        body["events"] = events
    return body


def game_summary(game: Game) -> dict[str, Any]:
    """A game in a list: no cards, just enough to pick it up again."""
    return {
        "id": game.pk,
        "variant": game.deal.variant,
        "seed": game.deal.seed if seed_visible(game) else None,
        "status": game.status,
        "move_number": game.move_number,
        "ranked": game.ranked,
        "daily": game.daily.date if game.daily_id else None,
        "created_at": game.created_at,
        "last_move_at": game.last_move_at,
        "finished_at": game.finished_at,
    }


def history(game: Game) -> list[dict[str, Any]]:
    return [
        {"number": number, "move": payload, "events": events, "received_at": received_at}
        for number, payload, events, received_at in game.moves.order_by("number").values_list(
            "number", "payload", "events", "received_at"
        )
    ]


def replay_view(game: Game, step: int) -> dict[str, Any]:
    """The board after ``step`` history entries; a finished game shows every card (a daily
    deal only once its day has closed)."""
    if not 0 <= step <= game.move_number:
        raise ApiError("invalid_step", f"Choose a step from 0 to {game.move_number}.")
    variant: Variant = get_variant(game.deal.variant)
    entries = list(
        Move.objects.filter(game=game, number__lte=step)
        .order_by("number")
        .values_list("payload", flat=True)
    )
    state = line_of_play(variant, game.deal.seed, entries)[-1]
    if game.is_finished and seed_visible(game):
        view = variant.state_to_json(state)
    else:
        view = variant.player_view(state, reveal_seed=seed_visible(game))
    return {"game_id": game.pk, "step": step, "move_number": game.move_number, "state": view}


def player_stats(user: AbstractBaseUser) -> list[dict[str, Any]]:
    """Per game: played (finished), won, win rate, best moves and time of a win, streaks."""
    finished = (
        Game.objects.filter(owner=user)
        .exclude(status=Game.Status.PLAYING)
        .order_by("finished_at", "pk")
        # Only the fields counted: a game's state JSON is large.
        .values_list("deal__variant", "status", "state__move_number", "created_at", "finished_at")
    )
    by_variant: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
    for slug, *result in finished:
        by_variant[slug].append(result)
    return [_variant_stats(slug, by_variant.get(slug, [])) for slug in VARIANTS]


def _variant_stats(slug: str, results: list[list[Any]]) -> dict[str, Any]:
    wins = [
        (moves, finished - created)
        for status, moves, created, finished in results
        if status == Game.Status.WON
    ]
    streak = best_streak = 0
    for status, *_ in results:
        streak = streak + 1 if status == Game.Status.WON else 0
        best_streak = max(best_streak, streak)
    return {
        "variant": slug,
        "played": len(results),
        "won": len(wins),
        "win_rate": round(len(wins) / len(results), 4) if results else None,
        "best_moves": min((moves for moves, _ in wins), default=None),
        "best_time_seconds": min((t.total_seconds() for _, t in wins), default=None),
        "current_streak": streak,
        "best_streak": best_streak,
    }


def verify_game(game: Game) -> str | None:
    """None when the history replays through the engine to the stored snapshot and status;
    else what is wrong, naming the first step that breaks."""
    variant = get_variant(game.deal.variant)
    numbers, entries = [], []
    for number, payload in game.moves.order_by("number").values_list("number", "payload"):
        numbers.append(number)
        entries.append(payload)
    if numbers != list(range(1, game.move_number + 1)):
        return f"the history's move numbers are not 1 to {game.move_number}"
    try:
        line = line_of_play(variant, game.deal.seed, entries)
    except ReplayError as error:
        return f"step {error.step} does not replay: {error.error.message}"
    if variant.state_to_json(line[-1]) != game.state:
        return "the stored snapshot differs from the replay of the history"
    resigned = bool(entries) and entries[-1].get("type") == RESIGN
    expected = Game.Status.RESIGNED if resigned else variant.status(line[-1])
    if game.status != expected:
        return f"the stored status is {game.status}, the replay says {expected}"
    return None


# -- daily challenges and leaderboards -------------------------------------------------------


def ranked_attempts(date: dt.date, variant: str) -> QuerySet[Game]:
    """A day's ranked attempts at one game, best first: won before not won, then more cards
    home, fewer moves, less time (start to last move), and who got there first."""
    reached = Coalesce("last_move_at", "created_at")
    return (
        Game.objects.filter(daily__date=date, daily__variant=variant, ranked=True, excluded=False)
        .annotate(
            won=Case(When(status=Game.Status.WON, then=Value(1)), default=Value(0)),
            reached=reached,
            duration=ExpressionWrapper(reached - F("created_at"), output_field=DurationField()),
        )
        .order_by("-won", "-cards_home", "board_moves", "duration", "reached", "pk")
    )


def _entry(rank: int, row: dict[str, Any]) -> dict[str, Any]:
    return {
        "rank": rank,
        "user": row["owner__username"],
        "status": row["status"],
        "won": bool(row["won"]),
        "cards_home": row["cards_home"],
        "moves": row["board_moves"],
        "time_seconds": round(row["duration"].total_seconds(), 3),
    }


LEADERBOARD_FIELDS = (
    "owner_id",
    "owner__username",
    "status",
    "won",
    "cards_home",
    "board_moves",
    "duration",
)


def daily_leaderboard(
    date: dt.date, variant: str, user: AbstractBaseUser | None, *, page: int = 1, size: int = 50
) -> dict[str, Any]:
    """One page of the day's ranking, with the signed-in player's own entry wherever it is."""
    attempts = ranked_attempts(date, variant)
    count = attempts.count()
    start = (page - 1) * size
    rows = attempts.values(*LEADERBOARD_FIELDS)[start : start + size]
    me = None
    if user is not None and user.is_authenticated:
        order = list(attempts.values_list("owner_id", flat=True))
        if user.pk in order:
            position = order.index(user.pk)
            me = _entry(position + 1, attempts.values(*LEADERBOARD_FIELDS)[position])
    return {
        "date": date,
        "variant": variant,
        "count": count,
        "page": page,
        "pages": max(1, -(-count // size)),
        "results": [_entry(start + i + 1, row) for i, row in enumerate(rows)],
        "me": me,
    }


def daily_ranking(date: dt.date, variant: str) -> list[tuple[int, dict[str, Any]]]:
    """The whole day's ranking as (player id, entry), best first: for the live boards."""
    rows = ranked_attempts(date, variant).values(*LEADERBOARD_FIELDS)
    return [(row["owner_id"], _entry(rank, row)) for rank, row in enumerate(rows, start=1)]


def game_catch_up(game: Game, since: int | None, window: int) -> dict[str, Any]:
    """What a watcher that last saw version ``since`` needs: the entries it missed and the
    game now, or just the game (a full resync) when it is too far behind or new."""
    body: dict[str, Any] = {"type": "sync", "game": game_representation(game)}
    if since is not None and 0 <= since <= game.move_number and game.move_number - since <= window:
        missed = history_since(game, since)
        body = {"type": "catch_up", "since": since, "missed": missed, "game": body["game"]}
    return body


def history_since(game: Game, since: int) -> list[dict[str, Any]]:
    return [
        {"number": number, "move": payload, "events": events}
        for number, payload, events in game.moves.filter(number__gt=since)
        .order_by("number")
        .values_list("number", "payload", "events")
    ]


def watchable_game(user: AbstractBaseUser, game_id: int) -> Game | None:
    """A game whose changes this user may watch live: their own, or any game for staff."""
    games = Game.objects.select_related("deal", "daily").filter(pk=game_id)
    if not user.is_staff:
        games = games.filter(owner=user)
    return games.first()


def alltime_leaderboard(variant: str, *, page: int = 1, size: int = 50) -> dict[str, Any]:
    """Players by ranked wins, then win rate, then best winning time (daily attempts only)."""
    minimum = settings.LEADERBOARD_MIN_GAMES
    won = Q(status=Game.Status.WON)
    players = (
        Game.objects.filter(ranked=True, excluded=False, deal__variant=variant)
        .exclude(status=Game.Status.PLAYING)
        .values("owner__username")
        .annotate(
            played=Count("pk"),
            wins=Count("pk", filter=won),
            best_time=Min(F("last_move_at") - F("created_at"), filter=won),
        )
        .filter(played__gte=minimum)
        .annotate(
            win_rate=ExpressionWrapper(F("wins") * 1.0 / F("played"), output_field=FloatField())
        )
        .order_by("-wins", "-win_rate", F("best_time").asc(nulls_last=True), "owner__username")
    )
    count = players.count()
    start = (page - 1) * size
    return {
        "variant": variant,
        "min_games": minimum,
        "count": count,
        "page": page,
        "pages": max(1, -(-count // size)),
        "results": [
            {
                "rank": start + i + 1,
                "user": row["owner__username"],
                "played": row["played"],
                "wins": row["wins"],
                "win_rate": round(row["win_rate"], 4),
                "best_time_seconds": (
                    round(row["best_time"].total_seconds(), 3) if row["best_time"] else None
                ),
            }
            for i, row in enumerate(players[start : start + size])
        ],
    }


def daily_streaks(user: AbstractBaseUser) -> dict[str, Any]:
    """Runs of consecutive UTC days with a won daily challenge: per game and overall."""
    won_days: dict[str, set[dt.date]] = defaultdict(set)
    for variant, date in Game.objects.filter(
        owner=user, ranked=True, daily__isnull=False, status=Game.Status.WON
    ).values_list("daily__variant", "daily__date"):
        won_days[variant].add(date)
    overall = set().union(*won_days.values()) if won_days else set()
    return {
        "overall": _streaks(overall),
        "by_variant": {slug: _streaks(won_days.get(slug, set())) for slug in VARIANTS},
    }


def _streaks(days: set[dt.date]) -> dict[str, int]:
    best = run = 0
    previous = None
    for day in sorted(days):
        run = run + 1 if previous and day - previous == dt.timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    # A streak is still alive when today's challenge is not won yet but yesterday's was.
    current = 0
    day = daily.today()
    if day not in days:
        day -= dt.timedelta(days=1)
    while day in days:
        current += 1
        day -= dt.timedelta(days=1)
    return {"current": current, "best": best}


def daily_overview(date: dt.date, user: AbstractBaseUser | None) -> dict[str, Any]:
    """The day's five challenges, and the signed-in player's attempt at each."""
    challenges = {
        c.variant: c for c in DailyChallenge.objects.filter(date=date).select_related("deal")
    }
    counts = dict(
        Game.objects.filter(daily__date=date, ranked=True, excluded=False)
        .values_list("daily__variant")
        .annotate(n=Count("pk"))
    )
    signed_in = user is not None and user.is_authenticated
    mine = {}
    if signed_in:
        mine = {
            g.daily.variant: g
            for g in Game.objects.filter(owner=user, daily__date=date, ranked=True).select_related(
                "daily"
            )
        }
    closed, is_today = daily.day_closed(date), date == daily.today()
    items = []
    for slug, variant in VARIANTS.items():
        challenge = challenges.get(slug)
        seed = challenge.deal.seed if challenge else daily.daily_seed(date, slug)
        attempt = mine.get(slug)
        items.append(
            {
                "variant": slug,
                "name": variant.name,
                "seed": seed if closed else None,
                "attempts": counts.get(slug, 0),
                "can_attempt": signed_in and is_today and attempt is None,
                "your_attempt": _attempt_summary(attempt, date, slug) if attempt else None,
            }
        )
    return {
        "date": date,
        "today": daily.today(),
        "open": is_today,
        "closes_at": daily.closes_at(date),
        "challenges": items,
        "streaks": daily_streaks(user) if signed_in else None,
    }


def _attempt_summary(game: Game, date: dt.date, variant: str) -> dict[str, Any]:
    rank = None
    if not game.excluded:
        order = list(ranked_attempts(date, variant).values_list("pk", flat=True))
        rank = order.index(game.pk) + 1
    return {
        "game_id": game.pk,
        "status": game.status,
        "cards_home": game.cards_home,
        "moves": game.board_moves,
        "rank": rank,
    }
