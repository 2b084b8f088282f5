"""Progress over time (games.profiles.progress): the charts' series as a pure function of the
finished games, and GET /api/me/progress/ and /api/players/{username}/progress/."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from games.models import Game
from games.profiles.progress import WEEKS, Row, series, spread, week_start
from tests.games.helpers import (
    DAY,
    SLUGS,
    DailyClock,
    anonymous_client,
    assert_error,
    client_for,
    daily_game,
    make_user,
    new_game,
    staff_challenge,
)

TODAY = dt.date(2026, 12, 2)  # a Wednesday


def row(
    day: dt.date, status: str = "won", moves: int = 100, ms: int | None = 60_000, **kw: Any
) -> Row:
    return Row(kw.get("variant", SLUGS[0]), status, kw.get("home", 52), moves, ms, day)


def of(progress: list[dict[str, Any]], slug: str = SLUGS[0]) -> dict[str, Any]:
    return next(p for p in progress if p["variant"] == slug)


def test_weeks_start_on_monday_across_months_and_years() -> None:
    assert week_start(dt.date(2026, 12, 2)) == dt.date(2026, 11, 30)
    assert week_start(dt.date(2027, 1, 2)) == dt.date(2026, 12, 28)
    assert week_start(dt.date(2026, 11, 30)) == dt.date(2026, 11, 30)


def test_win_rate_by_week_counts_each_week_and_leaves_out_older_than_the_window() -> None:
    rows = [
        row(dt.date(2026, 11, 29)),  # Sunday: the week of 23 Nov
        row(dt.date(2026, 11, 30), "lost", home=20),
        row(dt.date(2026, 12, 1)),
        row(dt.date(2026, 12, 2), "resigned", home=3),
        row(week_start(TODAY) - dt.timedelta(weeks=WEEKS)),  # one week too old
    ]
    weeks = of(series(rows, TODAY))["weeks"]
    assert weeks == [
        {"week": dt.date(2026, 11, 23), "played": 1, "won": 1, "win_rate": 1.0},
        {"week": dt.date(2026, 11, 30), "played": 3, "won": 1, "win_rate": 0.3333},
    ]
    progress = of(series(rows, TODAY))
    assert (progress["played"], progress["won"]) == (5, 3)  # the old one counts in the totals


def test_wins_have_their_spread_and_best_and_losses_their_cards_home() -> None:
    rows = [row(TODAY, moves=m, ms=m * 1000) for m in (90, 100, 110, 120, 200)]
    rows += [row(TODAY, "lost", home=h) for h in (10, 10, 31)]
    progress = of(series(rows, TODAY))
    assert progress["moves"] == {"min": 90, "q1": 100, "median": 110, "q3": 120, "max": 200}
    assert progress["time_seconds"]["median"] == 110
    assert (progress["best_moves"], progress["best_time_seconds"]) == (90, 90)
    assert progress["losses_cards_home"] == [
        {"cards_home": 10, "games": 2},
        {"cards_home": 31, "games": 1},
    ]
    assert [w["moves"] for w in progress["wins"]] == [90, 100, 110, 120, 200]


def test_a_game_never_played_has_empty_series() -> None:
    progress = of(series([], TODAY), SLUGS[1])
    assert progress["weeks"] == [] and progress["wins"] == []
    assert progress["moves"] is None and progress["best_moves"] is None
    assert progress["cards"] in (52, 104)


def test_spread_interpolates_between_ranks() -> None:
    assert spread([1.0, 2.0]) == {"min": 1.0, "q1": 1.25, "median": 1.5, "q3": 1.75, "max": 2.0}
    assert spread([]) is None


# -- the API ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_my_progress_counts_casual_games_and_the_public_one_only_ranked_dailies(
    clock: DailyClock,
) -> None:
    ada = make_user("ada")
    casual = new_game(client_for(ada), SLUGS[0])
    Game.objects.filter(pk=casual["id"]).update(
        status="won", finished_at=dt.datetime(2031, 5, 9, 9, tzinfo=dt.UTC), board_moves=80
    )
    staff_challenge(DAY - dt.timedelta(days=1), SLUGS[0], 5)
    daily_game(ada, DAY - dt.timedelta(days=1), SLUGS[0], status="lost", cards_home=12,
               finished_at=dt.datetime(2031, 5, 9, 10, tzinfo=dt.UTC))  # fmt: skip
    mine = client_for(ada).get("/api/me/progress/").json()
    assert (of(mine["games"])["played"], of(mine["games"])["won"]) == (2, 1)
    public = anonymous_client().get("/api/players/ada/progress/").json()
    assert (of(public["games"])["played"], of(public["games"])["won"]) == (1, 0)
    assert of(public["games"])["losses_cards_home"] == [{"cards_home": 12, "games": 1}]
    assert public["daily_days"] == [{"date": "2031-05-09", "played": 1, "won": 0}]
    assert public["badges"] == []


@pytest.mark.django_db
def test_progress_says_nothing_of_any_card_seed_or_game(clock: DailyClock) -> None:
    ada = make_user("ada")
    daily_game(
        ada, DAY, SLUGS[0], status="won", finished_at=dt.datetime(2031, 5, 10, tzinfo=dt.UTC)
    )
    text = anonymous_client().get("/api/players/ada/progress/").content.decode()
    for word in ("seed", "state", "game_id", "deal", "stock", "solution"):
        assert f'"{word}' not in text


@pytest.mark.django_db
def test_progress_of_an_unknown_player_is_not_found() -> None:
    assert_error(anonymous_client().get("/api/players/nobody/progress/"), 404, "not_found")
    assert anonymous_client().get("/api/me/progress/").status_code in (401, 403)


@pytest.mark.django_db
def test_a_month_with_every_day_played_gives_gold_on_the_profile(clock: DailyClock) -> None:
    ada = make_user("ada")
    february = [dt.date(2031, 2, d) for d in range(1, 29)]
    for day in february:
        for n, slug in enumerate(SLUGS):
            staff_challenge(day, slug, 2000 + n)
            daily_game(ada, day, slug, status="lost")
    badges = anonymous_client().get("/api/players/ada/progress/").json()["badges"]
    assert badges == [{"month": "2031-02", "badge": "gold", "full_days": 28}]


@pytest.mark.django_db
def test_a_game_counts_on_the_utc_day_it_finished_whatever_the_time_zone_it_was_written_in(
    clock: DailyClock,
) -> None:
    ada = make_user("ada")
    game = new_game(client_for(ada), SLUGS[1])
    # 23:30 on Sunday 4 May in New York is 03:30 on Monday 5 May, UTC: the week of 5 May.
    new_york = dt.timezone(dt.timedelta(hours=-4))
    Game.objects.filter(pk=game["id"]).update(
        status="won", finished_at=dt.datetime(2031, 5, 4, 23, 30, tzinfo=new_york), board_moves=9
    )
    weeks = of(client_for(ada).get("/api/me/progress/").json()["games"], SLUGS[1])["weeks"]
    assert weeks == [{"week": "2031-05-05", "played": 1, "won": 1, "win_rate": 1.0}]
