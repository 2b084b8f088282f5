"""Reads shared by the API and the pages: games as a player may see them, histories, stats."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.cache import cache
from django.db import transaction
from django.db.models import (
    Case,
    Count,
    DurationField,
    Exists,
    Expression,
    ExpressionWrapper,
    F,
    FloatField,
    Min,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
    Window,
)
from django.db.models.functions import Coalesce, Rank
from rest_framework.renderers import JSONRenderer

from games import daily
from games.history import (
    CLOSE,
    RESIGN,
    final_run_home,
    last_move_can_be_undone,
    line_of_play,
    opening,
    replay_history,
    standing_entries,
)
from games.models import AuditLog, DailyChallenge, Game, GameFlag, Move
from games.rules import VARIANTS, ReplayError, State, Variant, get_variant
from web.errors import ApiError


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


def variant_names() -> dict[str, str]:
    """Each game's slug and name, in the engine's order (the pages' menus)."""
    return {slug: variant.name for slug, variant in VARIANTS.items()}


#: The games list's status filter for every game that is over, whatever its outcome.
FINISHED = "finished"


def own_games(
    user: AbstractBaseUser, *, status: str | None = None, variant: str | None = None
) -> QuerySet[Game]:
    """The player's games, newest first; ``status`` one of Game.Status or FINISHED."""
    games = Game.objects.filter(owner=user).select_related("deal", "daily")
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
        raise ApiError("not_found", "There is no such game.", 404)
    return game


def owns_game(user: AbstractBaseUser, game_id: int) -> bool:
    """Whether the game is the player's (a page of anyone else's is "not found")."""
    return Game.objects.filter(pk=game_id, owner=user).exists()


def seed_visible(game: Game) -> bool:
    """A seed reveals its whole deal: shown for a deal the player chose, or once the game is
    over; a daily challenge's deal stays secret until its day has closed, for everybody."""
    if game.daily_id is not None:
        return daily.day_closed(game.daily.date)
    return game.seed_chosen or game.is_finished


def json_time(value: dt.date | None) -> str | None:
    """A date or time as the REST API's JSON renderer writes it (UTC as ``Z``)."""
    if value is None:
        return None
    text = value.isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def game_representation(
    game: Game, state: State | None = None, events: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """A game as its player sees it: never a face-down card, the seed only when allowed.
    JSON-ready (times as text): the live update sends it as it is."""
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
        "daily": json_time(game.daily.date) if game.daily_id else None,
        "winnable": game.winnable,
        "state": variant.player_view(state, reveal_seed=seed_visible(game)),
        "legal_moves": (
            [move.to_json() for move in variant.legal_moves(state)] if not game.is_finished else []
        ),
        "counts": {
            "moves": state.move_number,
            "undos": game.undo_count,
            "hints": game.hint_count,
        },
        "can_undo": game.can_undo,
        "created_at": json_time(game.created_at),
        "last_move_at": json_time(game.last_move_at),
        "finished_at": json_time(game.finished_at),
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
    }


HISTORY_FIELDS = ("number", "payload", "events", "received_at")


def history(game: Game) -> list[dict[str, Any]]:
    rows = game.moves.order_by("number").values_list(*HISTORY_FIELDS)
    return [_history_entry(*row) for row in rows]


def _history_entry(
    number: int, payload: dict[str, Any], events: list[Any], received_at: dt.datetime
) -> dict[str, Any]:
    return {"number": number, "move": payload, "events": events, "received_at": received_at}


EXPORT_FORMAT = "patience-export/1"
#: Rows the export reads per round trip: games (without their snapshots), history entries.
EXPORT_GAMES_PER_FETCH = 200
EXPORT_ENTRIES_PER_FETCH = 2000
#: The export is sent in pieces of about this many bytes (a game at a time, at least).
EXPORT_CHUNK_BYTES = 64 * 1024


#: How long a download's claim on its account lasts at most (a worker that dies holding one).
EXPORT_CLAIM_SECONDS = 15 * 60


class OneExportAtATime:
    """``player_export``'s pieces for a download that holds its account's one claim (in the
    cache, so over every server process) until the response is closed: finished, cut short,
    or never started. A download held open by a slow or stalled client keeps a database
    connection (and on PostgreSQL its snapshot) for as long as it lasts; one at a time per
    account keeps one player from holding many. ``ApiError`` 429 while another is running."""

    def __init__(self, user: AbstractBaseUser, *, exported_at: dt.datetime) -> None:
        self.key = f"games:export:{user.pk}"
        if not cache.add(self.key, 1, EXPORT_CLAIM_SECONDS):
            raise ApiError(
                "export_in_progress",
                "Your data is already being downloaded, in another tab or window. "
                "Try again once that download has finished.",
                429,
            )
        self.chunks = player_export(user, exported_at=exported_at)

    def __iter__(self) -> Iterator[bytes]:
        return self

    def __next__(self) -> bytes:
        return next(self.chunks)

    def close(self) -> None:
        try:
            self.chunks.close()  # type: ignore[attr-defined]
        finally:
            cache.delete(self.key)


def player_export(user: AbstractBaseUser, *, exported_at: dt.datetime) -> Iterator[bytes]:
    """Everything kept about a player, as they may see it, as the JSON document's bytes, a
    piece at a time: the account, the statistics and every game with its whole history,
    oldest first. A game still in play keeps its seed hidden as everywhere else (its history
    names only cards that were face up).

    The document is the API's JSON (the renderer the other answers use), written game by
    game: games and history entries are read in batches as it goes, so a player with
    thousands of long games costs a game's worth of memory, not the whole document, and the
    same few queries however many games. On PostgreSQL everything is read in one REPEATABLE
    READ, READ ONLY transaction (``_export_snapshot``), so the document is one moment's, even
    while the player plays on elsewhere during the download. Nothing runs until the first
    piece is asked for."""
    render = JSONRenderer().render
    with _export_snapshot():
        head = {
            "format": EXPORT_FORMAT,
            "exported_at": exported_at,
            "account": {
                "username": user.get_username(),
                "email": user.email,
                "date_joined": user.date_joined,
            },
            "stats": player_stats(user),
            "daily_streaks": daily_streaks(user),
        }
        # The head without its closing brace, then the games as the last member.
        pieces, size = [render(head)[:-1], b',"games":['], 0
        for index, game in enumerate(_export_games(user)):
            piece = render(game)
            pieces.append(b"," + piece if index else piece)
            size += len(piece)
            if size >= EXPORT_CHUNK_BYTES:
                yield b"".join(pieces)
                pieces, size = [], 0
        pieces.append(b"]}")
        yield b"".join(pieces)


@contextmanager
def _export_snapshot() -> Iterator[None]:
    """One snapshot for the whole export on PostgreSQL: a REPEATABLE READ, READ ONLY
    transaction (it takes no lock and blocks no writer; it holds back vacuum while a
    download runs), unless the caller's own transaction is already open. None on SQLite,
    where a transaction takes the write lock (``transaction_mode`` IMMEDIATE) and would hold
    every move up for the download: there each game's history stops at the move number read
    with the game (``_export_games``), so a game and its history still agree."""
    connection = transaction.get_connection()
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def _export_games(user: AbstractBaseUser) -> Iterator[dict[str, Any]]:
    """The player's games, oldest first, each with its history: two queries read in batches
    side by side (games by id, history entries by game id and number) and merged."""
    games = (
        Game.objects.filter(owner=user)
        .select_related("deal", "daily")
        .defer("state")  # the whole board, large, and not exported
        .order_by("pk")
        .iterator(chunk_size=EXPORT_GAMES_PER_FETCH)
    )
    rows = (
        Move.objects.filter(game__owner=user)
        .order_by("game_id", "number")
        .values_list("game_id", *HISTORY_FIELDS)
        .iterator(chunk_size=EXPORT_ENTRIES_PER_FETCH)
    )
    histories = groupby(rows, key=itemgetter(0))
    pending = next(histories, None)
    for game in games:
        while pending is not None and pending[0] < game.pk:  # a game made since (SQLite)
            pending = next(histories, None)
        entries = []
        if pending is not None and pending[0] == game.pk:
            # Entries are only ever appended: those after the game's row was read are left
            # for the next export (SQLite, no snapshot).
            entries = [_history_entry(*row[1:]) for row in pending[1] if row[1] <= game.move_number]
            pending = next(histories, None)
        yield {**game_summary(game), "history": entries}


def invalid_step(game: Game) -> ApiError:
    """400 ``invalid_step``: a step that is not one of the game's, whatever it was (-1, 99,
    "abc"), named by the range to choose from."""
    return ApiError("invalid_step", f"Choose a step from 0 to {game.move_number}.")


def replay_view(game: Game, step: int) -> dict[str, Any]:
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
    return verification(game).problem


@dataclass(frozen=True)
class Verification:
    """The outcome of replaying a game's history: ``problem`` is None when it all checks out,
    else what is wrong, and ``step`` the first history entry it points at."""

    problem: str | None = None
    step: int | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None


HistoryRow = tuple[int, Any, Any, dt.datetime]
#: The status each of the service's entries that end a game leaves.
ENDING_STATUS = {RESIGN: Game.Status.RESIGNED, CLOSE: Game.Status.CLOSED}


def _history_rows(game: Game) -> list[HistoryRow]:
    return list(
        game.moves.order_by("number").values_list("number", "payload", "events", "received_at")
    )


def _numbering_problem(game: Game, rows: list[HistoryRow]) -> Verification | None:
    """What is wrong when the history's entries are not numbered 1 to the game's move number."""
    for step, (number, *_) in enumerate(rows, start=1):
        if number != step:
            return Verification(
                f"the history's move numbers are not 1 to {game.move_number}: "
                f"step {step} is numbered {number}",
                step,
            )
    if len(rows) != game.move_number:
        return Verification(
            f"the history's move numbers are not 1 to {game.move_number}: "
            f"it has {len(rows)} entries",
            min(len(rows), game.move_number) + 1,
        )
    return None


def verification(game: Game, rows: list[HistoryRow] | None = None) -> Verification:
    """Replay the history through the engine and compare it with what is stored: numbering,
    every move, the snapshot, the status and the counts the leaderboards rank by."""
    variant = get_variant(game.deal.variant)
    rows = _history_rows(game) if rows is None else rows
    if misnumbered := _numbering_problem(game, rows):
        return misnumbered
    entries = [payload for _, payload, _, _ in rows]
    try:
        state = opening(variant, game.deal)
    except ValueError:
        return Verification(
            f"the deal was made by deal algorithm version {game.deal.deal_version}, "
            "which this release cannot deal",
            0,
        )
    # Where the recorded events first part from the engine's: the likely edit, when only the
    # snapshot gives the tampering away.
    first_odd_events = None
    try:
        for step, (after, events) in enumerate(replay_history(variant, game.deal, entries), 1):
            state = after
            if first_odd_events is None and events != rows[step - 1][2]:
                first_odd_events = step
    except ReplayError as error:
        return Verification(f"step {error.step} does not replay: {error.error.message}", error.step)
    last = game.move_number or None
    replayed = variant.state_to_json(state)
    if replayed != game.state:
        stored = game.state.get("piles") if isinstance(game.state, dict) else None
        piles = [
            pile
            for pile, value in replayed["piles"].items()
            if not isinstance(stored, dict) or stored.get(pile) != value
        ]
        problem = "the stored snapshot differs from the replay of the history"
        if piles:
            problem += f" (piles {', '.join(piles)})"
        if first_odd_events is not None:
            problem += f"; the recorded events first differ at step {first_odd_events}"
        return Verification(problem, first_odd_events or last)
    ending = entries[-1].get("type") if entries and isinstance(entries[-1], dict) else None
    expected = ENDING_STATUS.get(ending) or variant.status(state)
    if game.status != expected:
        return Verification(f"the stored status is {game.status}, the replay says {expected}", last)
    can_undo = (
        not game.ranked
        and game.status == Game.Status.PLAYING
        and last_move_can_be_undone([(payload, events) for _, payload, events, _ in rows])
    )
    if game.can_undo != can_undo:
        return Verification(f"the stored can_undo is {game.can_undo}, the history says {can_undo}")
    if not game.ranked:
        # Casual games are ranked by nothing, and older ones predate these columns (migration
        # 0002 did not backfill them): only a ranked attempt's counts must match.
        return Verification()
    counts = {"cards_home": variant.cards_home(state), "board_moves": state.move_number}
    for name, value in counts.items():
        if getattr(game, name) != value:
            return Verification(
                f"the stored {name} is {getattr(game, name)}, the replay says {value}", last
            )
    return Verification()


# -- staff review and fair play ---------------------------------------------------------------


def staff_game(game_id: int) -> Game:
    """Any game, for staff."""
    game = Game.objects.select_related("deal", "daily", "owner").filter(pk=game_id).first()
    if game is None:
        raise ApiError("not_found", "There is no such game.", 404)
    return game


def with_flagged(games: QuerySet[Game]) -> QuerySet[Game]:
    """``flagged``: the game has an open flag."""
    open_flags = GameFlag.objects.filter(game=OuterRef("pk"), cleared_at__isnull=True)
    return games.annotate(flagged=Exists(open_flags))


def review_timeline(game: Game, rows: list[HistoryRow] | None = None) -> list[dict[str, Any]]:
    """Every history entry with when it arrived and the time since the one before (the first:
    since the game started), in milliseconds."""
    rows = _history_rows(game) if rows is None else rows
    previous = game.created_at
    timeline = []
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


def review_step(game: Game, step: int, rows: list[HistoryRow] | None = None) -> dict[str, Any]:
    """For staff: history entry ``step`` with the whole board (every card, face-down and stock
    included) before and after it; step 0 is the deal. A history that stops replaying gives
    ``error`` from that step on."""
    if not 0 <= step <= game.move_number:
        raise invalid_step(game)
    variant = get_variant(game.deal.variant)
    rows = _history_rows(game) if rows is None else rows
    timeline = review_timeline(game, rows[:step])
    states = [opening(variant, game.deal)]
    error = None
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


def flag_summary(flag: GameFlag) -> dict[str, Any]:
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


def staff_review(game: Game, step: int) -> dict[str, Any]:
    """The staff API's review of a game: everything about it, the board at ``step`` with
    every card, the timed history, the flags and the verification."""
    rows = _history_rows(game)
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


@dataclass(frozen=True)
class Finding:
    """What a fair-play check found: a ``GameFlag.Reason`` and the evidence, in words."""

    reason: str
    detail: str


def fair_play_findings(game: Game) -> list[Finding]:
    """The automatic checks of a ranked attempt: its history verifies, no burst of moves
    faster than a person plays, and a win not implausibly fast for the moves a person had to
    think of. Both timings read the history as the server received it (``review_timeline``),
    the one source of the moves and their times."""
    rows = _history_rows(game)
    findings = []
    check = verification(game, rows)
    if not check.ok:
        findings.append(Finding(GameFlag.Reason.HISTORY_INVALID, str(check.problem)))
    timeline = review_timeline(game, rows)
    if burst := _longest_burst(timeline):
        findings.append(Finding(GameFlag.Reason.MOVE_BURST, burst))
    if game.status == Game.Status.WON and (too_fast := _implausible_win(game, timeline)):
        findings.append(Finding(GameFlag.Reason.IMPLAUSIBLE_TIME, too_fast))
    return findings


def _implausible_win(game: Game, timeline: list[dict[str, Any]]) -> str | None:
    """A win faster than FAIR_PLAY_MIN_SECONDS_PER_MOVE a move, in words; else None.

    The final run of moves that only send cards to the foundations (``final_run_home``:
    what Finish sends, 220 ms apart, and what anyone's last moves often are) asks no thought
    of a person, so it is left out: the check takes the moves before it, over the time from
    the deal to the last of them. A win that is all such a run has nothing to check here
    (the burst check still looks at its pace). A game with no foundations, or one whose last
    move sends no card home, is checked over all its moves to the last one."""
    if not timeline:
        return None
    entries = [entry["move"] for entry in timeline]
    run_start = final_run_home(entries)
    moves = len(standing_entries(entries[:run_start]))
    if not moves:
        return None
    seconds = (timeline[run_start - 1]["received_at"] - game.created_at).total_seconds()
    minimum = settings.FAIR_PLAY_MIN_SECONDS_PER_MOVE
    if seconds >= moves * minimum:
        return None
    pace = f"{seconds / moves:.3f} s a move, under {minimum} s"
    total = (timeline[-1]["received_at"] - game.created_at).total_seconds()
    all_moves = len(standing_entries(entries))
    if run_start == len(entries):
        return f"won in {total:.1f} s with {all_moves} moves: {pace}"
    run = all_moves - moves
    return (
        f"won in {total:.1f} s with {all_moves} moves; leaving out the last {run}, which only "
        f"sent cards to the foundations (as Finish does), the {moves} before them took "
        f"{seconds:.1f} s: {pace}"
    )


def _longest_burst(timeline: list[dict[str, Any]]) -> str | None:
    """The longest run of moves each under FAIR_PLAY_BURST_MS after the one before, when it
    reaches FAIR_PLAY_BURST_MOVES, in words; else None. Finish (play.js FINISH_STEP_MS) waits
    longer than that between its moves, so it never makes a burst (tests/games/test_fair_play
    pins it)."""
    limit_ms, needed = settings.FAIR_PLAY_BURST_MS, settings.FAIR_PLAY_BURST_MOVES
    best: tuple[int, int, float] | None = None  # (length, first step, fastest gap)
    run, start, fastest = 0, 0, float("inf")
    for entry in timeline:
        if entry["gap_ms"] < limit_ms:
            if run == 0:
                start, fastest = entry["number"], float("inf")
            run += 1
            fastest = min(fastest, entry["gap_ms"])
            if best is None or run > best[0]:
                best = (run, start, fastest)
        else:
            run = 0
    if best is None or best[0] < needed:
        return None
    length, first, fastest = best
    return (
        f"{length} moves in a row under {limit_ms:g} ms apart (steps {first} to "
        f"{first + length - 1}, the fastest {fastest:g} ms after the one before)"
    )


# -- daily challenges and leaderboards -------------------------------------------------------


# A day's ranking, best first: won before not won, then more cards home, fewer moves, less
# time (start to last move), and who got there first.
RANKING_ORDER = ("-won", "-cards_home", "board_moves", "duration", "reached", "pk")


def _with_ranking_keys(games: QuerySet[Game]) -> QuerySet[Game]:
    """The computed keys RANKING_ORDER sorts by: ``won``, ``reached`` and ``duration``."""
    reached = Coalesce("last_move_at", "created_at")
    return games.annotate(
        won=Case(When(status=Game.Status.WON, then=Value(1)), default=Value(0)),
        reached=reached,
        duration=ExpressionWrapper(reached - F("created_at"), output_field=DurationField()),
    )


def ranked_attempts(date: dt.date, variant: str) -> QuerySet[Game]:
    """A day's ranked attempts at one game, best first (RANKING_ORDER)."""
    attempts = Game.objects.filter(
        daily__date=date, daily__variant=variant, ranked=True, excluded=False
    )
    return _with_ranking_keys(attempts).order_by(*RANKING_ORDER)


def staff_daily_board(challenge: DailyChallenge) -> list[tuple[str, Game]]:
    """A challenge's ranked attempts for staff, with their owners: (rank, game) best first,
    then ("excluded", game) for those taken off the leaderboard."""
    ranked = ranked_attempts(challenge.date, challenge.variant).select_related("owner")
    excluded = challenge.games.filter(ranked=True, excluded=True).select_related("owner")
    rows = [(str(rank), game) for rank, game in enumerate(ranked, start=1)]
    return rows + [("excluded", game) for game in excluded]


def _entry(rank: int, row: dict[str, Any]) -> dict[str, Any]:
    return {"rank": rank, "user": row["owner__username"], **_result(row)}


def _result(row: dict[str, Any]) -> dict[str, Any]:
    """How an attempt did, as a leaderboard entry shows it."""
    return {
        "status": row["status"],
        "won": bool(row["won"]),
        "cards_home": row["cards_home"],
        "moves": row["board_moves"],
        "time_seconds": round(row["duration"].total_seconds(), 3),
    }


RESULT_FIELDS = ("status", "won", "cards_home", "board_moves", "duration")  # what _result reads
LEADERBOARD_FIELDS = ("owner_id", "owner__username", *RESULT_FIELDS)


def no_such_page(page: int, pages: int) -> ApiError:
    """A page after the last one (the games list and the leaderboards answer it alike)."""
    message = f"There is no page {page}: the last is page {pages}."
    return ApiError("not_found", message, 404, pages=pages)


def page_start(count: int, page: int, size: int) -> tuple[int, int]:
    """The first row of ``page`` and how many pages ``count`` rows fill (page 1 of none is a
    page, empty); a page after the last one is ``no_such_page``."""
    pages = max(1, -(-count // size))
    if page > pages:
        raise no_such_page(page, pages)
    return (page - 1) * size, pages


def daily_leaderboard(
    date: dt.date, variant: str, user: AbstractBaseUser | None, *, page: int = 1, size: int = 50
) -> dict[str, Any]:
    """One page of the day's ranking, with the signed-in player's own entry wherever it is."""
    attempts = ranked_attempts(date, variant)
    count = attempts.count()
    start, pages = page_start(count, page, size)
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
        "pages": pages,
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


def may_review_games(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Staff who may view games in the admin: being staff is not enough."""
    return bool(user.is_active and user.is_staff and user.has_perm("games.view_game"))


def watchable_game(user: AbstractBaseUser, game_id: int) -> Game | None:
    """A game whose changes this user may watch live: their own, or any game for staff who
    may review games."""
    games = Game.objects.select_related("deal", "daily").filter(pk=game_id)
    if not may_review_games(user):
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
    )
    standing = [F("wins").desc(), F("win_rate").desc(), F("best_time").asc(nulls_last=True)]
    # Equal records share a rank (1, 1, 3); the name only orders them on the page.
    players = players.annotate(rank=Window(Rank(), order_by=standing)).order_by(
        *standing, "owner__username"
    )
    count = players.count()
    start, pages = page_start(count, page, size)
    return {
        "variant": variant,
        "min_games": minimum,
        "count": count,
        "page": page,
        "pages": pages,
        "results": [
            {
                "rank": row["rank"],
                "user": row["owner__username"],
                "played": row["played"],
                "wins": row["wins"],
                "win_rate": round(row["win_rate"], 4),
                "best_time_seconds": (
                    None if row["best_time"] is None else round(row["best_time"].total_seconds(), 3)
                ),
            }
            for row in players[start : start + size]
        ],
    }


def daily_boards_entered(user: AbstractBaseUser) -> list[tuple[dt.date, str]]:
    """The (date, game) of every daily leaderboard the player has an attempt on."""
    boards = (
        Game.objects.filter(owner=user, ranked=True, daily__isnull=False)
        .values_list("daily__date", "daily__variant")
        .distinct()
    )
    return list(boards)


def daily_streaks(user: AbstractBaseUser) -> dict[str, Any]:
    """Runs of consecutive UTC days with a won daily challenge: per game and overall. A win
    staff excluded from the leaderboards counts for no streak either."""
    won_days: dict[str, set[dt.date]] = defaultdict(set)
    for variant, date in Game.objects.filter(
        owner=user, ranked=True, daily__isnull=False, status=Game.Status.WON, excluded=False
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
        attempt = mine.get(slug)
        proven = bool(challenge and challenge.proven)
        items.append(
            {
                "variant": slug,
                "name": variant.name,
                # The seed (and the certificate) once the day has closed; a day that had no
                # challenge has no seed.
                "seed": challenge.deal.seed if closed and challenge else None,
                "attempts": counts.get(slug, 0),
                "can_attempt": signed_in and is_today and attempt is None,
                "your_attempt": _attempt_summary(attempt, date, slug) if attempt else None,
                # Prepared ahead (games.dailies); until then a start is refused (503).
                "ready": challenge is not None,
                # Coarse labels only (RULES.md, "Winnable, solutions and hints").
                "proven_winnable": proven,
                "difficulty": challenge.difficulty or None if challenge else None,
                "solution_available": closed and proven,
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


def daily_solution(date: dt.date, variant: str, step: int | None = None) -> dict[str, Any]:
    """How the day's deal could be won (the solver's certificate), once the day has closed:
    the line shows every card, so before that it is ``not_yet`` for everybody. With ``step``,
    also the board (every card) after that many of the line's moves, and what the last of
    them set off: for the step-through replay."""
    name = VARIANTS[variant].name
    if not daily.day_closed(date):
        raise ApiError(
            "not_yet",
            f"The {date} {name} challenge's solution is shown once its day has closed "
            "(midnight UTC).",
            404,
        )
    challenge = (
        DailyChallenge.objects.select_related("deal").filter(date=date, variant=variant).first()
    )
    if challenge is None or not challenge.proven or not challenge.solution:
        raise ApiError(
            "no_solution",
            f"The {date} {name} challenge has no winning line: the solver did not prove it "
            "winnable.",
            404,
        )
    body: dict[str, Any] = {
        "date": date,
        "variant": variant,
        "seed": challenge.deal.seed,
        "moves": challenge.solution,
        "length": len(challenge.solution),
        "solver": {
            "positions": challenge.solver.get("positions"),
            "seconds": challenge.solver.get("seconds"),
        },
    }
    if step is not None:
        if step > len(challenge.solution):
            raise ApiError("invalid_step", f"Choose a step from 0 to {len(challenge.solution)}.")
        rules = get_variant(variant)
        state, events = opening(rules, challenge.deal), []
        for move in challenge.solution[:step]:
            state, events = rules.play(state, move)
        body.update(step=step, state=rules.state_to_json(state), events=events)
    return body


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


# -- public player profiles ------------------------------------------------------------------

RECENT_RESULTS = 20


def public_player(username: str) -> AbstractBaseUser | None:
    """The active account with exactly this username, else None (unknown or closed)."""
    if "\x00" in username:  # PostgreSQL refuses NUL in a query: no username has one
        return None
    return get_user_model().objects.filter(username=username, is_active=True).first()


def player_profile(player: AbstractBaseUser) -> dict[str, Any]:
    """What anyone may see of a player: their public competition, the daily challenges as the
    leaderboards count them (finished, not excluded). Nothing of casual games, no seed, no
    game id, no board. Three queries (stats, streaks, recent results), whatever the history."""
    return {
        "username": player.get_username(),
        "joined": player.date_joined.astimezone(dt.UTC).date(),
        "daily": _public_daily_stats(player),
        "daily_streaks": daily_streaks(player),
        "recent": _public_recent(player),
    }


def _public_attempts(player: AbstractBaseUser) -> QuerySet[Game]:
    """The player's ranked daily attempts that are over and still on the leaderboards."""
    return Game.objects.filter(
        owner=player, ranked=True, daily__isnull=False, excluded=False
    ).exclude(status=Game.Status.PLAYING)


def _public_daily_stats(player: AbstractBaseUser) -> list[dict[str, Any]]:
    won = Q(status=Game.Status.WON)
    rows = {
        row["daily__variant"]: row
        for row in _with_ranking_keys(_public_attempts(player))
        .order_by()
        .values("daily__variant")
        .annotate(
            played=Count("pk"),
            wins=Count("pk", filter=won),
            best_moves=Min("board_moves", filter=won),
            # The day's leaderboard's time (start to last move), as its entries show it.
            best_time=Min("duration", filter=won),
        )
    }
    stats = []
    for slug, variant in VARIANTS.items():
        row = rows.get(slug, {"played": 0, "wins": 0, "best_moves": None, "best_time": None})
        stats.append(
            {
                "variant": slug,
                "name": variant.name,
                "played": row["played"],
                "won": row["wins"],
                "win_rate": round(row["wins"] / row["played"], 4) if row["played"] else None,
                "best_moves": row["best_moves"],
                "best_time_seconds": (
                    None if row["best_time"] is None else round(row["best_time"].total_seconds(), 3)
                ),
            }
        )
    return stats


def _ahead_of_outer_attempt() -> Q:
    """An attempt sorted before the outer query's attempt by RANKING_ORDER: better at the
    first key, or equal there and ahead at the next one, and so on."""
    ahead = Q()
    for key in reversed(RANKING_ORDER):
        name = key.lstrip("-")
        better = Q(**{f"{name}__{'gt' if key.startswith('-') else 'lt'}": OuterRef(name)})
        ahead = better | (Q(**{name: OuterRef(name)}) & ahead) if ahead else better
    return ahead


def _rank_on_its_board() -> Expression:
    """An attempt's place on its day's leaderboard: one more than the attempts there that
    RANKING_ORDER sorts before it (a count per row, on the board's index)."""
    board = Game.objects.filter(daily=OuterRef("daily"), ranked=True, excluded=False)
    ahead = (
        _with_ranking_keys(board)
        .filter(_ahead_of_outer_attempt())
        .order_by()
        .values("daily")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(ahead), 0) + 1


def _public_recent(player: AbstractBaseUser) -> list[dict[str, Any]]:
    """The last results, newest day first, each with its rank on the day's leaderboard."""
    rows = (
        _with_ranking_keys(_public_attempts(player))
        .annotate(rank=_rank_on_its_board())
        .order_by("-daily__date", "-reached", "-pk")
        .values("daily__date", "daily__variant", "rank", *RESULT_FIELDS)[:RECENT_RESULTS]
    )
    return [
        {
            "date": row["daily__date"],
            "variant": row["daily__variant"],
            "name": VARIANTS[row["daily__variant"]].name,
            "rank": row["rank"],
            **_result(row),
        }
        for row in rows
    ]
