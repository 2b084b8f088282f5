"""A month of dailies: GET /api/daily/month/ (the daily page's calendar, the month's badge and
the streak that forgives) and GET /api/me/dailies-today/ (the header's "2 of 5 dailies today")."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from games.models import Game
from tests.games.helpers import (
    DAY,
    SLUGS,
    DailyClock,
    anonymous_client,
    assert_error,
    client_for,
    daily_game,
    make_user,
    staff_challenge,
)

pytestmark = pytest.mark.django_db


def month(client: Any, query: str = "") -> dict[str, Any]:
    response = client.get(f"/api/daily/month/{query}")
    assert response.status_code == 200, response.content
    return response.json()


def deal_days(first: dt.date, count: int) -> None:
    """Challenges for every game on ``count`` days from ``first``, with seeds staff chose (so
    no solver runs)."""
    for i in range(count):
        for n, slug in enumerate(SLUGS):
            staff_challenge(first + dt.timedelta(days=i), slug, 1000 + n)


def play_all(user: Any, first: dt.date, count: int, status: str = "lost") -> None:
    for i in range(count):
        for slug in SLUGS:
            daily_game(user, first + dt.timedelta(days=i), slug, status=status)


def day_of(answer: dict[str, Any], date: dt.date) -> dict[str, Any]:
    return next(d for d in answer["days"] if d["date"] == date.isoformat())


def test_a_visitor_sees_the_months_days_and_challenges_without_any_result(
    clock: DailyClock,
) -> None:
    deal_days(DAY.replace(day=1), 3)
    answer = month(anonymous_client())
    assert answer["month"] == "2031-05"
    assert len(answer["days"]) == 31
    first = day_of(answer, DAY.replace(day=1))
    assert (first["state"], first["challenges"], first["games"]) == ("closed", 5, [])
    assert day_of(answer, DAY)["state"] == "open"
    assert day_of(answer, DAY + dt.timedelta(days=1))["state"] == "upcoming"
    assert answer["streak"] is None and answer["badge"] is None
    assert answer["next"] is None  # June has not begun
    assert answer["previous"] is None  # nothing was dealt before May


def test_each_day_shows_the_players_five_games_played_won_or_in_play(clock: DailyClock) -> None:
    ada = make_user("ada")
    deal_days(DAY - dt.timedelta(days=1), 2)
    yesterday = DAY - dt.timedelta(days=1)
    daily_game(ada, yesterday, SLUGS[0], status=Game.Status.WON)
    daily_game(ada, yesterday, SLUGS[1], status=Game.Status.LOST)
    daily_game(ada, yesterday, SLUGS[2], status=Game.Status.RESIGNED, board_moves=0)  # untouched
    daily_game(ada, DAY, SLUGS[3], status=Game.Status.PLAYING)
    answer = month(client_for(ada))
    games = {g["variant"]: g for g in day_of(answer, yesterday)["games"]}
    assert (games[SLUGS[0]]["played"], games[SLUGS[0]]["won"]) == (True, True)
    assert (games[SLUGS[1]]["played"], games[SLUGS[1]]["won"]) == (True, False)
    # An attempt that ended with no move made played nothing, as the boards count it.
    assert games[SLUGS[2]]["played"] is False
    assert games[SLUGS[4]] == {
        "variant": SLUGS[4], "name": games[SLUGS[4]]["name"], "status": None,
        "played": False, "won": False,
    }  # fmt: skip
    today = {g["variant"]: g for g in day_of(answer, DAY)["games"]}
    assert (today[SLUGS[3]]["status"], today[SLUGS[3]]["played"]) == ("playing", False)
    assert answer["streak"] == {"current": 1, "best": 1, "freezes": 0, "saved": []}


def test_the_months_badge_counts_days_with_all_five_played_across_months(
    clock: DailyClock,
) -> None:
    ada = make_user("ada")
    # 25 April to 14 May, all five each day: 14 full days of May, silver needs 20.
    deal_days(dt.date(2031, 4, 25), 20)
    play_all(ada, dt.date(2031, 4, 25), 20)
    clock.day = dt.date(2031, 5, 20)
    answer = month(client_for(ada))
    assert (answer["full_days"], answer["badge"]) == (14, "bronze")
    assert day_of(answer, dt.date(2031, 5, 14))["all_played"] is True
    assert day_of(answer, dt.date(2031, 5, 15))["all_played"] is False
    april = month(client_for(ada), "?month=2031-04")
    assert (april["full_days"], april["badge"]) == (6, None)
    assert april["next"] == "2031-05" and april["previous"] is None
    assert answer["previous"] == "2031-04"
    # 14 days in a row earned two freezes; 15 to 19 May missed: two saved, then it ended.
    assert answer["streak"]["current"] == 0
    assert answer["streak"]["best"] == 20


def test_a_freeze_saves_the_streak_and_the_month_says_which_day(clock: DailyClock) -> None:
    ada = make_user("ada")
    deal_days(dt.date(2031, 4, 24), 7)
    for i in range(7):
        daily_game(ada, dt.date(2031, 4, 24) + dt.timedelta(days=i), SLUGS[0], status="won")
    # 1 May missed, 2 May played.
    staff_challenge(dt.date(2031, 5, 2), SLUGS[0], 7)
    daily_game(ada, dt.date(2031, 5, 2), SLUGS[0], status="lost")
    clock.day = dt.date(2031, 5, 3)
    streak = month(client_for(ada))["streak"]
    assert streak == {"current": 8, "best": 8, "freezes": 0, "saved": ["2031-05-01"]}


def test_an_attempt_staff_excluded_plays_no_day(clock: DailyClock) -> None:
    ada = make_user("ada")
    deal_days(DAY - dt.timedelta(days=1), 1)
    daily_game(ada, DAY - dt.timedelta(days=1), SLUGS[0], status="won", excluded=True)
    answer = month(client_for(ada))
    assert answer["streak"]["current"] == 0
    game = day_of(answer, DAY - dt.timedelta(days=1))["games"][0]
    assert (game["played"], game["won"]) == (False, False)


@pytest.mark.parametrize("bad", ["2031-13", "2031-5", "May", "0000-01", "2031-05-01", "%00"])
def test_a_month_that_is_not_one_is_refused_in_words(clock: DailyClock, bad: str) -> None:
    response = anonymous_client().get("/api/daily/month/", {"month": bad})
    assert_error(response, 400, "invalid")
    assert "YYYY-MM" in response.json()["error"]["fields"]["month"][0]


def test_dailies_today_counts_the_finished_attempts_of_today_only(clock: DailyClock) -> None:
    ada = make_user("ada")
    deal_days(DAY - dt.timedelta(days=1), 2)
    daily_game(ada, DAY - dt.timedelta(days=1), SLUGS[0], status="won")
    daily_game(ada, DAY, SLUGS[0], status="won")
    daily_game(ada, DAY, SLUGS[1], status="lost")
    daily_game(ada, DAY, SLUGS[2], status="playing")
    response = client_for(ada).get("/api/me/dailies-today/")
    assert response.json() == {"date": DAY.isoformat(), "played": 2, "of": 5}
    assert anonymous_client().get("/api/me/dailies-today/").status_code in (401, 403)


def test_the_month_shows_no_deal_of_any_day_open_or_closed(clock: DailyClock) -> None:
    ada = make_user("ada")
    deal_days(DAY - dt.timedelta(days=1), 2)
    daily_game(ada, DAY, SLUGS[0], status="playing")
    daily_game(ada, DAY - dt.timedelta(days=1), SLUGS[0], status="won")
    text = client_for(ada).get("/api/daily/month/").content.decode()
    for word in ("seed", "deal", "stock", "solution", "game_id", "moves"):
        assert f'"{word}' not in text
    assert '"state":{' not in text  # a day's "state" is a word (closed, open), never a board
