"""Websocket messages are capped at WEBSOCKET_MAX_MESSAGE_BYTES (4 KiB; the largest message a
page sends is a ping of 15 bytes): a larger one closes the socket with 4413 before it is
decoded, under any server; deploy.serve also has uvicorn refuse it (1009) before it is buffered."""

from __future__ import annotations

import argparse
from typing import Any

import pytest
from asgiref.sync import async_to_sync

from deploy import serve
from games import consumers
from games.core import days
from tests.support.websockets import ORIGIN, connect

pytestmark = pytest.mark.django_db(transaction=True)


def leaderboard_path() -> str:
    return f"/ws/leaderboards/daily/{days.today().isoformat()}/selective-castle/"


@pytest.mark.parametrize("kind", ["text", "bytes"])
def test_an_oversized_message_closes_the_socket_before_it_is_decoded(
    kind: str, settings: Any, monkeypatch: Any
) -> None:
    decoded: list[int] = []
    real_decode = consumers.PatienceConsumer.decode_json

    def decode_json(cls: Any, text: str) -> Any:
        decoded.append(len(text))
        return real_decode(text)

    monkeypatch.setattr(consumers.PatienceConsumer, "decode_json", classmethod(decode_json))
    limit = settings.WEBSOCKET_MAX_MESSAGE_BYTES
    assert limit == 4096

    @async_to_sync
    async def scenario() -> None:
        ws, first = await connect(leaderboard_path(), [ORIGIN])  # anyone, not signed in
        assert first["type"] == "leaderboard"
        await ws.send_json_to({"type": "ping"})
        assert await ws.receive_json_from(timeout=5) == {"type": "pong"}
        big = '{"type": "ping", "pad": "' + "x" * limit + '"}'
        if kind == "text":
            await ws.send_to(text_data=big)
        else:
            await ws.send_to(bytes_data=big.encode())
        output = await ws.receive_output(timeout=5)
        assert output == {"type": "websocket.close", "code": consumers.MESSAGE_TOO_BIG}
        await ws.wait(timeout=5)

    scenario()
    assert consumers.MESSAGE_TOO_BIG == 4413
    assert decoded == [len('{"type": "ping"}')]  # the ping only: the big one never was


def test_a_message_at_the_limit_is_read(settings: Any) -> None:
    settings.WEBSOCKET_MAX_MESSAGE_BYTES = 64

    @async_to_sync
    async def scenario() -> None:
        ws, _ = await connect(leaderboard_path(), [ORIGIN])
        message = '{"type": "ping", "pad": "x' + "é" * 18 + '"}'  # 64 bytes in UTF-8
        assert len(message.encode()) == 64
        await ws.send_to(text_data=message)
        assert await ws.receive_json_from(timeout=5) == {"type": "pong"}
        await ws.send_to(text_data=message.replace('"}', 'x"}'))
        output = await ws.receive_output(timeout=5)
        assert output == {"type": "websocket.close", "code": 4413}
        await ws.wait(timeout=5)

    scenario()


def test_the_production_server_refuses_larger_messages_itself(settings: Any) -> None:
    args = argparse.Namespace(
        host="127.0.0.1",
        port=8000,
        proxy_headers=False,
        log_level="warning",
        no_access_log=True,
        forwarded_allow_ips=None,
    )
    assert serve.uvicorn_options(args)["ws_max_size"] == settings.WEBSOCKET_MAX_MESSAGE_BYTES
