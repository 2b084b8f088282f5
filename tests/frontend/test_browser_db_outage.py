"""The play page through a database outage: a move answered 503 (web.http.db_outage; on the game's
websocket, then over REST) is sent again with the same Idempotency-Key, and the player sees
"Reconnecting…" and then the move, no error (a real browser; the 503s stand in for the
server's, whose own tests are in tests/web/test_db_outage.py)."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.frontend.browser_helpers import (
    GameSockets,
    expect_move_number,
    open_game,
    start_game,
    tap_move,
)

pytestmark = pytest.mark.django_db(transaction=True)

UNAVAILABLE = json.dumps(
    {"error": {"code": "service_unavailable", "message": "The service is unavailable."}}
)


def test_a_move_answered_503_is_sent_again_with_its_key_and_lands_once(site, page):
    game_id = start_game(page, "selective-castle", 1)
    on_socket: list[str] = []
    keys: list[str] = []

    def unavailable_on_the_socket(message, _, reply) -> None:
        on_socket.append(message["idempotency_key"])
        answer = {"type": "answer", "request_id": message["request_id"], "status": 503}
        reply({**answer, "body": json.loads(UNAVAILABLE)})

    GameSockets(page, on_action=unavailable_on_the_socket)
    open_game(page, site, game_id)

    def unavailable_twice(route) -> None:
        keys.append(route.request.headers["idempotency-key"])
        if len(keys) <= 2:
            route.fulfill(
                status=503,
                content_type="application/json",
                headers={"Retry-After": "1"},
                body=UNAVAILABLE,
            )
        else:
            route.continue_()

    page.route(re.compile(r"/api/games/\d+/moves/"), unavailable_twice)
    tap_move(page, {"type": "move", "from": "tableau:2", "to": "tableau:7", "count": 1})
    expect(page.locator("#live")).to_have_text("Reconnecting…")
    expect_move_number(page, 1)
    expect(page.locator("#live")).to_have_text("Live")
    expect(page.locator("#message")).to_have_text("")
    assert len(keys) == 3 and len(set(keys)) == 1, keys
    assert on_socket == keys[:1], on_socket  # first on the socket, with the same key
