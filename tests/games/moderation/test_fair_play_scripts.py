"""Fair play against a scripted solver (issue 45): in Selective Castle every card is face up,
so a script solves the deal on the player's side and sends the line. The naive script sends
it at once; the evasive one waits before its first move and sends the rest in runs short
enough never to be a burst. Both are flagged; a fast person using automatic play and Finish
is not.

Every history is a real winning line (the solver's, on Selective Castle deal 52: 122 moves,
the last 22 of them a run home) played move by move through the service on a ranked attempt,
each move arriving when the fake clock (``django.utils.timezone.now``) says.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterable
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from games.core.history import final_run_home
from games.daily import services as daily_services
from games.models import Game, GameFlag
from games.play import services as play_services
from games.play.autoplay import safe_home_moves
from games.rules import get_variant
from games.solver.search import Budget, solve
from tests.games.helpers import make_user, staff_challenge
from tests.support.api import make_superuser, signed_in

DAY = dt.date(2031, 5, 10)
SLUG, SEED = "selective-castle", 52
# play/finish.js FINISH_STEP_MS: automatic play and Finish send a card home at most this often.
FINISH_PACE = 0.22


class Clock:
    """The server's time, moved on by hand."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, start: dt.datetime) -> None:
        self.now = start
        monkeypatch.setattr(timezone, "now", lambda: self.now)

    def tick(self, seconds: float) -> None:
        self.now += dt.timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(monkeypatch, dt.datetime(2031, 5, 10, 8, 0, tzinfo=dt.UTC))


@pytest.fixture(scope="module")
def line() -> list[dict[str, Any]]:
    """The solver's winning line of the day's deal, as a script on the player's side finds
    it (a fraction of a second: every card is face up)."""
    variant = get_variant(SLUG)
    answer = solve(variant, variant.deal(SEED), Budget(positions=500_000, seconds=30))
    moves = answer.moves_json()
    assert answer.outcome == "won" and len(moves) == 122
    assert len(moves) - final_run_home(moves) == 22
    return moves


@pytest.fixture
def challenge(db: None) -> Any:
    return staff_challenge(DAY, SLUG, SEED)


def start(clock: Clock, name: str) -> tuple[Any, int]:
    """A ranked attempt at the day's challenge, started now by the fake clock."""
    user = make_user(name)
    game = daily_services.start_daily_attempt(user=user, date=DAY, variant_slug=SLUG).game
    Game.objects.filter(pk=game.pk).update(created_at=clock.now)
    return user, game.pk


def play(clock: Clock, user: Any, game_id: int, moves: list[dict], gaps: Iterable[float]) -> Game:
    """Each move arrives its gap (seconds) after the one before (the first: after the deal)."""
    for move, gap in zip(moves, gaps, strict=True):
        clock.tick(gap)
        play_services.play_move(user=user, game_id=game_id, move=move)
    return Game.objects.get(pk=game_id)


def flags(game_id: int) -> dict[str, str]:
    found = GameFlag.objects.filter(game_id=game_id)
    assert all(flag.automatic and flag.is_open for flag in found), "for staff to judge"
    return dict(found.values_list("reason", "detail"))


def evasive_gaps(count: int, *, wait: float, within_run: float = 0.017) -> list[float]:
    """Issue 45's script: ``wait`` seconds before its first move, then runs of nine moves
    ``within_run`` apart (a few ms: one request after the other) with 160 ms between runs,
    so never more than eight gaps in a row under the burst's 150 ms."""
    return [wait] + [0.16 if i % 9 == 0 else within_run for i in range(1, count)]


@pytest.mark.django_db
def test_the_naive_script_is_flagged(clock: Clock, challenge: Any, line: list) -> None:
    """The whole line sent as fast as the answers come, a few ms apart."""
    bot, game_id = start(clock, "naive")
    game = play(clock, bot, game_id, line, [0.5] + [0.004] * (len(line) - 1))
    assert game.status == "won"
    found = flags(game_id)
    assert set(found) == {"move_burst", "fast_window", "implausible_time"}
    assert found["fast_window"] == (
        "20 moves in a row in 0.08 s (steps 2 to 21, the median 4 ms after the one before): "
        "faster than a person reads and clicks (under 3 s together, or most under 150 ms)"
    )


@pytest.mark.django_db
def test_the_evasive_script_of_issue_45_is_flagged(
    clock: Clock, challenge: Any, line: list
) -> None:
    """It waits 0.5 s a move from the game's creation, then sends its 122 moves in runs of
    nine with 160 ms between runs: won in 3.9 s of play. Timed from the deal its win took
    64.9 s, over 0.5 s a move, and no ten gaps in a row were under 150 ms: the checks as they
    were passed it. Timed from its first move, and over any 20 moves, it is flagged."""
    bot, game_id = start(clock, "evasive")
    game = play(clock, bot, game_id, line, evasive_gaps(len(line), wait=0.5 * len(line)))
    assert game.status == "won"
    assert (game.finished_at - game.created_at).total_seconds() > 0.5 * len(line)
    found = flags(game_id)
    assert set(found) == {"fast_window", "implausible_time"}, "no burst: runs of nine"
    assert found["implausible_time"] == (
        "won in 3.9 s from the first move with 122 moves; leaving out the last 22, which only "
        "sent cards to the foundations (as Finish does), the 100 before them took 3.3 s after "
        "the first: 0.033 s a move, under 0.5 s"
    )
    assert found["fast_window"] == (
        "20 moves in a row in 0.63 s (steps 2 to 21, the median 17 ms after the one before): "
        "faster than a person reads and clicks (under 3 s together, or most under 150 ms)"
    )


@pytest.mark.django_db
def test_the_evasive_script_is_flagged_by_its_window_even_when_its_pace_passes(
    clock: Clock, challenge: Any, line: list
) -> None:
    """The same script waiting after its first move too, and between its runs long enough to
    make 0.5 s a move from the first: only the window's median shows what it is (most of its
    moves come a few ms after the one before). Not a burst, not too fast a win."""
    bot, game_id = start(clock, "patient")
    gaps = [5.0] + [5.0 if i % 9 == 0 else 0.017 for i in range(1, len(line))]
    game = play(clock, bot, game_id, line, gaps)
    assert game.status == "won"
    found = flags(game_id)
    assert set(found) == {"fast_window"}
    assert found["fast_window"] == (
        "20 moves in a row in 10.31 s (steps 2 to 21, the median 17 ms after the one before): "
        "faster than a person reads and clicks (under 3 s together, or most under 150 ms)"
    )


def honest_gaps(line: list[dict[str, Any]], rng: random.Random) -> list[float]:
    """A fast person on the play page with automatic play on and Finish at the end: 0.8-3 s
    to read the board and make each move of their own; the moves automatic play would send
    (the safe moves home the server lists) each FINISH_PACE after the answer to the one
    before, plus the answer's round trip; Finish sends the final run home at FINISH_PACE."""
    variant = get_variant(SLUG)
    state = variant.deal(SEED)
    run_home = final_run_home(line)
    gaps = []
    for index, move in enumerate(line):
        automatic = move in safe_home_moves(variant, state, variant.legal_moves(state))
        if index >= run_home:
            gaps.append(FINISH_PACE)
        elif automatic and index:
            gaps.append(FINISH_PACE + rng.uniform(0.005, 0.04))
        else:
            gaps.append(rng.uniform(0.8, 3.0))
        state, _ = variant.play(state, variant.move_from_json(move))
    return gaps


@pytest.mark.django_db
def test_a_fast_person_with_automatic_play_and_finish_is_not_flagged(
    clock: Clock, challenge: Any, line: list
) -> None:
    person, game_id = start(clock, "quick-hands")
    gaps = honest_gaps(line, random.Random(45))
    assert sum(1 for gap in gaps if gap < 0.3) >= 25, "automatic play and Finish at work"
    game = play(clock, person, game_id, line, gaps)
    assert game.status == "won"
    assert flags(game_id) == {}
    call_command("flag_games", game_id)
    assert flags(game_id) == {}


@pytest.mark.django_db
def test_moves_at_the_pages_quickest_automatic_pace_make_no_fast_window(
    clock: Clock, challenge: Any, line: list
) -> None:
    """Automatic play and Finish send a card every FINISH_PACE at the quickest: twenty such
    gaps in a row (4.4 s) stay over the window's 3 s and its median over 150 ms, even in the
    middle of a game (the final run home is left out anyway)."""
    player, game_id = start(clock, "steady")
    play(clock, player, game_id, line[:60], [2.0] + [FINISH_PACE] * 59)
    clock.tick(3)
    play_services.resign_game(user=player, game_id=game_id)
    call_command("flag_games", game_id)
    assert flags(game_id) == {}


@pytest.mark.django_db
def test_the_window_is_a_setting_and_leaves_out_the_wait_and_the_run_home(
    clock: Clock, challenge: Any, line: list, settings: Any
) -> None:
    """A person's 100 moves at 1.5 s each after an hour's wait, then Finish at its pace:
    flagged only once the window asks for more than a person does; neither the hour before
    the first move nor the run home (22 moves, 4.6 s) makes a window of its own."""
    person, game_id = start(clock, "thinker")
    run_home = final_run_home(line)
    gaps = [3600.0] + [1.5] * (run_home - 1) + [FINISH_PACE] * (len(line) - run_home)
    play(clock, person, game_id, line, gaps)
    assert flags(game_id) == {}
    settings.FAIR_PLAY_WINDOW_SECONDS = 20 * 0.22 + 0.1  # the run home would make this one
    call_command("flag_games", game_id)
    assert flags(game_id) == {}
    settings.FAIR_PLAY_WINDOW_MOVES, settings.FAIR_PLAY_WINDOW_SECONDS = 10, 15.5
    call_command("flag_games", game_id)
    assert flags(game_id) == {
        "fast_window": "10 moves in a row in 15.00 s (steps 2 to 11, the median 1500 ms after "
        "the one before): faster than a person reads and clicks (under 15.5 s together, or "
        "most under 150 ms)"
    }


@pytest.mark.django_db
def test_staff_find_a_fast_window_flag_in_the_flag_list(
    clock: Clock, challenge: Any, line: list
) -> None:
    bot, game_id = start(clock, "listed")
    play(clock, bot, game_id, line[:30], [0.5] + [0.004] * 29)
    call_command("flag_games", game_id)
    assert set(flags(game_id)) == {"move_burst", "fast_window"}
    staff = signed_in(make_superuser("referee"))
    listing = staff.get("/admin/games/gameflag/", {"reason": "fast_window"})
    assert listing.status_code == 200
    page = listing.content.decode()
    assert "moves faster than a person reads and clicks" in page, "the reason, in words"
    assert "20 moves in a row in 0.08 s" in page, "its evidence"
    assert "moves in a row under 150 ms apart" not in page, "the burst's flag filtered out"
