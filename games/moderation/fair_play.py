"""Fair play: heuristics that flag a game for review, and recording their flags."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction

from games.core.history import (
    ENDINGS,
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
    faster than a person plays, no window of moves faster than a person reads and clicks,
    and a win not implausibly fast for the moves a person had to think of. The timings read
    the history as the server received it (``review_timeline``), the one source of the moves
    and their times, and start at the first move: how long a game lay untouched before it
    says nothing of how fast it was played."""
    rows = history_rows(game)
    findings = []
    check = verification(game, rows)
    if not check.ok:
        findings.append(Finding(GameFlag.Reason.HISTORY_INVALID, str(check.problem)))
    timeline = review_timeline(game, rows)
    if burst := _longest_burst(timeline):
        findings.append(Finding(GameFlag.Reason.MOVE_BURST, burst))
    if window := _fastest_window(timeline):
        findings.append(Finding(GameFlag.Reason.FAST_WINDOW, window))
    if game.status == Game.Status.WON and (too_fast := _implausible_win(timeline)):
        findings.append(Finding(GameFlag.Reason.IMPLAUSIBLE_TIME, too_fast))
    return findings


def _played(timeline: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The entries the player sent (moves and undos), without the service's endings (a
    resignation, a day's close), whose time says nothing of the play."""
    return [entry for entry in timeline if _kind(entry["move"]) not in ENDINGS]


def _kind(entry: Any) -> Any:
    return entry.get("type") if isinstance(entry, dict) else None


def _implausible_win(timeline: list[dict[str, Any]]) -> str | None:
    """A win faster than FAIR_PLAY_MIN_SECONDS_PER_MOVE a move, in words; else None.

    Timed from the first move, not from the deal: a script that lets the game lie untouched
    for a while and then plays its line at once gains nothing by the wait. The first move's
    own thought is the wait before it, so it is not counted either: the check takes the moves
    on the board after the first, over the time from the first to the last of them.

    The final run of moves that only send cards to the foundations (``final_run_home``:
    what Finish sends, 220 ms apart, and what anyone's last moves often are) asks no thought
    of a person, so it is left out: the check stops at the move before it. A win that is
    (nearly) all such a run has nothing to check here (the burst check still looks at its
    pace). A game with no foundations, or one whose last move sends no card home, is checked
    over all its moves to the last one."""
    if not timeline:
        return None
    entries = [entry["move"] for entry in timeline]
    run_start = final_run_home(entries)
    moves = len(standing_entries(entries[:run_start]))
    if moves < 2:
        return None
    first = timeline[0]["received_at"]
    seconds = (timeline[run_start - 1]["received_at"] - first).total_seconds()
    minimum = settings.FAIR_PLAY_MIN_SECONDS_PER_MOVE
    timed = moves - 1  # the moves after the first
    if seconds >= timed * minimum:
        return None
    pace = f"{seconds / timed:.3f} s a move, under {minimum} s"
    total = (timeline[-1]["received_at"] - first).total_seconds()
    all_moves = len(standing_entries(entries))
    played = f"won in {total:.1f} s from the first move with {all_moves} moves"
    if run_start == len(entries):
        return f"{played}: {pace}"
    run = all_moves - moves
    return (
        f"{played}; leaving out the last {run}, which only sent cards to the foundations (as "
        f"Finish does), the {moves} before them took {seconds:.1f} s after the first: {pace}"
    )


def _fastest_window(timeline: list[dict[str, Any]]) -> str | None:
    """The fastest window of FAIR_PLAY_WINDOW_MOVES entries in a row the player sent, each
    timed from the one before, that took under FAIR_PLAY_WINDOW_SECONDS together or came
    mostly (its median) under FAIR_PLAY_BURST_MS after the one before, in words; else None.

    A burst needs every gap short, so a script that pauses every few moves dodges it; a
    window adds up what a person must do FAIR_PLAY_WINDOW_MOVES times, read the board and
    click, however the pauses are spread, and its median sees a script that makes up for its
    runs with long waits. Left out: the first entry's gap (from the deal: a game may lie
    untouched) and the final run home (Finish's moves). Automatic play's moves are counted
    like any other: the page sends them one at a time, as Finish does, at least
    FINISH_STEP_MS (220 ms) apart, slower than a window allows (docs/staff.md has the
    figures)."""
    size = settings.FAIR_PLAY_WINDOW_MOVES
    played = _played(timeline)
    played = played[: final_run_home([entry["move"] for entry in played])]
    gaps = [entry["gap_ms"] for entry in played[1:]]
    if size < 1:
        return None
    windows = [(start, gaps[start : start + size]) for start in range(len(gaps) - size + 1)]
    fast = [(start, window) for start, window in windows if _too_fast(window)]
    if not fast:
        return None
    start, window = min(fast, key=lambda found: sum(found[1]))
    first, last = played[start + 1]["number"], played[start + size]["number"]
    return (
        f"{size} moves in a row in {sum(window) / 1000:.2f} s (steps {first} to "
        f"{last}, the median {statistics.median(window):g} ms after the one "
        f"before): faster than a person reads and clicks (under "
        f"{settings.FAIR_PLAY_WINDOW_SECONDS:g} s together, or most under "
        f"{settings.FAIR_PLAY_BURST_MS:g} ms)"
    )


def _too_fast(gaps_ms: list[float]) -> bool:
    return (
        sum(gaps_ms) < settings.FAIR_PLAY_WINDOW_SECONDS * 1000
        or statistics.median(gaps_ms) < settings.FAIR_PLAY_BURST_MS
    )


def _longest_burst(timeline: list[dict[str, Any]]) -> str | None:
    """The longest run of moves each under FAIR_PLAY_BURST_MS after the one before, when it
    reaches FAIR_PLAY_BURST_MOVES, in words; else None. Finish (play/finish.js FINISH_STEP_MS) waits
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


def record_automatic_flags(game: Game, *, casual: bool = False) -> list[GameFlag]:
    """Raise a flag for each fair-play check a ranked attempt fails (``casual``: any game, a
    race's), in the caller's transaction. A check raises its flag once per game: one staff
    cleared stays cleared."""
    if not game.ranked and not casual:
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
