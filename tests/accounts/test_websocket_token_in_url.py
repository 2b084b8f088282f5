"""An API token is never taken from a websocket's URL: a URL is written to access logs (the
proxy's, the server's), so ``?token=<key>`` there handed the key to whoever reads them. The
``Authorization`` header carries it; browsers sign in with their session cookie."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from rest_framework.authtoken.models import Token

from config.asgi import application
from games.core import days
from games.play import services as play_services

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = (b"origin", b"http://testserver")


async def open_socket(path: str, headers: list[tuple[bytes, bytes]]) -> tuple[bool, Any]:
    ws = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await ws.connect(timeout=5)
    if connected:
        first = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return True, first
    return False, code


@pytest.fixture
def game_and_key(ada: Any) -> tuple[int, str]:
    game = play_services.create_game(user=ada, variant_slug="gold-mine", seed=5).game.pk
    return game, Token.objects.create(user=ada).key


def test_a_token_in_the_url_is_refused_at_the_handshake(game_and_key: tuple[int, str]) -> None:
    game, key = game_and_key

    connected, code = async_to_sync(open_socket)(f"/ws/games/{game}/?token={key}", [ORIGIN])

    assert (connected, code) == (False, 4400)


def test_a_token_in_the_url_is_refused_even_beside_a_good_header(
    game_and_key: tuple[int, str],
) -> None:
    game, key = game_and_key
    header = (b"authorization", f"Token {key}".encode())

    connected, code = async_to_sync(open_socket)(
        f"/ws/games/{game}/?since=0&token={key}", [ORIGIN, header]
    )

    assert (connected, code) == (False, 4400)


def test_a_leaderboard_url_with_a_token_is_refused_too(game_and_key: tuple[int, str]) -> None:
    _, key = game_and_key

    connected, code = async_to_sync(open_socket)(
        f"/ws/leaderboards/daily/{days.today().isoformat()}/gold-mine/?token={key}", [ORIGIN]
    )

    assert (connected, code) == (False, 4400)


def test_the_token_in_the_authorization_header_signs_a_script_in(
    game_and_key: tuple[int, str],
) -> None:
    game, key = game_and_key
    header = (b"authorization", f"Token {key}".encode())

    connected, first = async_to_sync(open_socket)(f"/ws/games/{game}/", [ORIGIN, header])

    assert connected
    assert first["type"] == "sync"
