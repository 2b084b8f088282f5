"""A live connection ends with the sign-in it was opened with, whichever way that sign-in ends.

Through the whole stack: the API call in one "browser" (a test client with its own session),
the websockets of the others through the ASGI application and the channel layer (Redis in
CI, in memory locally).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.live import SignIn, SignOut, session_tag
from config.asgi import application
from games.consumers import SIGNED_OUT_MESSAGE, PatienceConsumer
from games.core import days
from games.daily import services as daily_services
from games.play import services as play_services
from tests.accounts.helpers import PASSWORD, login, post, url

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = (b"origin", b"http://testserver")


def browser() -> tuple[Client, list[tuple[bytes, bytes]]]:
    """A client signed in as ada through the API, and the headers its websockets send."""
    client = Client()
    assert login(client).status_code == 200
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    return client, [ORIGIN, (b"cookie", cookie)]


def token_headers(client: Client) -> list[tuple[bytes, bytes]]:
    key = post(client, "token", {"username": "ada", "password": PASSWORD}).json()["token"]
    return [ORIGIN, (b"authorization", f"Token {key}".encode())]


@pytest.fixture
def game(ada) -> int:
    return play_services.create_game(user=ada, variant_slug="gold-mine", seed=5).game.pk


async def watch(game_id: int, headers: list[tuple[bytes, bytes]]) -> WebsocketCommunicator:
    ws = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)
    connected, _ = await ws.connect(timeout=5)
    assert connected
    assert (await ws.receive_json_from(timeout=5))["type"] == "sync"
    return ws


async def assert_signed_out(ws: WebsocketCommunicator) -> None:
    assert await ws.receive_json_from(timeout=5) == {
        "type": "error",
        "code": "signed_out",
        "message": SIGNED_OUT_MESSAGE,
    }
    assert await ws.receive_output(timeout=5) == {"type": "websocket.close", "code": 4401}


async def assert_still_live(ws: WebsocketCommunicator, game_id: int, ada) -> None:
    """The next thing the connection hears is the next move, not its end."""
    outcome = await sync_to_async(play_services.play_move)(
        user=ada, game_id=game_id, move={"type": "deal"}
    )
    update = await ws.receive_json_from(timeout=5)
    assert update["type"] == "update"
    assert update["game"]["move_number"] == outcome.game.move_number
    await ws.disconnect()


def run(scenario: Callable[[], Any]) -> None:
    async_to_sync(scenario)()


def test_signing_out_ends_that_browsers_connections_only(ada, game):
    leaving, leaving_headers = browser()
    _, staying_headers = browser()

    async def scenario() -> None:
        first_tab = await watch(game, leaving_headers)
        second_tab = await watch(game, leaving_headers)
        elsewhere = await watch(game, staying_headers)
        response = await sync_to_async(post)(leaving, "logout")
        assert response.status_code == 204
        await assert_signed_out(first_tab)
        await assert_signed_out(second_tab)
        await assert_still_live(elsewhere, game, ada)

    run(scenario)


def test_a_new_password_ends_every_other_sign_in_and_keeps_this_one(ada, game):
    changing, changing_headers = browser()
    _, other_headers = browser()
    script_headers = token_headers(changing)

    async def scenario() -> None:
        here = await watch(game, changing_headers)
        other_browser = await watch(game, other_headers)
        script = await watch(game, script_headers)
        response = await sync_to_async(post)(
            changing,
            "password",
            {"old_password": PASSWORD, "new_password": "a-new-horse-battery"},
        )
        assert response.status_code == 204
        await assert_signed_out(other_browser)
        await assert_signed_out(script)
        await assert_still_live(here, game, ada)

    run(scenario)
    # The browser that changed it is still signed in, and sees its games.
    assert changing.get(url("me")).status_code == 200


def test_a_password_reset_ends_every_sign_in(ada, game):
    _, browser_headers = browser()
    script_headers = token_headers(Client())
    ada.refresh_from_db()  # signing in changed what the link's token is made from
    link = {
        "uid": urlsafe_base64_encode(force_bytes(ada.pk)),
        "token": default_token_generator.make_token(ada),
        "new_password": "a-reset-horse-battery",
    }

    async def scenario() -> None:
        in_browser = await watch(game, browser_headers)
        script = await watch(game, script_headers)
        response = await sync_to_async(post)(Client(), "password-reset-confirm", link)
        assert response.status_code == 204
        await assert_signed_out(in_browser)
        await assert_signed_out(script)

    run(scenario)


def test_revoking_the_token_ends_the_scripts_connections_only(ada, game):
    client, browser_headers = browser()
    script_headers = token_headers(client)

    async def scenario() -> None:
        script = await watch(game, script_headers)
        in_browser = await watch(game, browser_headers)
        response = await sync_to_async(client.delete)(url("token"))
        assert response.status_code == 204
        await assert_signed_out(script)
        await assert_still_live(in_browser, game, ada)

    run(scenario)


def test_closing_the_account_ends_its_connections_everywhere(ada, game):
    closing, closing_headers = browser()
    _, other_headers = browser()

    async def scenario() -> None:
        here = await watch(game, closing_headers)
        other_browser = await watch(game, other_headers)
        response = await sync_to_async(closing.delete)(
            url("me"), {"password": PASSWORD}, content_type="application/json"
        )
        assert response.status_code == 204
        await assert_signed_out(here)
        await assert_signed_out(other_browser)

    run(scenario)


def test_a_deactivated_account_is_disconnected(ada, game):
    _, headers = browser()

    def deactivate() -> None:  # as staff do in the admin
        ada.is_active = False
        ada.save()

    async def scenario() -> None:
        ws = await watch(game, headers)
        await sync_to_async(deactivate)()
        await assert_signed_out(ws)

    run(scenario)


def test_a_leaderboard_watcher_who_signs_out_keeps_watching_without_their_entry(ada):
    today = days.today()
    daily_services.start_daily_attempt(user=ada, date=today, variant_slug="gold-mine")
    client, headers = browser()

    async def scenario() -> None:
        path = f"/ws/leaderboards/daily/{today.isoformat()}/gold-mine/"
        ws = WebsocketCommunicator(application, path, headers=headers)
        assert (await ws.connect(timeout=5))[0]
        first = json.loads((await ws.receive_output(timeout=5))["text"])
        assert first["me"]["user"] == "ada"
        assert (await sync_to_async(post)(client, "logout")).status_code == 204
        board = await ws.receive_json_from(timeout=5)
        assert board["type"] == "leaderboard"
        assert board["me"] is None and board["results"][0]["user"] == "ada"
        await ws.disconnect()

    run(scenario)


def end_sign_in_just_before_listening(monkeypatch, end: Callable[[], Any]) -> None:
    """Make the sign-in end after the connection was signed in but before it joined its
    account's group: the sign-out's message goes out to nobody."""
    join = PatienceConsumer.join

    async def join_after_the_sign_in_ended(self, group: str) -> None:
        if group.startswith("account-"):
            await sync_to_async(end)()
        await join(self, group)

    monkeypatch.setattr(PatienceConsumer, "join", join_after_the_sign_in_ended)


@pytest.mark.parametrize("by", ["signing out", "a new password elsewhere", "revoking the token"])
def test_a_sign_in_that_ends_while_the_connection_opens_still_ends_it(ada, game, monkeypatch, by):
    client, headers = browser()
    if by == "revoking the token":
        headers = token_headers(client)
        end_sign_in_just_before_listening(monkeypatch, lambda: client.delete(url("token")))
    elif by == "signing out":
        end_sign_in_just_before_listening(monkeypatch, lambda: post(client, "logout"))
    else:
        elsewhere, _ = browser()
        new_password = {"old_password": PASSWORD, "new_password": "a-new-horse-battery"}
        end_sign_in_just_before_listening(
            monkeypatch, lambda: post(elsewhere, "password", new_password)
        )

    async def scenario() -> None:
        ws = WebsocketCommunicator(application, f"/ws/games/{game}/", headers=headers)
        assert (await ws.connect(timeout=5))[0]
        await assert_signed_out(ws)

    run(scenario)


def test_a_board_watcher_signed_out_while_connecting_gets_the_board_without_their_entry(
    ada, monkeypatch
):
    today = days.today()
    daily_services.start_daily_attempt(user=ada, date=today, variant_slug="gold-mine")
    client, headers = browser()
    end_sign_in_just_before_listening(monkeypatch, lambda: post(client, "logout"))

    async def scenario() -> None:
        path = f"/ws/leaderboards/daily/{today.isoformat()}/gold-mine/"
        ws = WebsocketCommunicator(application, path, headers=headers)
        assert (await ws.connect(timeout=5))[0]
        board = await ws.receive_json_from(timeout=5)
        assert board["me"] is None and board["results"][0]["user"] == "ada"
        await ws.disconnect()

    run(scenario)


@pytest.mark.parametrize(
    ("sign_out", "ends_token", "ends_this", "ends_other"),
    [
        (SignOut(), True, True, True),
        (SignOut(sessions=False), True, False, False),
        (SignOut(tokens=False, only_session=session_tag("this")), False, True, False),
        (SignOut(except_session=session_tag("this")), True, False, True),
    ],
)
def test_which_sign_ins_a_sign_out_ends(sign_out, ends_token, ends_this, ends_other):
    assert sign_out.ends(SignIn(token=True)) is ends_token
    assert sign_out.ends(SignIn(token=False, session=session_tag("this"))) is ends_this
    assert sign_out.ends(SignIn(token=False, session=session_tag("other"))) is ends_other
    assert SignOut.from_message(sign_out.message()) == sign_out


def test_no_session_key_travels_in_a_sign_out_message():
    message = SignOut(except_session=session_tag("secret-session-key")).message()
    assert "secret-session-key" not in json.dumps(message)


def test_signing_out_of_other_devices_ends_their_connections_and_keeps_this_ones(ada, game):
    here, here_headers = browser()
    _, other_headers = browser()
    script_headers = token_headers(here)

    async def scenario() -> None:
        this_tab = await watch(game, here_headers)
        other_device = await watch(game, other_headers)
        script = await watch(game, script_headers)
        response = await sync_to_async(post)(here, "logout-others")
        assert response.json() == {"ended": 1}
        await assert_signed_out(other_device)
        await sync_to_async(play_services.play_move)(user=ada, game_id=game, move={"type": "deal"})
        for still_open in (this_tab, script):
            assert (await still_open.receive_json_from(timeout=5))["type"] == "update"
            await still_open.disconnect()

    run(scenario)


NEW_PASSWORD = {"old_password": PASSWORD, "new_password": "a-new-horse-battery"}


def test_pages_opened_before_a_new_password_here_still_end_with_this_sign_in(ada, game):
    """A new password gives this browser's session a new key (Django's cycle_key): the pages
    it opened before are still this sign-in's, and signing out ends them."""
    client, headers = browser()

    async def scenario() -> None:
        before = await watch(game, headers)
        assert (await sync_to_async(post)(client, "password", NEW_PASSWORD)).status_code == 204
        assert (await sync_to_async(post)(client, "logout")).status_code == 204
        await assert_signed_out(before)

    run(scenario)


def test_signing_out_of_other_devices_after_a_new_password_here_keeps_this_browsers_pages(
    ada, game
):
    here, here_headers = browser()

    async def scenario() -> None:
        this_tab = await watch(game, here_headers)
        assert (await sync_to_async(post)(here, "password", NEW_PASSWORD)).status_code == 204
        elsewhere = Client()
        signed_in = await sync_to_async(login)(elsewhere, password=NEW_PASSWORD["new_password"])
        assert signed_in.status_code == 200
        cookie = f"sessionid={elsewhere.cookies['sessionid'].value}".encode()
        other_device = await watch(game, [ORIGIN, (b"cookie", cookie)])
        assert (await sync_to_async(post)(here, "logout-others")).json() == {"ended": 1}
        await assert_signed_out(other_device)
        await assert_still_live(this_tab, game, ada)

    run(scenario)


@pytest.fixture
def grace(django_user_model):
    return django_user_model.objects.create_user("grace", password=PASSWORD)


@pytest.mark.parametrize("how", ["signing in", "signing up"])
def test_signing_in_as_another_account_ends_the_old_sign_in_as_signing_out_does(
    ada, grace, game, how
):
    switching, switching_headers = browser()
    _, elsewhere_headers = browser()
    script_headers = token_headers(Client())

    def switch() -> Any:
        if how == "signing in":
            return login(switching, "grace")
        return post(switching, "register", {"username": "hopper", "password": PASSWORD})

    async def scenario() -> None:
        first_tab = await watch(game, switching_headers)
        second_tab = await watch(game, switching_headers)
        elsewhere = await watch(game, elsewhere_headers)
        script = await watch(game, script_headers)
        assert (await sync_to_async(switch)()).status_code in (200, 201)
        await assert_signed_out(first_tab)
        await assert_signed_out(second_tab)
        await sync_to_async(play_services.play_move)(user=ada, game_id=game, move={"type": "deal"})
        for still_open in (elsewhere, script):
            assert (await still_open.receive_json_from(timeout=5))["type"] == "update"
            await still_open.disconnect()

    run(scenario)
    assert switching.get(url("me")).json()["username"] == (
        "grace" if how == "signing in" else "hopper"
    )


def test_signing_in_again_as_the_same_account_keeps_its_pages_live(ada, game):
    client, headers = browser()

    async def scenario() -> None:
        tab = await watch(game, headers)
        assert (await sync_to_async(login)(client)).status_code == 200
        await assert_still_live(tab, game, ada)
        tab = await watch(game, headers)  # the same session, the same cookie
        assert (await sync_to_async(post)(client, "logout")).status_code == 204
        await assert_signed_out(tab)

    run(scenario)
