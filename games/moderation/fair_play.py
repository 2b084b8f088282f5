"""Fair play: heuristics that flag a game for review, and recording their flags."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction

from games.core.history import (
    final_run_home,
    standing_entries,
)
from games.core.locks import lock_any_game
from games.models import Game, GameFlag
from games.moderation import fair_play
from games.moderation.review import review_timeline
from games.moderation.verification import history_rows, verification


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
    rows = history_rows(game)
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
    longer than that between its moves, so it never makes a burst
    (tests/games/moderation/test_fair_play pins it)."""
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


def record_automatic_flags(game: Game) -> list[GameFlag]:
    """Raise a flag for each fair-play check a ranked attempt fails, in the caller's
    transaction. A check raises its flag once per game: one staff cleared stays cleared."""
    if not game.ranked:
        return []
    known = set(game.flags.filter(automatic=True).values_list("reason", flat=True))
    return [
        GameFlag.objects.create(game=game, reason=f.reason, detail=f.detail, automatic=True)
        for f in fair_play.fair_play_findings(game)
        if f.reason not in known
    ]


def check_fair_play(*, game_id: int) -> list[GameFlag]:
    """Run the automatic checks on one game now (``manage.py flag_games``): the new flags."""
    with transaction.atomic():
        return record_automatic_flags(lock_any_game(game_id))
