"""The race's room, ``/ws/races/<code>/``, through the whole ASGI stack: the race on
connecting, then after every change (a join, the start, a move's progress, the end); a
reconnect catches up; nothing in any message tells a card, a move or the seed before the end."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from games.play import services as play_services
from games.races import services
from games.races.models import Race, RacePlayer
from tests.games.hidden_cards import named_cards
from tests.games.races.helpers import SLUG, WINNING_LINES
from tests.support.websockets import ORIGIN, connect, session_headers

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _short_countdown(settings: Any) -> None:
    settings.RACE_COUNTDOWN_SECONDS = 0.3


async def next_race(ws: Any, seen: list[str]) -> dict[str, Any]:
    message = await ws.receive_from(timeout=5)
    seen.append(message)
    body = json.loads(message)
    assert body["type"] == "race"
    return body["race"]


async def until(ws: Any, seen: list[str], check: Any) -> dict[str, Any]:
    for _ in range(20):
        race = await next_race(ws, seen)
        if check(race):
            return race
    raise AssertionError("the room never said so")


async def next_progress(ws: Any, seen: list[str]) -> dict[str, Any]:
    message = await ws.receive_from(timeout=5)
    seen.append(message)
    body = json.loads(message)
    assert body["type"] == "race_progress", body
    assert set(body) == {"type", "player", "now"}
    return body["player"]


open_race = database_sync_to_async(services.open_race)
join = database_sync_to_async(services.join_race)
start = database_sync_to_async(services.start_race)
move = database_sync_to_async(play_services.play_move)
resign = database_sync_to_async(play_services.resign_game)


@database_sync_to_async
def on_winning_deal(code: str) -> None:
    deal = play_services.deal_of(SLUG, WINNING_LINES[SLUG]["seed"])
    Race.objects.filter(code=code).update(deal=deal)


@database_sync_to_async
def game_of(code: str, user: Any) -> int:
    return RacePlayer.objects.get(race__code=code, player=user).game_id


def test_the_room_sees_joins_the_countdown_progress_and_the_end(django_user_model: Any) -> None:
    ada = django_user_model.objects.create_user("ada", password="x")
    bo = django_user_model.objects.create_user("bo", password="x")
    ada_headers, bo_headers = session_headers(ada), session_headers(bo)
    seen: list[str] = []

    @async_to_sync
    async def scenario() -> None:
        code = (await open_race(user=ada, variant_slug=SLUG)).race.code
        await on_winning_deal(code)
        ws, first = await connect(f"/ws/races/{code}/", ada_headers)
        seen.append(json.dumps(first))
        assert first["type"] == "race" and first["race"]["phase"] == "waiting"
        assert first["race"]["you"] == {"joined": True, "opener": True, "game": None, "invited": []}
        await join(user=bo, code=code)
        joined = await next_race(ws, seen)
        assert [p["username"] for p in joined["players"]] == ["ada", "bo"]
        await start(user=ada, code=code)
        counting = await next_race(ws, seen)
        assert counting["phase"] == "countdown" and counting["you"]["game"] is None
        # The connection wakes at the countdown's end: the race runs, and ada is told her game.
        running = await until(ws, seen, lambda r: r["phase"] == "running")
        ada_game = await game_of(code, ada)
        assert running["you"]["game"] == ada_game
        # A reconnect catches up: the whole race at once, as it stands.
        other, caught_up = await connect(f"/ws/races/{code}/", bo_headers)
        seen.append(json.dumps(caught_up))
        assert caught_up["race"]["phase"] == "running"
        assert caught_up["race"]["you"]["game"] == await game_of(code, bo)
        # Each move in play: only ada's line, to every watcher, in order.
        for number, step in enumerate(WINNING_LINES[SLUG]["moves"][:3], start=1):
            await move(user=ada, game_id=ada_game, move=step)
            for watcher in (ws, other):
                line = await next_progress(watcher, seen)
                assert line["username"] == "ada" and line["moves"] == number
                assert line["standing"] == "playing" and line["time_seconds"] >= 0
        # A reconnect after them catches up: the whole race, ada's moves in it.
        again, caught_up = await connect(f"/ws/races/{code}/", bo_headers)
        seen.append(json.dumps(caught_up))
        assert caught_up["race"]["players"][0]["moves"] == 3 and caught_up["race"]["seed"] is None
        await again.disconnect()
        await resign(user=ada, game_id=ada_game)
        await resign(user=bo, game_id=await game_of(code, bo))
        end = await until(other, seen, lambda r: r["phase"] == "finished")
        assert end["seed"] is not None
        assert all(p["place"] is not None and p["replay"] for p in end["players"])
        await ws.disconnect()
        await other.disconnect()

    scenario()
    # Before the end, no message told a card, a move or the seed.
    before_end = [m for m in seen if '"phase": "finished"' not in m]
    seed = WINNING_LINES[SLUG]["seed"]
    for message in before_end:
        assert not named_cards(message), message
        assert f'"seed": {seed}' not in message and '"legal_moves"' not in message


def test_a_visitor_watches_a_room_and_an_unknown_one_is_refused(django_user_model: Any) -> None:
    ada = django_user_model.objects.create_user("ada", password="x")

    @async_to_sync
    async def scenario() -> None:
        code = (await open_race(user=ada, variant_slug=SLUG)).race.code
        ws, first = await connect(f"/ws/races/{code}/", [ORIGIN])
        assert first["race"]["you"] == {
            "joined": False,
            "opener": False,
            "game": None,
            "invited": [],
        }
        await ws.disconnect()
        _, refused = await connect("/ws/races/nosuchroom/", [ORIGIN])
        assert refused == 4404

    scenario()


def test_the_time_limit_ends_a_room_nobody_moves_in(django_user_model: Any) -> None:
    ada = django_user_model.objects.create_user("ada", password="x")
    bo = django_user_model.objects.create_user("bo", password="x")
    headers = session_headers(ada)

    @async_to_sync
    async def scenario() -> None:
        code = (await open_race(user=ada, variant_slug=SLUG, time_limit_seconds=60)).race.code
        await join(user=bo, code=code)
        await start(user=ada, code=code)
        await database_sync_to_async(
            lambda: Race.objects.filter(code=code).update(time_limit_seconds=1)
        )()
        ws, _ = await connect(f"/ws/races/{code}/", headers)
        end = await until(ws, [], lambda r: r["phase"] == "finished")
        assert {p["standing"] for p in end["players"]} == {"out_of_time"}
        await ws.disconnect()

    scenario()
