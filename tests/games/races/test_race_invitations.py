"""A friend's race invitation: an account in a waiting race invites a player it follows; the
invited player's account websocket (``/ws/account/``, the lobby's) hears it live, lists it on
connecting, and they join with one request. Guests neither invite nor are invited; only the
players one follows can be; the limits per player and per address; nothing of the deal."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from rest_framework.test import APIClient

from accounts import follows
from games.races.models import RaceInvitation
from tests.games.helpers import client_for, make_user
from tests.games.races.helpers import open_race, post, race
from tests.support.api import assert_error
from tests.support.websockets import ORIGIN, connect, session_headers

pytestmark = pytest.mark.django_db(transaction=True)


def invite(client: Any, code: str, username: str) -> Any:
    return client.post(f"/api/races/{code}/invite/", {"username": username}, format="json")


def limits(settings: Any, **rates: str | None) -> None:
    framework = dict(settings.REST_FRAMEWORK)
    framework["DEFAULT_THROTTLE_RATES"] = {**framework["DEFAULT_THROTTLE_RATES"], **rates}
    settings.REST_FRAMEWORK = framework


def test_a_friend_is_invited_and_joins_from_the_invitation() -> None:
    ada, bea = make_user("ada"), make_user("bea")
    follows.follow(user=ada, username="bea")
    ada_client, bea_client = client_for(ada), client_for(bea)
    code = open_race(ada_client, listed=False)["code"]
    assert invite(ada_client, code, "bea").status_code == 200
    assert invite(ada_client, code, "bea").status_code == 200  # once only
    assert RaceInvitation.objects.count() == 1
    pending = bea_client.get("/api/me/race-invitations/").json()["results"]
    assert [(p["code"], p["sender"], p["variant"], p["link"]) for p in pending] == [
        (code, "ada", "gold-mine", f"/races/{code}/")
    ]
    assert "seed" not in json.dumps(pending) and "deal" not in json.dumps(pending)
    assert post(bea_client, code, "join").status_code == 200
    assert bea_client.get("/api/me/race-invitations/").json()["results"] == []
    assert [p["username"] for p in race(ada_client, code)["players"]] == ["ada", "bea"]


def test_only_the_players_one_follows_can_be_invited_and_only_from_inside_a_waiting_race() -> None:
    ada, bea, cy = make_user("ada"), make_user("bea"), make_user("cy")
    follows.follow(user=ada, username="bea")
    ada_client = client_for(ada)
    code = open_race(ada_client)["code"]
    assert_error(invite(ada_client, code, "cy"), 404, "not_found")  # not followed
    assert_error(invite(ada_client, code, "nobody"), 404, "not_found")
    assert_error(invite(client_for(cy), code, "ada"), 403, "not_in_race")
    assert_error(invite(ada_client, "nosuchrace", "bea"), 404, "not_found")
    assert_error(ada_client.post(f"/api/races/{code}/invite/", {}, format="json"), 400)
    post(client_for(cy), code, "join")
    post(ada_client, code, "start")
    assert_error(invite(ada_client, code, "bea"), 409, "race_started")
    assert bea.pk and RaceInvitation.objects.count() == 0


def test_guests_neither_invite_nor_are_invited() -> None:
    browser = APIClient(REMOTE_ADDR="203.0.113.9")
    assert browser.get("/api/auth/csrf/").status_code == 200
    opened = open_race(browser)  # a new guest's race
    code = opened["code"]
    assert_error(invite(browser, code, "anyone"), 403, "account_required")
    assert browser.get("/api/me/race-invitations/").json() == {"results": []}
    # A guest has no public name: not someone an account can follow or invite.
    guest_name = opened["players"][0]["username"]
    ada = make_user("ada")
    mine = open_race(client_for(ada))["code"]
    assert_error(invite(client_for(ada), mine, guest_name), 404, "not_found")


def test_invitations_are_limited_per_player_and_per_race(settings: Any) -> None:
    limits(settings, race_invite="2/hour")
    ada = make_user("ada")
    for name in ("b1", "b2", "b3"):
        make_user(name)
        follows.follow(user=ada, username=name)
    ada_client = client_for(ada)
    code = open_race(ada_client)["code"]
    assert invite(ada_client, code, "b1").status_code == 200
    assert invite(ada_client, code, "b2").status_code == 200
    assert_error(invite(ada_client, code, "b3"), 429, "throttled")
    limits(settings, race_invite=None)
    settings.RACE_MAX_PLAYERS = 2
    assert_error(invite(ada_client, code, "b3"), 409, "too_many_invitations")


def test_the_invited_players_account_socket_hears_it_live_and_on_connecting() -> None:
    ada, bea = make_user("ada"), make_user("bea")
    follows.follow(user=ada, username="bea")
    ada_client = client_for(ada)
    code = open_race(ada_client)["code"]
    headers = session_headers(bea)

    @async_to_sync
    async def scenario() -> None:
        ws, first = await connect("/ws/account/", headers)
        assert first == {"type": "race_invitations", "results": []}
        sent = await database_sync_to_async(invite)(ada_client, code, "bea")
        assert sent.status_code == 200
        message = await ws.receive_json_from(timeout=5)
        assert message["type"] == "race_invitation"
        assert message["invitation"]["code"] == code
        assert message["invitation"]["sender"] == "ada"
        await ws.disconnect()
        again, caught_up = await connect("/ws/account/", headers)
        assert [i["code"] for i in caught_up["results"]] == [code]
        await again.disconnect()
        # A visitor has no account socket.
        _, closed = await connect("/ws/account/", [ORIGIN])
        assert closed == 4401

    scenario()
