"""Websocket tests' helpers, through the whole ASGI stack: the allowed origin, a signed-in
session's headers, and a connection with its first message."""

from __future__ import annotations

import json
from typing import Any

from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application

ORIGIN = (b"origin", b"http://testserver")


def session_headers(user: Any) -> list[tuple[bytes, bytes]]:
    """The headers of a browser signed in as ``user`` (the origin, its session's cookie)."""
    client = Client()
    client.force_login(user)
    return [ORIGIN, (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())]


async def connect(path: str, headers: list[tuple[bytes, bytes]]) -> tuple[Any, Any]:
    """The communicator and its first message, or the close code it was refused with."""
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await communicator.connect(timeout=5)
    if not connected:  # refused at the handshake (the origin check)
        return communicator, code
    output = await communicator.receive_output(timeout=5)
    if output["type"] == "websocket.close":
        return communicator, output["code"]
    return communicator, json.loads(output["text"])
