"""What staff see of a game: its timeline step by step, its flags and its audit log."""

from __future__ import annotations

from django.db.models import (
    Exists,
    OuterRef,
    QuerySet,
)

from games.core import sealing
from games.core.history import (
    opening,
    replay_history,
)
from games.errors import GameError
from games.models import AuditLog, Game, GameFlag
from games.moderation import responses
from games.moderation.verification import HistoryRow, history_rows, verification
from games.play.selectors import game_summary, invalid_step
from games.rules import ReplayError, get_variant


def staff_game(game_id: int) -> Game:
    """Any game, for staff."""
    game = Game.objects.select_related("deal", "daily", "owner").filter(pk=game_id).first()
    if game is None:
        raise GameError("not_found", "There is no such game.")
    return game


SEALED_MESSAGE = (
    "This game was dealt the deal of a day still open (its ranked attempts' or a replay of "
    "it): its deal, boards and moves are shown to staff once the day closes (staff can play "
    "ranked too)."
)
RACE_SEALED_MESSAGE = (
    "This game is a player's game of a race not over yet (every game of a race is dealt the "
    "same deal): its deal, boards and moves are shown to staff once the race ends."
)


def sealed_message(game: Game) -> str:
    """Why a sealed game is not shown: its open day's reason, or its race's."""
    return RACE_SEALED_MESSAGE if sealing.sealed_by_race_only(game.deal_id) else SEALED_MESSAGE


def hidden_words(game: Game) -> str:
    """What the admin shows in place of a sealed game's seed, deal and snapshot."""
    return sealing.hidden_words(game.deal_id)


def sealed(game: Game) -> bool:
    """A game dealt an open day's deal, ranked or casual (``games.core.sealing``): its seed
    and boards are that day's deal, which staff who can also play the day must not see
    (``days.day_closed`` opens it)."""
    return sealing.game_sealed(game)


def with_flagged(games: QuerySet[Game]) -> QuerySet[Game]:
    """``flagged``: the game has an open flag."""
    open_flags = GameFlag.objects.filter(game=OuterRef("pk"), cleared_at__isnull=True)
    return games.annotate(flagged=Exists(open_flags))


def review_timeline(game: Game, rows: list[HistoryRow] | None = None) -> list[responses.TimedEntry]:
    """Every history entry with when it arrived and the time since the one before (the first:
    since the game started), in milliseconds."""
    rows = history_rows(game) if rows is None else rows
    previous = game.created_at
    timeline: list[responses.TimedEntry] = []
    for number, payload, events, received_at in rows:
        gap = (received_at - previous).total_seconds() * 1000
        timeline.append(
            {
                "number": number,
                "move": payload,
                "events": events,
                "received_at": received_at,
                "gap_ms": round(gap, 1),
            }
        )
        previous = received_at
    return timeline


def review_step(
    game: Game, step: int, rows: list[HistoryRow] | None = None
) -> responses.ReviewStep:
    """For staff: history entry ``step`` with the whole board (every card, face-down and stock
    included) before and after it; step 0 is the deal. A history that stops replaying gives
    ``error`` from that step on."""
    if not 0 <= step <= game.move_number:
        raise invalid_step(game)
    variant = get_variant(game.deal.variant)
    rows = history_rows(game) if rows is None else rows
    timeline = review_timeline(game, rows[:step])
    states = [opening(variant, game.deal)]
    error: responses.StepError | None = None
    try:
        for after, _ in replay_history(variant, game.deal, [row[1] for row in rows[:step]]):
            states.append(after)
    except ReplayError as failure:
        error = {"step": failure.step, "message": failure.error.message}
    # Without an error there is a state per step; with one at step k, states up to k - 1.
    before = states[step - 1] if step and len(states) >= step else None
    after = states[step] if len(states) > step else None
    return {
        "step": step,
        "move_number": game.move_number,
        "entry": timeline[-1] if step else None,
        "before": variant.state_to_json(before) if before is not None else None,
        "after": variant.state_to_json(after) if after is not None else None,
        "error": error,
    }


def flag_summary(flag: GameFlag) -> responses.Flag:
    return {
        "id": flag.pk,
        "reason": flag.reason,
        "detail": flag.detail,
        "automatic": flag.automatic,
        "created_by": flag.created_by.get_username() if flag.created_by else None,
        "created_at": flag.created_at,
        "cleared_at": flag.cleared_at,
        "cleared_by": flag.cleared_by.get_username() if flag.cleared_by else None,
        "cleared_reason": flag.cleared_reason,
    }


def game_flags(game: Game) -> QuerySet[GameFlag]:
    return game.flags.select_related("created_by", "cleared_by").order_by("-created_at", "-pk")


def game_audit(game: Game) -> QuerySet[AuditLog]:
    return game.audit_entries.order_by("-created_at", "-pk")


def staff_review(game: Game, step: int) -> responses.StaffReview:
    """The staff API's review of a game: everything about it, the board at ``step`` with
    every card, the timed history, the flags and the verification."""
    rows = history_rows(game)
    flags = [flag_summary(flag) for flag in game_flags(game)]
    check = verification(game, rows)
    return {
        "game": {
            **game_summary(game),
            "seed": game.deal.seed,
            "owner": game.owner.get_username(),
            "excluded": game.excluded,
            "flagged": any(flag["cleared_at"] is None for flag in flags),
            "cards_home": game.cards_home,
            "board_moves": game.board_moves,
        },
        **review_step(game, step, rows),
        "verification": {"ok": check.ok, "step": check.step, "problem": check.problem},
        "flags": flags,
        "timeline": review_timeline(game, rows),
    }
