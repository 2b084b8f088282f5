"""Preparing the daily challenges (games.daily.challenges): each day's deal is the first
candidate seed the solver proves winnable, stored with its certificate before the day opens,
by the server's day-closing thread and ``manage.py prepare_dailies``; never by a player's request.

Only Grandfather's Clock meets the real solver on a real budget here (it is proven in well
under a second); elsewhere the answers are the test run's small budget (tests/conftest.py) or
stand-ins that say which candidates the solver "proves".
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games.core import days
from games.daily import challenges, day_closer
from games.models import DailyChallenge
from games.rules import VARIANTS, get_variant, move_from_json
from games.solver import Answer, SolverBug, difficulty, ladder
from tests.games.helpers import (
    DAY,
    SLUGS,
    DailyClock,
    anonymous_client,
    assert_error,
    client_for,
    daily_url,
)

pytestmark = pytest.mark.django_db

CLOCK = "grandfathers-clock"


@pytest.fixture
def real_budget(settings: Any) -> None:
    """The service's own budget (10 s, 2 000 000 positions): for Grandfather's Clock only."""
    settings.DAILY_SOLVER_POSITIONS = 2_000_000
    settings.DAILY_SOLVER_SECONDS = 10.0


def proving(monkeypatch: pytest.MonkeyPatch, winnable: set[int] | None) -> list[int]:
    """The solver stands in: it proves the seeds in ``winnable`` (every seed when None) won
    by the line of Grandfather's Clock's candidate 0 and no other; the seeds asked come back."""
    asked: list[int] = []

    def stand_in(
        slug: str, seed: int, *, pool: str = "daily", positions: int | None = None
    ) -> challenges.Certificate:
        asked.append(seed)
        if winnable is None or seed in winnable:
            return challenges.Certificate(
                slug, seed, "won", [{"type": "deal"}], {"positions": 9, "seconds": 0.01}, "easy"
            )
        return challenges.Certificate(
            slug, seed, "unknown", None, {"positions": 9, "seconds": 0.01}, ""
        )

    monkeypatch.setattr(challenges, "solve_seed", stand_in)
    return asked


def replays_to_a_win(slug: str, seed: int, moves: list[dict[str, Any]]) -> bool:
    variant = get_variant(slug)
    state = variant.deal(seed)
    for move in moves:
        state = variant.apply(state, move_from_json(move))
    return variant.status(state) == "won"


# -- the candidates ---------------------------------------------------------------------------


def test_each_candidate_of_a_day_has_its_own_seed_and_candidate_0_keeps_the_old_one(
    settings: Any,
) -> None:
    import hashlib
    import hmac

    seeds = [days.daily_seed(DAY, CLOCK, n) for n in range(20)]
    assert len(set(seeds)) == 20
    assert days.daily_seed(DAY, CLOCK) == seeds[0]
    old = hmac.new(
        settings.DAILY_SECRET.encode(), f"patience-daily-v1:{DAY}:{CLOCK}".encode(), hashlib.sha256
    ).digest()
    assert seeds[0] == int.from_bytes(old[:8], "big") & (2**53 - 1), "the days before keep theirs"
    with pytest.raises(ValueError):
        days.daily_seed(DAY, CLOCK, -1)


def test_a_day_deals_the_first_candidate_the_solver_proves_winnable(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.DAILY_SOLVER_CANDIDATES = 10
    third = days.daily_seed(DAY, "gold-mine", 2)
    asked = proving(monkeypatch, {third, days.daily_seed(DAY, "gold-mine", 3)})
    challenge, created = challenges.prepare(DAY, "gold-mine")
    assert created
    assert asked == [days.daily_seed(DAY, "gold-mine", n) for n in range(3)], "stops at a proof"
    assert (challenge.candidate, challenge.deal.seed) == (2, third)
    assert challenge.outcome == "proven" and challenge.proven
    assert challenge.difficulty == "easy"
    assert challenge.solution == [{"type": "deal"}]
    assert challenge.solver == {"positions": 9, "seconds": 0.01}
    assert challenge.seed_set_by_staff is False
    assert challenges.prepare(DAY, "gold-mine") == (challenge, False), "prepared once"
    assert len(asked) == 3


def test_the_real_solver_certifies_grandfathers_clock_with_a_line_that_wins(
    real_budget: None,
) -> None:
    challenge, _ = challenges.prepare(DAY, CLOCK)
    challenge.refresh_from_db()
    assert challenge.outcome == "proven"
    assert challenge.difficulty in ("easy", "medium", "hard", "expert")
    assert challenge.deal.seed == days.daily_seed(DAY, CLOCK, challenge.candidate)
    assert replays_to_a_win(CLOCK, challenge.deal.seed, challenge.solution)
    assert set(challenge.solver) == {"positions", "seconds"}
    assert challenge.solver["positions"] > 0


def test_a_day_with_no_candidate_proven_deals_candidate_0_marked_not_proven_and_says_so(
    monkeypatch: pytest.MonkeyPatch, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    settings.DAILY_SOLVER_CANDIDATES = 4
    asked = proving(monkeypatch, set())
    with caplog.at_level(logging.ERROR, logger="patience.daily"):
        challenge, _ = challenges.prepare(DAY, "blondes-and-brunettes")
    assert len(asked) == 4
    assert challenge.candidate == 0
    assert challenge.deal.seed == days.daily_seed(DAY, "blondes-and-brunettes")
    assert challenge.outcome == "unknown" and not challenge.proven
    assert challenge.solution is None and challenge.difficulty == ""
    assert "no candidate of 2031-05-10 blondes-and-brunettes proven winnable" in caplog.text


# -- the ladder of budgets (games.solver.ladder) -----------------------------------------------

BLONDES = "blondes-and-brunettes"


def laddered(
    monkeypatch: pytest.MonkeyPatch, won: set[tuple[int, int | None]]
) -> list[tuple[int, int | None]]:
    """The solver stands in: it proves won the (seed, positions) in ``won`` (positions None:
    the full budget) and no other; each (seed, positions) asked comes back."""
    asked: list[tuple[int, int | None]] = []

    def stand_in(
        slug: str, seed: int, *, pool: str = "daily", positions: int | None = None
    ) -> challenges.Certificate:
        asked.append((seed, positions))
        figures = {"positions": 9, "seconds": 0.01}
        if (seed, positions) in won:
            return challenges.Certificate(slug, seed, "won", [{"type": "deal"}], figures, "easy")
        return challenges.Certificate(slug, seed, "unknown", None, figures, "")

    monkeypatch.setattr(challenges, "solve_seed", stand_in)
    return asked


@pytest.fixture
def full_budget(settings: Any) -> None:
    """The service's budget in positions (5,000,000), above every game's first rung."""
    settings.DAILY_SOLVER_POSITIONS = 5_000_000
    settings.DAILY_SOLVER_SECONDS = 600.0
    settings.DAILY_SOLVER_CANDIDATES = 50


def test_the_first_rung_proves_a_blondes_and_brunettes_deal_with_a_line_that_wins(
    monkeypatch: pytest.MonkeyPatch, full_budget: None
) -> None:
    """The real solver, on the real budget: the day's first candidates on the rung only (20,000
    positions), the first won among them dealt, its certificate kept as on the full budget."""
    asked: list[tuple[Any, ...]] = []
    real = challenges.certify.solve_seed

    def counted(*args: Any) -> dict[str, Any]:
        asked.append(args)
        return real(*args)

    monkeypatch.setattr(challenges.certify, "solve_seed", counted)
    rung = ladder.first_rung(BLONDES, 5_000_000)
    challenge, _ = challenges.prepare(DAY, BLONDES)
    challenge.refresh_from_db()
    assert challenge.outcome == "proven" and challenge.proven
    assert challenge.candidate < ladder.FIRST_CANDIDATES
    seeds = [days.daily_seed(DAY, BLONDES, n) for n in range(challenge.candidate + 1)]
    assert asked == [(BLONDES, seed, rung, 600.0) for seed in seeds], "never the full budget"
    assert challenge.deal.seed == seeds[-1]
    assert replays_to_a_win(BLONDES, challenge.deal.seed, challenge.solution)
    assert 0 < challenge.solver["positions"] <= rung
    won = Answer("won", [], challenge.solver["positions"])
    assert challenge.difficulty == difficulty(BLONDES, won), "read from the positions to the win"


def test_when_no_candidate_is_won_on_the_first_rung_each_is_searched_on_the_full_budget(
    monkeypatch: pytest.MonkeyPatch, full_budget: None
) -> None:
    rung = ladder.first_rung(BLONDES, 5_000_000)
    seeds = [days.daily_seed(DAY, BLONDES, n) for n in range(50)]
    # Candidate 30 would win on the rung, but lies past the rung's first candidates.
    asked = laddered(monkeypatch, {(seeds[1], None), (seeds[30], rung)})
    challenge, _ = challenges.prepare(DAY, BLONDES)
    on_rung = [(seed, rung) for seed in seeds[: ladder.FIRST_CANDIDATES]]
    assert asked == [*on_rung, (seeds[0], None), (seeds[1], None)]
    assert (challenge.candidate, challenge.deal.seed, challenge.proven) == (1, seeds[1], True)


@pytest.mark.parametrize("slug", ["grandfathers-clock", "selective-castle", "gold-mine"])
def test_a_game_without_a_first_rung_searches_each_candidate_on_the_full_budget_as_before(
    monkeypatch: pytest.MonkeyPatch, full_budget: None, slug: str
) -> None:
    seeds = [days.daily_seed(DAY, slug, n) for n in range(3)]
    asked = laddered(monkeypatch, {(seeds[2], None)})
    challenge, _ = challenges.prepare(DAY, slug)
    assert asked == [(seed, None) for seed in seeds]
    assert challenge.candidate == 2 and challenge.proven


def test_the_solvers_answer_is_memoized_per_deal_and_budget(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    calls: list[tuple[Any, ...]] = []
    real = challenges.certify.solve_seed

    def counted(*args: Any) -> dict[str, Any]:
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(challenges.certify, "solve_seed", counted)
    settings.DAILY_SOLVER_POSITIONS = 1234  # a budget no other test uses
    first = challenges.solve_seed(CLOCK, 77)
    assert challenges.solve_seed(CLOCK, 77) is first
    assert calls == [(CLOCK, 77, 1234, settings.DAILY_SOLVER_SECONDS)]
    settings.DAILY_SOLVER_POSITIONS = 1235
    challenges.solve_seed(CLOCK, 77)
    assert len(calls) == 2, "another budget, another answer"


def test_the_solver_runs_in_a_process_of_its_own(settings: Any, real_budget: None) -> None:
    import os

    settings.DAILY_SOLVER_SUBPROCESS = True
    settings.DAILY_SOLVER_POSITIONS = 1_999_999  # not memoized by another test
    seed = days.daily_seed(DAY, CLOCK)
    answer = challenges.solve_seed(CLOCK, seed, pool="test")
    assert answer.outcome == "won"
    assert replays_to_a_win(CLOCK, seed, answer.moves)
    worker = challenges._pool("test").submit(os.getpid).result()
    assert worker != os.getpid()
    challenges._pools.pop("test").shutdown()


# -- who prepares, and when -------------------------------------------------------------------


def test_preparing_ahead_makes_today_and_the_next_two_days_and_says_today_was_missing(
    clock: DailyClock, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    proving(monkeypatch, None)
    challenges.prepare(DAY, "gold-mine")
    with caplog.at_level(logging.WARNING, logger="patience.daily"):
        made = challenges.prepare_ahead()
    days = {DAY, DAY + dt.timedelta(days=1), DAY + dt.timedelta(days=2)}
    stored = set(DailyChallenge.objects.values_list("date", "variant"))
    assert stored == {(day, slug) for day in days for slug in VARIANTS}
    assert sum(created for _, created in made) == 14
    for slug in SLUGS:
        message = f"no challenge prepared for 2031-05-10 {slug}; preparing it now"
        assert (message in caplog.text) == (slug != "gold-mine"), slug
    assert "2031-05-11" not in caplog.text, "a future day is not late"


def test_the_day_closing_thread_prepares_the_coming_days_after_closing(
    clock: DailyClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    steps: list[str] = []
    done = threading.Event()
    monkeypatch.setattr(day_closer, "close_days_once", lambda: steps.append("close") or [])

    def prepared(stop: threading.Event) -> int:
        steps.append("prepare")
        done.set()
        return 0

    monkeypatch.setattr(day_closer, "prepare_days_once", prepared)
    stop = threading.Event()
    thread = threading.Thread(target=day_closer.run, args=(stop,), daemon=True)
    thread.start()
    try:
        assert done.wait(10)
    finally:
        stop.set()
        thread.join(5)
    assert steps == ["close", "prepare"]


def test_a_failing_preparation_is_logged_and_the_thread_goes_on(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken() -> list[Any]:
        raise RuntimeError("solver process died")

    monkeypatch.setattr(challenges, "prepare_ahead", broken)
    assert day_closer.prepare_days_once() == 0
    assert "preparing the daily challenges failed" in caplog.text


def test_the_prepare_dailies_command_fills_in_days_that_have_none(
    clock: DailyClock, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    proving(monkeypatch, None)
    past = DAY - dt.timedelta(days=5)
    challenges.prepare(past, CLOCK)
    call_command("prepare_dailies", "--from", past.isoformat(), "--days", "2")
    out = capsys.readouterr().out
    assert f"{past} {CLOCK}: already prepared (proven, easy)" in out
    assert f"{past} gold-mine: prepared (proven, easy)" in out
    assert out.rstrip().endswith("9 daily challenges prepared.")
    assert DailyChallenge.objects.filter(date__in=[past, past + dt.timedelta(days=1)]).count() == 10

    call_command("prepare_dailies")  # today and the next two days by default
    assert DailyChallenge.objects.filter(date__gte=DAY).count() == 15
    for bad in (["--from", "2031-02-30"], ["--from", "20310501"], ["--days", "0"]):
        with pytest.raises(CommandError):
            call_command("prepare_dailies", *bad)


# -- a player never waits on the solver -------------------------------------------------------


@pytest.mark.dailies_unprepared
def test_a_player_who_finds_no_challenge_prepared_is_told_to_come_back_in_a_minute(
    clock: DailyClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = proving(monkeypatch, None)
    response = client_for().post(daily_url(DAY, "gold-mine", "attempt"))
    error = assert_error(response, 503, "daily_not_ready")
    assert error["message"] == (
        "Today's Gold Mine challenge is still being prepared; try again in a minute."
    )
    assert response["Retry-After"] == "60"
    past = DAY - dt.timedelta(days=1)
    response = client_for().post(daily_url(past, CLOCK, "replay"))
    assert assert_error(response, 503, "daily_not_ready")["message"].startswith(
        "The 2031-05-09 Grandfather's Clock challenge is still being prepared"
    )
    assert asked == [], "no request ran the solver"
    assert not DailyChallenge.objects.exists()

    body = anonymous_client().get("/api/daily/").json()
    assert all(c["ready"] is False for c in body["challenges"])
    assert all(c["difficulty"] is None for c in body["challenges"])


def test_a_solver_bug_on_one_candidate_skips_it(
    monkeypatch: pytest.MonkeyPatch, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    settings.DAILY_SOLVER_CANDIDATES = 5
    first = days.daily_seed(DAY, "gold-mine", 0)
    proving(monkeypatch, None)
    stand_in = challenges.solve_seed

    def buggy(
        slug: str, seed: int, *, pool: str = "daily", positions: int | None = None
    ) -> challenges.Certificate:
        if seed == first:
            raise SolverBug("a line that does not win")
        return stand_in(slug, seed, pool=pool, positions=positions)

    monkeypatch.setattr(challenges, "solve_seed", buggy)
    challenge, _ = challenges.prepare(DAY, "gold-mine")
    assert challenge.candidate == 1 and challenge.proven
    assert "solving 2031-05-10 gold-mine candidate 0 failed" in caplog.text


def test_a_solver_that_cannot_run_stores_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """E.g. the server shutting down under the preparing thread: the day stays unprepared
    (the next pass prepares it), never dealt an unproven candidate."""

    def shut_down(
        slug: str, seed: int, *, pool: str = "daily", positions: int | None = None
    ) -> challenges.Certificate:
        raise RuntimeError("cannot schedule new futures after shutdown")

    monkeypatch.setattr(challenges, "solve_seed", shut_down)
    with pytest.raises(RuntimeError):
        challenges.prepare(DAY, "gold-mine")
    assert not DailyChallenge.objects.exists()


def test_an_attempt_at_a_proven_days_deal_says_it_can_be_won(real_budget: None) -> None:
    from games.core import days as calendar
    from tests.games.helpers import start_daily

    challenges.prepare(calendar.today(), CLOCK)
    game = start_daily(client_for(), calendar.today(), CLOCK)
    assert game["winnable"] is True and game["seed"] is None
