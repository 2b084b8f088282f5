"""Public player profiles: GET /api/players/{username}/, open to anyone.

A profile is about public competition only: the ranked daily attempts the leaderboards count
(finished, not excluded by staff), per game and the last twenty with their rank on the day's
board. Attempts in play, casual games, seeds, game ids, boards and the email never show.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from typing import Any

import pytest

from games.models import Game
from games.rules import VARIANTS
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
)

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2031, 5, 10, 8, 0, tzinfo=dt.UTC)
PROFILE_KEYS = {"username", "joined", "daily", "daily_streaks", "recent", "races"}
RACE_KEYS = {"code", "link", "variant", "name", "place", "players", "standing", "ended_at"}
STATS_KEYS = {"variant", "name", "played", "won", "win_rate", "best_moves", "best_time_seconds"}
RESULT_KEYS = {
    "date", "variant", "name", "rank", "status", "won", "cards_home", "moves", "time_seconds",
}  # fmt: skip


def profile(username: str, client: Any = None) -> dict[str, Any]:
    response = (client or anonymous_client()).get(f"/api/players/{username}/")
    assert response.status_code == 200, response.content
    return response.json()


def attempt(user: Any, days_ago: int, slug: str, status: str, **fields: Any) -> Game:
    """A ranked attempt at a past day's challenge: ``taken`` seconds from start to last move."""
    taken = fields.pop("taken", 600)
    day = DAY - dt.timedelta(days=days_ago)
    start = dt.datetime.combine(day, dt.time(8), tzinfo=dt.UTC)
    fields.setdefault("last_move_at", start + dt.timedelta(seconds=taken))
    finished = None if status == "playing" else fields["last_move_at"]
    return daily_game(
        user, day, slug, status=status, created_at=start, finished_at=finished, **fields
    )


def keys_everywhere(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from keys_everywhere(item)
    elif isinstance(value, list):
        for item in value:
            yield from keys_everywhere(item)


# -- access -----------------------------------------------------------------------------------


def test_anyone_may_read_a_profile_and_an_unknown_or_closed_account_is_not_found(
    clock: DailyClock,
) -> None:
    ada = make_user("ada")
    closed = make_user("gone")
    closed.is_active = False
    closed.save(update_fields=["is_active"])

    answer = profile("ada")
    assert set(answer) == PROFILE_KEYS
    assert answer["username"] == "ada"
    assert answer["joined"] == ada.date_joined.astimezone(dt.UTC).date().isoformat()
    assert profile("ada", client_for()) == answer, "signed in or not, the same profile"

    for name in ("nobody", "gone", "ADA", "%00", "a" * 151):
        error = assert_error(anonymous_client().get(f"/api/players/{name}/"), 404, "not_found")
        assert error["message"] == "There is no such player."


def test_a_username_with_characters_a_url_must_escape(clock: DailyClock) -> None:
    make_user("ada.b+c@d-e_f")
    make_user("zoë")
    assert profile("ada.b%2Bc%40d-e_f")["username"] == "ada.b+c@d-e_f"
    assert profile("zo%C3%AB")["username"] == "zoë"


# -- what a profile counts --------------------------------------------------------------------


def test_the_daily_stats_count_finished_attempts_the_leaderboards_keep(clock: DailyClock) -> None:
    ada = make_user("ada")
    attempt(ada, 1, "gold-mine", "won", board_moves=90, taken=350)
    attempt(ada, 2, "gold-mine", "won", board_moves=80, taken=500)  # fewer moves, slower
    attempt(ada, 3, "gold-mine", "lost", board_moves=40, taken=100)
    attempt(ada, 4, "gold-mine", "resigned", board_moves=5, taken=20)
    # None of these count: excluded by staff, in play, and casual games (a daily replay, a
    # random deal, a chosen deal), however good.
    attempt(ada, 5, "gold-mine", "won", board_moves=10, taken=5, excluded=True)
    attempt(ada, 0, "gold-mine", "playing", board_moves=3, taken=30)
    attempt(ada, 1, "gold-mine", "won", ranked=False, board_moves=1, taken=1)
    Game.objects.filter(pk=new_game(client_for(ada), "gold-mine")["id"]).update(status="won")
    Game.objects.filter(pk=new_game(client_for(ada), "gold-mine", seed=3)["id"]).update(
        status="won"
    )
    attempt(ada, 6, "selective-castle", "resigned", board_moves=7)
    attempt(ada, 7, "grandfathers-clock", "playing")
    attempt(ada, 8, "blondes-and-brunettes", "won", board_moves=30, taken=0)

    stats = profile("ada")["daily"]
    assert [s["variant"] for s in stats] == SLUGS == list(VARIANTS)
    assert all(set(s) == STATS_KEYS for s in stats)
    by_slug = {s["variant"]: s for s in stats}
    assert by_slug["gold-mine"] == {
        "variant": "gold-mine",
        "name": "Gold Mine",
        "played": 4,
        "won": 2,
        "win_rate": 0.5,
        "best_moves": 80,
        "best_time_seconds": 350.0,
    }
    assert by_slug["selective-castle"] == {
        "variant": "selective-castle",
        "name": "Selective Castle",
        "played": 1,
        "won": 0,
        "win_rate": 0.0,
        "best_moves": None,
        "best_time_seconds": None,
    }
    blondes = by_slug["blondes-and-brunettes"]
    assert (blondes["played"], blondes["won"], blondes["win_rate"]) == (1, 1, 1.0)
    assert (blondes["best_moves"], blondes["best_time_seconds"]) == (30, 0.0), "no time is a time"
    for slug in ("grounds-for-divorce", "grandfathers-clock"):
        assert by_slug[slug]["name"] == VARIANTS[slug].name
        assert (by_slug[slug]["played"], by_slug[slug]["won"]) == (0, 0)
        assert by_slug[slug]["win_rate"] is by_slug[slug]["best_time_seconds"] is None

    recent = profile("ada")["recent"]
    assert [(r["date"], r["variant"], r["status"]) for r in recent] == [
        ("2031-05-09", "gold-mine", "won"),
        ("2031-05-08", "gold-mine", "won"),
        ("2031-05-07", "gold-mine", "lost"),
        ("2031-05-06", "gold-mine", "resigned"),
        ("2031-05-04", "selective-castle", "resigned"),
        ("2031-05-02", "blondes-and-brunettes", "won"),
    ]


def test_the_streaks_are_the_daily_pages(clock: DailyClock) -> None:
    ada = make_user("ada")
    for days_ago in (1, 2, 3, 6, 7):
        attempt(ada, days_ago, "gold-mine", "won")
    attempt(ada, 2, "selective-castle", "won")
    streaks = profile("ada")["daily_streaks"]
    assert streaks == client_for(ada).get("/api/daily/").json()["streaks"]
    assert streaks["overall"] == {"current": 3, "best": 3}
    assert streaks["by_variant"]["selective-castle"] == {"current": 0, "best": 1}


def test_recent_results_show_the_rank_the_days_leaderboard_gives(clock: DailyClock) -> None:
    """Each tie-break of the day's ranking decides a place (the board is built in reverse of
    its order); attempts in play rank on the board, an excluded one does not."""
    # name: status, cards home, moves, started (seconds after 08:00), time taken
    board = [
        ("ace", "won", 52, 90, 0, 350),
        ("bea", "won", 52, 90, 20, 350),  # as fast as ace, but got there later
        ("cid", "won", 52, 90, -100, 400),  # got there first, but slower
        ("dan", "won", 52, 100, 0, 100),  # more moves
        ("gus", "playing", 50, 3, 0, 20),  # in play, ahead of everything but a win
        ("eve", "resigned", 40, 10, 0, 5),
        ("fay", "lost", 40, 200, 0, 900),
        ("hal", "resigned", 30, 1, 0, 1),
    ]
    day = DAY - dt.timedelta(days=1)
    start = dt.datetime.combine(day, dt.time(8), tzinfo=dt.UTC)
    users = {}
    for name, status, home, moves, offset, taken in reversed(board):
        users[name] = make_user(name)
        daily_game(
            users[name],
            day,
            "gold-mine",
            status=status,
            cards_home=home,
            board_moves=moves,
            created_at=start + dt.timedelta(seconds=offset),
            last_move_at=start + dt.timedelta(seconds=offset + taken),
        )
    cheat = make_user("cheat")
    daily_game(cheat, day, "gold-mine", status="won", cards_home=52, board_moves=1, excluded=True)
    # Their results on other boards do not move their rank on this one.
    for name in ("eve", "fay"):
        attempt(users[name], 1, "selective-castle", "won")
        attempt(users[name], 2, "gold-mine", "won")

    leaderboard = anonymous_client().get(f"/api/leaderboards/daily/{day}/gold-mine/").json()
    ranks = {entry["user"]: entry["rank"] for entry in leaderboard["results"]}
    assert ranks == {name: rank for rank, (name, *_) in enumerate(board, start=1)}
    for rank, (name, status, home, moves, _, taken) in enumerate(board, start=1):
        if status == "playing":
            assert profile(name)["recent"] == [], "an attempt in play is no result yet"
            continue
        recent = profile(name)["recent"]
        (result,) = [r for r in recent if r["date"] == str(day) and r["variant"] == "gold-mine"]
        assert set(result) == RESULT_KEYS
        assert result == {
            "date": str(day),
            "variant": "gold-mine",
            "name": "Gold Mine",
            "rank": rank,
            "status": status,
            "won": status == "won",
            "cards_home": home,
            "moves": moves,
            "time_seconds": float(taken),
        }
    assert profile("cheat")["recent"] == [], "an excluded attempt is no public result"


def test_recent_results_are_the_last_twenty_newest_first(clock: DailyClock) -> None:
    ada = make_user("ada")
    for days_ago in range(1, 6):
        for slug in SLUGS:
            attempt(ada, days_ago, slug, "resigned")
    recent = profile("ada")["recent"]
    assert len(recent) == 20
    dates = [r["date"] for r in recent]
    assert dates == sorted(dates, reverse=True)
    assert dates[0] == "2031-05-09" and dates[-1] == "2031-05-06"
    assert {r["variant"] for r in recent if r["date"] == "2031-05-09"} == set(SLUGS)
    assert all(r["rank"] == 1 for r in recent), "alone on each board"
    assert sum(s["played"] for s in profile("ada")["daily"]) == 25


# -- privacy and cost -------------------------------------------------------------------------


def test_a_profile_shows_no_seed_game_id_board_or_email(clock: DailyClock) -> None:
    ada = make_user("ada")
    ada.email = "ada@example.org"
    ada.save(update_fields=["email"])
    today = attempt(ada, 0, "gold-mine", "won", board_moves=90)
    attempt(ada, 1, "grandfathers-clock", "lost")
    new_game(client_for(ada), "selective-castle", seed=4242)

    answer = profile("ada")
    assert answer["recent"][0]["date"] == str(DAY), "today's finished attempt is shown"
    keys = set(keys_everywhere(answer))
    assert keys <= PROFILE_KEYS | STATS_KEYS | RESULT_KEYS | RACE_KEYS | {
        "daily_streaks", "overall", "by_variant", "current", "best", *SLUGS,
    }  # fmt: skip
    assert not keys & {"id", "game_id", "seed", "state", "piles", "cards", "face_down", "email"}
    text = json.dumps(answer)
    assert "ada@example.org" not in text
    assert str(today.deal.seed) not in text and "4242" not in text


def test_the_query_count_does_not_grow_with_the_results(
    clock: DailyClock, django_assert_max_num_queries: Any
) -> None:
    ada, rival = make_user("ada"), make_user("rival")
    attempt(ada, 1, "gold-mine", "won")
    # The account, the stats, the streaks, the recent results and the last races.
    with django_assert_max_num_queries(5):
        assert len(profile("ada")["recent"]) == 1
    for days_ago in range(2, 40):
        for slug in SLUGS[:3]:
            attempt(ada, days_ago, slug, "won" if days_ago % 3 else "lost", cards_home=30)
            attempt(rival, days_ago, slug, "resigned", cards_home=40)  # behind a win only
    with django_assert_max_num_queries(5):
        answer = profile("ada")
    assert len(answer["recent"]) == 20
    assert sum(s["played"] for s in answer["daily"]) == 1 + 38 * 3
    assert all(r["rank"] == (1 if r["won"] else 2) for r in answer["recent"])


def test_the_schema_documents_the_endpoint() -> None:
    schema = anonymous_client().get("/api/schema/", {"format": "json"}).json()
    operation = schema["paths"]["/api/players/{username}/"]["get"]
    assert operation["operationId"] == "players_retrieve"
    assert {"200", "404"} <= set(operation["responses"])
    assert [p["name"] for p in operation["parameters"] if p["in"] == "path"] == ["username"]
    ok = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    body = schema["components"]["schemas"][ok.rsplit("/", 1)[-1]]
    assert set(body["properties"]) == PROFILE_KEYS
    error = operation["responses"]["404"]["content"]["application/json"]["schema"]["$ref"]
    assert error.endswith("/ApiError")
