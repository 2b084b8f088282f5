"""Races through the API on the real database: opening, joining, ready and start, the
countdown, the rules of a race's game, the end (by wins, by dead ends and resignations, by
time), the ranking, the hidden information, the rematch, the open rooms and the limits."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Game, GameFlag
from games.races import ranking, services
from games.races.models import Race, RacePlayer
from tests.games.helpers import client_for, make_user
from tests.games.hidden_cards import named_cards
from tests.games.races.helpers import (
    SLUG,
    first_move,
    open_race,
    post,
    race,
    started,
    win,
)
from tests.support.api import assert_error, make_superuser, signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_countdown(settings: Any) -> None:
    settings.RACE_COUNTDOWN_SECONDS = 0


def limits(settings: Any, **rates: str | None) -> None:
    framework = dict(settings.REST_FRAMEWORK)
    framework["DEFAULT_THROTTLE_RATES"] = {**framework["DEFAULT_THROTTLE_RATES"], **rates}
    settings.REST_FRAMEWORK = framework


def game_of(body: dict[str, Any]) -> int:
    assert body["you"]["game"] is not None, body
    return body["you"]["game"]


def test_a_race_is_opened_with_its_opener_in_it_and_nothing_of_its_deal() -> None:
    body = open_race(client_for(make_user("ada")), time_limit_seconds=300, undo=False)
    assert body["phase"] == "waiting" and body["opener"] == "ada"
    assert body["seed"] is None and body["time_limit_seconds"] == 300 and body["undo"] is False
    assert body["link"] == f"/races/{body['code']}/"
    assert [p["username"] for p in body["players"]] == ["ada"]
    assert body["players"][0]["standing"] == "waiting"
    assert body["you"] == {"joined": True, "opener": True, "game": None, "invited": []}


def test_a_visitor_opening_a_race_plays_as_a_new_guest() -> None:
    visitor = APIClient(REMOTE_ADDR="203.0.113.9")
    assert visitor.get("/api/auth/csrf/").status_code == 200
    body = open_race(visitor)
    assert body["players"][0]["guest"] is True
    assert body["players"][0]["username"].startswith("guest-")
    # Without a browser's cookie: told to sign in, no guest made.
    assert_error(APIClient().post("/api/races/", {"variant": SLUG}, format="json"), 401)


def test_players_join_by_the_link_once_until_the_room_is_full(settings: Any) -> None:
    settings.RACE_MAX_PLAYERS = 3
    opener = client_for()
    code = open_race(opener)["code"]
    second = client_for(make_user("bo"))
    assert post(second, code, "join").status_code == 200
    again = post(second, code, "join")  # in it already: nothing changes
    assert again.status_code == 200 and len(again.json()["players"]) == 2
    assert post(client_for(), code, "join").status_code == 200
    assert_error(post(client_for(), code, "join"), 409, "race_full")
    assert_error(post(client_for(), "nosuchrace", "join"), 404, "not_found")


def test_only_the_opener_starts_and_only_with_two_players() -> None:
    opener, other = client_for(), client_for()
    code = open_race(opener)["code"]
    assert_error(post(opener, code, "start"), 409, "too_few_players")
    assert_error(post(other, code, "start"), 403, "not_in_race")
    post(other, code, "join")
    assert_error(post(other, code, "start"), 403, "not_race_opener")
    body = post(opener, code, "start").json()
    assert body["phase"] in ("countdown", "running")
    assert_error(post(opener, code, "start"), 409, "race_started")
    assert_error(post(client_for(), code, "join"), 409, "race_started")


def test_the_race_starts_by_itself_when_everyone_is_ready() -> None:
    opener, other = client_for(), client_for()
    code = open_race(opener)["code"]
    post(other, code, "join")
    assert post(opener, code, "ready").json()["phase"] == "waiting"
    assert post(opener, code, "ready", {"ready": False}).json()["players"][0]["ready"] is False
    post(opener, code, "ready")
    body = post(other, code, "ready").json()
    assert body["phase"] == "running" and body["you"]["game"] is not None


def test_the_countdown_deals_the_games_and_takes_no_move_until_it_ends(settings: Any) -> None:
    settings.RACE_COUNTDOWN_SECONDS = 3
    opener, other = client_for(), client_for()
    body = started(opener, [other])
    assert body["phase"] == "countdown"
    # Nobody is told their game before the countdown's end: its board is the deal.
    assert body["you"]["game"] is None
    game_id = RacePlayer.objects.get(race__code=body["code"], player__username=body["opener"])
    refused = first_move(opener, game_id.game_id)
    assert_error(refused, 409, "race_not_started")
    Race.objects.filter(code=body["code"]).update(
        starts_at=timezone.now() - dt.timedelta(seconds=1)
    )
    now = race(opener, body["code"])
    assert now["phase"] == "running" and now["you"]["game"] == game_id.game_id
    assert first_move(opener, game_id.game_id).status_code == 201


def test_a_race_game_has_no_hints_and_undo_only_if_the_room_says() -> None:
    opener, other = client_for(), client_for()
    body = started(opener, [other], undo=False)
    game_id = game_of(body)
    assert first_move(opener, game_id).status_code == 201
    assert_error(
        opener.post(f"/api/games/{game_id}/hint/", {}, format="json"), 409, "hints_not_allowed"
    )
    assert_error(
        opener.post(f"/api/games/{game_id}/undo/", {}, format="json"), 409, "undo_not_allowed"
    )
    with_undo = started(client_for(), [client_for()], undo=True)
    assert with_undo["undo"] is True


def test_the_race_ends_when_everyone_is_done_and_ranks_the_winner_first() -> None:
    ada, bo = client_for(make_user("ada")), client_for(make_user("bo"))
    body = started(ada, [bo])
    code = body["code"]
    bo_game = race(bo, code)["you"]["game"]
    assert first_move(bo, bo_game).status_code == 201
    won = win(ada, game_of(body))
    assert won["status"] == "won"
    mid = race(bo, code)
    assert mid["phase"] == "running" and mid["seed"] is None
    assert {p["username"]: p["standing"] for p in mid["players"]} == {
        "ada": "won",
        "bo": "playing",
    }
    assert bo.post(f"/api/games/{bo_game}/resign/", {}, format="json").status_code == 200
    end = race(bo, code)
    assert end["phase"] == "finished" and end["ended_at"] is not None
    assert end["seed"] is not None
    assert [(p["username"], p["place"], p["standing"]) for p in end["players"]] == [
        ("ada", 1, "won"),
        ("bo", 2, "resigned"),
    ]
    # The replays, once it is over, for anyone with the link.
    replay = APIClient().get(end["players"][1]["replay"])
    assert replay.status_code == 200, replay.content
    assert end["players"][0]["game"] == game_of(body)


def test_the_time_limit_ends_the_race_and_a_game_in_play_is_out_of_time() -> None:
    ada, bo = client_for(make_user("ada")), client_for(make_user("bo"))
    body = started(ada, [bo], time_limit_seconds=60)
    assert first_move(ada, game_of(body)).status_code == 201
    later = timezone.now() + dt.timedelta(seconds=61)
    assert services.settle(Race.objects.get(code=body["code"]).pk, later)
    end = race(ada, body["code"])
    assert end["phase"] == "finished"
    assert {p["standing"] for p in end["players"]} == {"out_of_time"}
    # Cards home decide first, then time, then moves: the one who moved is ahead or level.
    assert end["players"][0]["place"] == 1
    games = Game.objects.filter(race_entry__race__code=body["code"])
    assert {g.status for g in games} == {Game.Status.RESIGNED}
    # Nobody plays on once the seed is shown.
    url = f"/api/games/{game_of(body)}/moves/"
    assert_error(ada.post(url, {"move": {"type": "deal"}}, format="json"), 409, "game_finished")


def test_a_read_after_the_time_limit_closes_the_race() -> None:
    ada, bo = client_for(), client_for()
    body = started(ada, [bo], time_limit_seconds=60)
    Race.objects.filter(code=body["code"]).update(
        starts_at=timezone.now() - dt.timedelta(seconds=120)
    )
    assert race(bo, body["code"])["phase"] == "finished"


def test_the_ranking_won_then_cards_home_then_time_then_moves_with_ties_sharing() -> None:
    s = ranking.Standing
    standings = [
        s(won=False, cards_home=40, time_ms=10, moves=5),
        s(won=True, cards_home=52, time_ms=900, moves=90),
        s(won=True, cards_home=52, time_ms=800, moves=99),
        s(won=False, cards_home=40, time_ms=10, moves=5),
        s(won=False, cards_home=40, time_ms=10, moves=4),
        s(won=False, cards_home=41, time_ms=99, moves=50),
    ]
    assert ranking.places(standings) == [5, 2, 1, 5, 4, 3]


def test_no_answer_about_a_running_race_tells_a_card_a_move_or_the_seed() -> None:
    ada, bo = client_for(make_user("ada")), client_for(make_user("bo"))
    body = started(ada, [bo])
    for _ in range(3):
        first_move(ada, game_of(body))
    seed = Race.objects.select_related("deal").get(code=body["code"]).deal.seed
    answers = [
        race(ada, body["code"]),
        race(bo, body["code"]),
        APIClient().get(f"/api/races/{body['code']}/").json(),
        APIClient().get(f"/api/races/?variant={SLUG}").json(),
    ]
    for answer in answers:
        text = json.dumps(answer)
        assert not named_cards(text), text
        assert str(seed) not in text or answer.get("seed") is None
        assert '"state"' not in text and "legal_moves" not in text and '"from"' not in text
        if "seed" in answer:
            assert answer["seed"] is None
    assert_error(
        APIClient().get(f"/api/races/{body['code']}/players/ada/replay/"), 409, "race_not_over"
    )
    # Someone else's race game is no one else's to open.
    assert_error(bo.get(f"/api/games/{game_of(body)}/"), 404, "not_found")


def test_a_rematch_is_a_new_deal_for_the_same_players_once_the_race_is_over() -> None:
    ada, bo = client_for(make_user("ada")), client_for(make_user("bo"))
    body = started(ada, [bo])
    assert_error(post(bo, body["code"], "rematch"), 409, "race_not_over")
    for client in (ada, bo):
        game = race(client, body["code"])["you"]["game"]
        assert client.post(f"/api/games/{game}/resign/", {}, format="json").status_code == 200
    made = post(bo, body["code"], "rematch")
    assert made.status_code == 201, made.content
    again = post(ada, body["code"], "rematch")
    assert again.status_code == 200 and again.json()["code"] == made.json()["code"]
    new = made.json()
    assert new["code"] != body["code"] and new["phase"] == "waiting" and new["opener"] == "bo"
    assert [p["username"] for p in new["players"]] == ["ada", "bo"]
    assert race(ada, body["code"])["rematch"] == new["code"]
    old_deal = Race.objects.get(code=body["code"]).deal_id
    assert Race.objects.get(code=new["code"]).deal_id != old_deal
    assert_error(post(client_for(), body["code"], "rematch"), 403, "not_in_race")


def test_the_open_races_are_the_listed_rooms_waiting_by_game_and_quick_race_joins_one() -> None:
    listed = open_race(client_for(), variant=SLUG)["code"]
    open_race(client_for(), variant=SLUG, listed=False)
    open_race(client_for(), variant="grandfathers-clock")
    rooms = APIClient().get(f"/api/races/?variant={SLUG}").json()["results"]
    assert [room["code"] for room in rooms] == [listed]
    assert rooms[0]["players"] == 1
    quick = client_for()
    joined = quick.post("/api/races/quick/", {"variant": SLUG}, format="json")
    assert joined.status_code == 200 and joined.json()["code"] == listed
    again = quick.post("/api/races/quick/", {"variant": SLUG}, format="json")
    assert again.json()["code"] == listed  # its own waiting room again, not a second
    made = client_for().post("/api/races/quick/", {"variant": "selective-castle"}, format="json")
    assert made.status_code == 201 and made.json()["players"][0]["standing"] == "waiting"
    assert_error(APIClient().get("/api/races/?variant=chess"), 400, "invalid")


def test_a_player_leaves_a_waiting_room_and_the_opener_part_passes_on() -> None:
    ada, bo = client_for(make_user("ada")), client_for(make_user("bo"))
    code = open_race(ada)["code"]
    post(bo, code, "join")
    assert post(ada, code, "leave").json()["opener"] == "bo"
    left = post(bo, code, "leave").json()
    assert left["phase"] == "finished" and left["players"] == []


def test_opening_and_joining_are_limited_per_player(settings: Any) -> None:
    limits(settings, race_open="2/hour", race_join="1/hour")
    player = client_for()
    open_race(player)
    open_race(player)
    assert_error(player.post("/api/races/", {"variant": SLUG}, format="json"), 429, "throttled")
    code = open_race(client_for())["code"]
    joiner = client_for()
    assert post(joiner, code, "join").status_code == 200
    assert_error(post(joiner, code, "join"), 429, "throttled")


def test_opening_is_limited_per_address_for_all_its_players(settings: Any) -> None:
    limits(settings, race_open_address="2/hour")
    for _ in range(2):
        open_race(client_for())
    assert_error(client_for().post("/api/races/", {"variant": SLUG}, format="json"), 429)


def test_race_games_count_as_casual_games_in_the_stats() -> None:
    ada, bo = client_for(), client_for()
    body = started(ada, [bo])
    win(ada, game_of(body))
    stats = {row["variant"]: row for row in ada.get("/api/me/stats/").json()}
    assert stats[SLUG]["won"] == 1, stats


def test_staff_review_a_race_game_once_the_race_is_over() -> None:
    staff = signed_in(make_superuser("referee"))
    ada, bo = client_for(), client_for()
    body = started(ada, [bo])
    game_id = game_of(body)
    first_move(ada, game_id)
    assert_error(staff.get(f"/api/staff/games/{game_id}/review/"), 404, "not_yet")
    for client in (ada, bo):
        game = race(client, body["code"])["you"]["game"]
        client.post(f"/api/games/{game}/resign/", {}, format="json")
    assert race(ada, body["code"])["phase"] == "finished"
    assert staff.get(f"/api/staff/games/{game_id}/review/").status_code == 200


def test_a_race_game_is_analysed_once_the_race_is_over() -> None:
    ada, bo = client_for(), client_for()
    body = started(ada, [bo])
    win(ada, game_of(body))
    refused = ada.post(f"/api/games/{game_of(body)}/analysis/", {}, format="json")
    error = assert_error(refused, 404, "not_yet")
    assert "race" in error["message"]


def test_ten_players_race_and_an_eleventh_is_refused() -> None:
    opener = client_for()
    others = [client_for() for _ in range(9)]
    body = started(opener, others)
    assert len(body["players"]) == 10 and body["phase"] == "running"
    full = open_race(client_for())["code"]
    for client in [client_for() for _ in range(9)]:
        assert post(client, full, "join").status_code == 200
    assert_error(post(client_for(), full, "join"), 409, "race_full")
    # Every one of the ten has a game of their own on the one deal.
    games = Game.objects.filter(race_entry__race__code=body["code"])
    assert games.count() == 10 and len({g.deal_id for g in games}) == 1
    assert len({g.owner_id for g in games}) == 10


def test_the_fair_play_checks_run_on_every_game_of_a_race_as_it_ends() -> None:
    ada, bo = client_for(), client_for()
    body = started(ada, [bo])
    win(ada, game_of(body))  # the whole line in a moment: faster than a person plays
    bo_game = race(bo, body["code"])["you"]["game"]
    bo.post(f"/api/games/{bo_game}/resign/", {}, format="json")
    assert race(ada, body["code"])["phase"] == "finished"
    assert GameFlag.objects.filter(game_id=game_of(body), automatic=True).exists()


def test_a_guests_race_goes_with_it_when_it_signs_in_to_an_account(django_user_model) -> None:
    visitor = APIClient(REMOTE_ADDR="203.0.113.10")
    visitor.get("/api/auth/csrf/")
    code = open_race(visitor)["code"]
    django_user_model.objects.create_user("carla", password="carla-pass-123")
    signed = visitor.post(
        "/api/auth/login/", {"username": "carla", "password": "carla-pass-123"}, format="json"
    )
    assert signed.status_code == 200, signed.content
    body = race(visitor, code)
    assert body["opener"] == "carla" and body["you"]["joined"] is True
