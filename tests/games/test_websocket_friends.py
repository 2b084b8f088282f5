"""The leaderboard websocket's friends' view, through the whole ASGI stack and the channel
layer (Redis when REDIS_URL is set, as in CI): an account's pushes carry "friends", the board's
entries of the account and the players it follows, live as attempts move and as it follows or
stops following someone; a visitor's pushes have no such key.
"""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from accounts import follows
from games.core import days
from games.daily import services as daily_services
from games.play import services as play_services
from tests.support.websockets import ORIGIN, connect, session_headers

pytestmark = pytest.mark.django_db(transaction=True)


async def next_board(ws, timeout: float = 5) -> dict:
    board = await ws.receive_json_from(timeout=timeout)
    assert board["type"] == "leaderboard"
    return board


def test_an_accounts_board_carries_its_friends_live(django_user_model, settings):
    settings.LEADERBOARD_PUSH_INTERVAL = 0.1
    me = django_user_model.objects.create_user("me", password="x")
    pal = django_user_model.objects.create_user("pal", password="x")
    other = django_user_model.objects.create_user("other", password="x")
    follows.follow(user=me, username="pal")
    today = days.today()
    path = f"/ws/leaderboards/daily/{today.isoformat()}/gold-mine/"
    start = database_sync_to_async(daily_services.start_daily_attempt)
    headers = session_headers(me)

    @async_to_sync
    async def scenario():
        ws, first = await connect(path, headers)
        assert first["friends"] == [] and first["count"] == 0
        _, anonymous = await connect(path, [ORIGIN])
        assert "friends" not in anonymous
        await start(user=other, date=today, variant_slug="gold-mine")
        board = await next_board(ws)
        assert board["count"] == 1 and board["friends"] == []  # not followed: not a friend
        attempt = await start(user=pal, date=today, variant_slug="gold-mine")
        board = await next_board(ws)
        assert [entry["user"] for entry in board["friends"]] == ["pal"]
        rank = board["friends"][0]["rank"]
        assert board["friends"][0] == next(e for e in board["results"] if e["user"] == "pal")
        await database_sync_to_async(play_services.play_move)(
            user=pal, game_id=attempt.game.pk, move={"type": "deal"}
        )
        board = await next_board(ws)
        assert board["friends"][0]["moves"] == 1 and board["friends"][0]["rank"] <= rank
        # Following someone else redraws the friends at once, no attempt moving.
        await database_sync_to_async(follows.follow)(user=me, username="other")
        board = await next_board(ws)
        assert {entry["user"] for entry in board["friends"]} == {"pal", "other"}
        await database_sync_to_async(follows.unfollow)(user=me, username="pal")
        board = await next_board(ws)
        assert [entry["user"] for entry in board["friends"]] == ["other"]
        await ws.disconnect()

    scenario()
