"""A friend's race invitation: an account in a waiting race invites a player it follows; the
invited player's account websocket (``/ws/account/``, the lobby's) hears it live, lists it on
connecting, and they join with one request. Guests neither invite nor are invited; only the
players one follows can be; the limits per player and per address; nothing of the deal. An
invitation leaves the lobby live when it is declined ("Not now", not sent again), when its
player joins the race, and when the race leaves waiting."""

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
from tests.games.hidden_cards import named_cards
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


def decline(client: Any, code: str) -> Any:
    return client.delete(f"/api/me/race-invitations/{code}/")


def test_a_declined_invitation_is_no_longer_open_and_is_not_sent_again() -> None:
    ada, bea, cy = make_user("ada"), make_user("bea"), make_user("cy")
    follows.follow(user=ada, username="bea")
    ada_client, bea_client = client_for(ada), client_for(bea)
    code = open_race(ada_client)["code"]
    assert invite(ada_client, code, "bea").status_code == 200
    assert race(ada_client, code)["you"]["invited"] == [{"username": "bea", "declined": False}]
    response = decline(bea_client, code)
    assert response.status_code == 204 and response.content == b""
    assert bea_client.get("/api/me/race-invitations/").json()["results"] == []
    assert_error(decline(bea_client, code), 404, "not_found")  # declined already
    # Asked again: nothing is sent, the room says she declined.
    again = invite(ada_client, code, "bea")
    assert again.json()["you"]["invited"] == [{"username": "bea", "declined": True}]
    assert RaceInvitation.objects.get().declined_at is not None
    assert bea_client.get("/api/me/race-invitations/").json()["results"] == []
    # Nobody else's, and no one else's view of the room shows whom ada invited.
    assert_error(decline(client_for(cy), code), 404, "not_found")
    assert_error(decline(bea_client, "nosuchrace"), 404, "not_found")
    assert post(client_for(cy), code, "join").status_code == 200
    assert race(client_for(cy), code)["you"]["invited"] == []
    assert race(bea_client, code)["you"]["invited"] == []
    assert decline(APIClient(), code).status_code in (401, 403)
    # Once the race is under way, its room lists no one as invited.
    post(ada_client, code, "start")
    assert race(ada_client, code)["you"]["invited"] == []


def test_an_invitation_to_a_race_that_started_or_that_one_joined_cannot_be_declined() -> None:
    ada, bea, cy = make_user("ada"), make_user("bea"), make_user("cy")
    follows.follow(user=ada, username="bea")
    follows.follow(user=ada, username="cy")
    ada_client, bea_client, cy_client = client_for(ada), client_for(bea), client_for(cy)
    joined, started = open_race(ada_client)["code"], open_race(ada_client)["code"]
    for code in (joined, started):
        invite(ada_client, code, "bea")
    invite(ada_client, started, "cy")
    post(bea_client, joined, "join")
    assert_error(decline(bea_client, joined), 404, "not_found")
    post(cy_client, started, "join")
    post(ada_client, started, "start")
    assert_error(decline(bea_client, started), 404, "not_found")
    assert RaceInvitation.objects.filter(declined_at__isnull=False).count() == 0


def test_declining_is_limited_per_player(settings: Any) -> None:
    limits(settings, race_decline="1/hour")
    ada, bea = make_user("ada"), make_user("bea")
    follows.follow(user=ada, username="bea")
    ada_client, bea_client = client_for(ada), client_for(bea)
    codes = [open_race(ada_client)["code"] for _ in range(2)]
    for code in codes:
        invite(ada_client, code, "bea")
    assert decline(bea_client, codes[0]).status_code == 204
    assert_error(decline(bea_client, codes[1]), 429, "throttled")
    assert len(bea_client.get("/api/me/race-invitations/").json()["results"]) == 1


def test_the_lobby_hears_an_invitation_go_when_declined_joined_or_its_race_starts() -> None:
    ada, bea, cy = make_user("ada"), make_user("bea"), make_user("cy")
    follows.follow(user=ada, username="bea")
    ada_client, bea_client, cy_client = client_for(ada), client_for(bea), client_for(cy)
    declined, joined, started = (open_race(ada_client)["code"] for _ in range(3))
    bea_headers, ada_headers = session_headers(bea), session_headers(ada)
    seen: list[Any] = []

    async def heard(ws: Any) -> Any:
        message = await ws.receive_json_from(timeout=5)
        seen.append(message)
        return message

    call = database_sync_to_async

    @async_to_sync
    async def scenario() -> None:
        lobby, first = await connect("/ws/account/", bea_headers)
        seen.append(first)
        room, opened = await connect(f"/ws/races/{declined}/", ada_headers)
        seen.append(opened)
        for code in (declined, joined, started):
            assert (await call(invite)(ada_client, code, "bea")).status_code == 200
            assert (await heard(lobby))["type"] == "race_invitation"
        # "Not now": gone from her lobby, and ada's room hears it, by name.
        assert (await call(decline)(bea_client, declined)).status_code == 204
        assert await heard(lobby) == {"type": "race_invitation_gone", "code": declined}
        told = await heard(room)
        assert told == {"type": "race_invitation_declined", "username": "bea"}
        # She joins another from another tab or device: gone from this lobby.
        assert (await call(post)(bea_client, joined, "join")).status_code == 200
        assert await heard(lobby) == {"type": "race_invitation_gone", "code": joined}
        # The third starts without her: gone too.
        assert (await call(post)(cy_client, started, "join")).status_code == 200
        assert (await call(post)(ada_client, started, "start")).status_code == 200
        assert await heard(lobby) == {"type": "race_invitation_gone", "code": started}
        assert await lobby.receive_nothing(timeout=0.2)
        await lobby.disconnect()
        # A reconnection finds none open.
        again, caught_up = await connect("/ws/account/", bea_headers)
        seen.append(caught_up)
        assert caught_up == {"type": "race_invitations", "results": []}
        await again.disconnect()
        await room.disconnect()

    scenario()
    for message in seen:
        assert not named_cards(json.dumps(message)), message
