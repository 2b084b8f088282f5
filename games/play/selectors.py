"""Reads of a player's own games: as they may see them, their histories, replays and stats."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import (
    Q,
    QuerySet,
)

from games.core import clock, days, sealing
from games.core.history import line_of_play, told
from games.errors import GameError
from games.models import UNTOUCHED, Game, Move
from games.play import responses
from games.play.autoplay import finishes_home, safe_home_moves
from games.play.results import game_result
from games.rules import VARIANTS, State, Variant, get_variant

#: The games list's status filter for every game that is over, whatever its outcome.
FINISHED = "finished"

#: What another feature keeps secret of a finished game: each is called with the game and says
#: whether its seed (and so its cards, in its replay) must stay hidden still. A race's game
#: (``games.races.rules``): until the race is over, since its deal is the other players'.
SEED_HOLDS: list[Callable[[Game], bool]] = []
#: What another feature adds to a game's answer, called with the game: the keys it sets (a
#: race's game: ``race``, and ``can_undo`` false in a room without undo). Play knows nothing
#: of races; a game that is in none gets ``race: null``.
GAME_EXTRAS: list[Callable[[Game], dict[str, Any]]] = []


def own_games(
    user: AbstractBaseUser, *, status: str | None = None, variant: str | None = None
) -> QuerySet[Game]:
    """The player's games, newest first; ``status`` one of Game.Status or FINISHED. A game where
    no move was ever made (``models.UNTOUCHED``) is in no list: it is not in progress (it is
    deleted once left so, or abandoned), nor played."""
    games = Game.objects.filter(owner=user).exclude(UNTOUCHED).select_related("deal", "daily")
    if status == FINISHED:
        games = games.exclude(status=Game.Status.PLAYING)
    elif status:
        games = games.filter(status=status)
    if variant:
        games = games.filter(deal__variant=variant)
    return games.order_by("-created_at", "-pk")


def own_game(user: AbstractBaseUser, game_id: int) -> Game:
    """The player's game; anyone else's is "not found", so its existence does not leak."""
    game = Game.objects.select_related("deal", "daily").filter(pk=game_id, owner=user).first()
    if game is None:
        raise GameError("not_found", "There is no such game.")
    return game


def owns_game(user: AbstractBaseUser, game_id: int) -> bool:
    """Whether the game is the player's (a page of anyone else's is "not found")."""
    return Game.objects.filter(pk=game_id, owner=user).exists()


def seed_visible(game: Game) -> bool:
    """A seed reveals its whole deal: shown for a deal the player chose, or once the game is
    over; a daily challenge's deal stays secret until its day has closed, for everybody."""
    if game.daily_id is not None:
        return days.day_closed(game.daily.date)
    if game.seed_chosen:
        return True
    return game.is_finished and not any(hold(game) for hold in SEED_HOLDS)


def json_time(value: dt.date | None) -> str | None:
    """A date or time as the REST API's JSON renderer writes it (UTC as ``Z``)."""
    if value is None:
        return None
    text = value.isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def game_representation(
    game: Game, state: State | None = None, events: list[dict[str, Any]] | None = None
) -> responses.Game:
    """A game as its player sees it: never a face-down card, the seed only when allowed.
    JSON-ready (times as text): the live update sends it as it is."""
    variant = get_variant(game.deal.variant)
    if state is None:
        state = variant.state_from_json(game.state)
    legal = variant.legal_moves(state) if not game.is_finished else []
    body: responses.Game = {
        "id": game.pk,
        "variant": variant.slug,
        "seed": game.deal.seed if seed_visible(game) else None,
        "status": game.status,
        "move_number": game.move_number,
        "ranked": game.ranked,
        "daily": json_time(game.daily.date) if game.daily_id else None,
        "winnable": game.winnable,
        "state": variant.player_view(state, reveal_seed=seed_visible(game)),
        "legal_moves": [move.to_json() for move in legal],
        # For the page's automatic play (games/play/autoplay.py): from what the player sees only.
        "safe_home_moves": safe_home_moves(variant, state, legal),
        "finishes_home": bool(legal) and finishes_home(variant, state),
        "counts": {
            "moves": state.move_number,
            "undos": game.undo_count,
            "hints": game.hint_count,
        },
        "can_undo": game.can_undo,
        "dead_end": game.dead_end,
        "created_at": json_time(game.created_at),
        "last_move_at": json_time(game.last_move_at),
        "finished_at": json_time(game.finished_at),
        "time_seconds": clock.seconds(game.active_ms),
        "clock": game_clock(game),
        "race": None,
    }
    for extra in GAME_EXTRAS:
        body.update(extra(game))  # type: ignore[typeddict-item]
    if game.is_finished:
        body["result"] = game_result(game, state.move_number)
    if events is not None:
        body["events"] = events
    return body


def game_clock(game: Game) -> responses.GameClock:
    """What the play page's clock continues from: the game's time as of its last entry
    (``games.core.clock``), and while it is in play, since when and how it runs on."""
    playing = not game.is_finished
    return {
        "seconds": clock.seconds(game.active_ms),
        "running_since": json_time(game.last_move_at or game.created_at) if playing else None,
        "cap_seconds": clock.cap_ms() / 1000,
        "counts_time_away": game.ranked,
    }


def game_summary(game: Game) -> responses.GameSummary:
    """A game in a list: no cards, just enough to pick it up again."""
    return {
        "id": game.pk,
        "variant": game.deal.variant,
        "seed": game.deal.seed if seed_visible(game) else None,
        "status": game.status,
        "move_number": game.move_number,
        "ranked": game.ranked,
        "daily": json_time(game.daily.date) if game.daily_id else None,
        "winnable": game.winnable,
        "counts": {
            "moves": game.board_moves,
            "undos": game.undo_count,
            "hints": game.hint_count,
        },
        "created_at": game.created_at,
        "last_move_at": game.last_move_at,
        "finished_at": game.finished_at,
        "time_seconds": clock.seconds(game.active_ms),
    }


HISTORY_FIELDS = ("number", "payload", "events", "received_at")


def history(game: Game) -> list[responses.HistoryEntry]:
    """Every entry, with the cards each moved and its words for the move list
    (``games.core.history.told``: only cards face up when they moved are named)."""
    rows = list(game.moves.order_by("number").values_list(*HISTORY_FIELDS))
    entries = [history_entry(*row) for row in rows]
    variant = get_variant(game.deal.variant)
    for entry, (cards, said) in zip(
        entries, told(variant, game.deal, [row[1] for row in rows]), strict=True
    ):
        entry["cards"] = cards
        entry["said"] = said
    return entries


def history_entry(
    number: int, payload: dict[str, Any], events: list[Any], received_at: dt.datetime
) -> responses.HistoryEntry:
    return {"number": number, "move": payload, "events": events, "received_at": received_at}


def invalid_step(game: Game) -> GameError:
    """400 ``invalid_step``: a step that is not one of the game's, whatever it was (-1, 99,
    "abc"), named by the range to choose from."""
    return GameError("invalid_step", f"Choose a step from 0 to {game.move_number}.")


def replay_view(game: Game, step: int) -> responses.Replay:
    """The board after ``step`` history entries; a finished game shows every card (a daily
    deal only once its day has closed)."""
    if not 0 <= step <= game.move_number:
        raise invalid_step(game)
    variant: Variant = get_variant(game.deal.variant)
    entries = list(
        Move.objects.filter(game=game, number__lte=step)
        .order_by("number")
        .values_list("payload", flat=True)
    )
    state = line_of_play(variant, game.deal, entries)[-1]
    if game.is_finished and seed_visible(game):
        view = variant.state_to_json(state)
    else:
        view = variant.player_view(state, reveal_seed=seed_visible(game))
    return {"game_id": game.pk, "step": step, "move_number": game.move_number, "state": view}


def player_stats(user: AbstractBaseUser) -> list[responses.Stats]:
    """Per game: played (finished, with a move made), won, win rate, best moves and time
    (``games.core.clock``) of a win, streaks. A game where no move was made counts nowhere."""
    finished = (
        Game.objects.filter(owner=user)
        .exclude(status=Game.Status.PLAYING)
        .exclude(UNTOUCHED)
        .order_by("finished_at", "pk")
        # Only the fields counted: a game's state JSON is large.
        .values_list("deal__variant", "status", "state__move_number", "active_ms")
    )
    by_variant: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
    for slug, *result in finished:
        by_variant[slug].append(result)
    return [_variant_stats(slug, by_variant.get(slug, [])) for slug in VARIANTS]


def _variant_stats(slug: str, results: list[list[Any]]) -> responses.Stats:
    wins = [
        (moves, clock.seconds(active_ms))
        for status, moves, active_ms in results
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
        "best_time_seconds": min((t for _, t in wins if t is not None), default=None),
        "current_streak": streak,
        "best_streak": best_streak,
    }


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


def may_review_games(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Staff who may view games in the admin: being staff is not enough."""
    return bool(user.is_active and user.is_staff and user.has_perm("games.view_game"))


def watchable_game(user: AbstractBaseUser, game_id: int) -> Game | None:
    """A game whose changes this user may watch live: their own, or for staff who may review
    games any game but a sealed one (``games.core.sealing``): its moves, and the cards they
    turn up, are an open day's deal, which staff see no more of than any other player."""
    games = Game.objects.select_related("deal", "daily").filter(pk=game_id)
    if may_review_games(user):
        return games.filter(Q(owner=user) | ~sealing.sealed_rows("deal")).first()
    return games.filter(owner=user).first()
