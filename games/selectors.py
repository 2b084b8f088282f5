"""Reads shared by the API and the pages: games as a player may see them, histories, stats."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from config.api import ApiError
from games.history import RESIGN, line_of_play
from games.models import Game, Move
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
    games = Game.objects.filter(owner=user).select_related("deal")
    if status:
        games = games.filter(status=status)
    if variant:
        games = games.filter(deal__variant=variant)
    return games.order_by("-created_at", "-pk")


def own_game(user: AbstractBaseUser, game_id: int) -> Game:
    """The player's game; anyone else's is "not found", so its existence does not leak."""
    game = Game.objects.select_related("deal").filter(pk=game_id, owner=user).first()
    if game is None:
        raise ApiError("not_found", "There is no such game.", 404)
    return game


def seed_visible(game: Game) -> bool:
    """A seed reveals its whole deal: shown for a deal the player chose, or once it is over."""
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
    """The board after ``step`` history entries; a finished game shows every card."""
    if not 0 <= step <= game.move_number:
        raise ApiError("invalid_step", f"Choose a step from 0 to {game.move_number}.")
    variant: Variant = get_variant(game.deal.variant)
    entries = list(
        Move.objects.filter(game=game, number__lte=step)
        .order_by("number")
        .values_list("payload", flat=True)
    )
    state = line_of_play(variant, game.deal.seed, entries)[-1]
    if game.is_finished:
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
