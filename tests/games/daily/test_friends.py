"""A daily leaderboard's friends' view: GET /api/leaderboards/daily/{date}/{game}/friends/ and
the "friends" of the leaderboard websocket's pushes to an account.

It lists the player and the players they follow, in the board's order and with their rank on
the whole board, live and closed days alike; never anyone else, and nothing an entry of the
public board does not say.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from accounts import follows
from games.core import days
from games.daily import services as daily_services
from tests.games.helpers import DAY, anonymous_client, client_for, daily_game, make_user

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2031, 5, 10, 8, 0, tzinfo=dt.UTC)
ENTRY_KEYS = {"rank", "user", "status", "won", "cards_home", "moves", "time_seconds"}


def finished(user: Any, date: dt.date, slug: str, status: str, moves: int, seconds: int) -> None:
    end = T0 + dt.timedelta(seconds=seconds)
    daily_game(
        user, date, slug, status=status, board_moves=moves, created_at=T0, last_move_at=end,
        finished_at=end, **({"cards_home": 52} if status == "won" else {}),
    )  # fmt: skip


def friends_board(client: Any, slug: str, date: dt.date = DAY) -> dict[str, Any]:
    response = client.get(f"/api/leaderboards/daily/{date}/{slug}/friends/")
    assert response.status_code == 200, response.content
    return response.json()


def test_the_friends_board_is_me_and_whom_i_follow_with_their_rank_on_the_whole_board(clock):
    players = {name: make_user(name) for name in ("ann", "bob", "cy", "dee", "me")}
    # The whole board: ann 1, bob 2, cy 3, me 4, dee 5.
    for rank, name in enumerate(("ann", "bob", "cy", "me", "dee"), start=1):
        finished(players[name], DAY, "gold-mine", "won", 50 + rank, 300)
    follows.follow(user=players["me"], username="bob")
    follows.follow(user=players["me"], username="dee")
    board = friends_board(client_for(players["me"]), "gold-mine")
    assert board["count"] == 5
    assert [(e["user"], e["rank"]) for e in board["results"]] == [("bob", 2), ("me", 4), ("dee", 5)]
    assert all(set(entry) == ENTRY_KEYS for entry in board["results"])
    whole = anonymous_client().get(f"/api/leaderboards/daily/{DAY}/gold-mine/").json()
    public = {entry["user"]: entry for entry in whole["results"]}
    assert all(entry == public[entry["user"]] for entry in board["results"])


def test_a_closed_days_friends_board_is_its_final_ranking(clock):
    me, friend = make_user("me"), make_user("pal")
    before = DAY - dt.timedelta(days=3)
    finished(friend, before, "selective-castle", "won", 90, 200)
    finished(me, before, "selective-castle", "lost", 40, 500)
    follows.follow(user=me, username="pal")
    board = friends_board(client_for(me), "selective-castle", before)
    assert [(e["user"], e["rank"], e["won"]) for e in board["results"]] == [
        ("pal", 1, True),
        ("me", 2, False),
    ]


def test_nobody_followed_and_nothing_played_is_an_empty_board(clock):
    make_user("stranger")
    finished(make_user("other"), DAY, "gold-mine", "won", 60, 300)
    board = friends_board(client_for(make_user("me")), "gold-mine")
    assert board["results"] == [] and board["count"] == 1


def test_guests_and_visitors_have_no_friends_board(clock):
    from accounts.guests import create_guest

    url = f"/api/leaderboards/daily/{DAY}/gold-mine/friends/"
    guest = create_guest(client_ip="10.1.1.1")
    response = client_for(guest).get(url)
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "account_required"
    assert anonymous_client().get(url).status_code in (401, 403)


def test_an_unknown_game_or_day_is_a_json_404(clock):
    client = client_for(make_user())
    assert client.get(f"/api/leaderboards/daily/{DAY}/poker/friends/").status_code == 404
    response = client.get("/api/leaderboards/daily/2026-02-30/gold-mine/friends/")
    assert response.status_code == 404 and response.json()["error"]["code"] == "no_such_day"


def test_todays_friends_board_shows_an_attempt_in_play():
    me, pal = make_user("me"), make_user("pal")
    follows.follow(user=me, username="pal")
    today = days.today()
    daily_services.start_daily_attempt(user=pal, date=today, variant_slug="gold-mine")
    board = friends_board(client_for(me), "gold-mine", today)
    assert [(e["user"], e["status"]) for e in board["results"]] == [("pal", "playing")]
