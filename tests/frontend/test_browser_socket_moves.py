"""The play page's writes on the game's websocket (play/socket_writes.js; docs/api.md, "Moves on
the game's websocket"): with the socket in step, a move, an undo and a resignation go on it and
no POST reaches the server; with the socket down (refused, or open but silent) they go over
REST; a write whose answer does not come goes over REST with the same key, applied once; and a
refusal reads the same whichever way it came."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from tests.frontend.browser_helpers import (
    GameSockets,
    Line,
    call_api,
    expect_move_number,
    open_game,
    post_move,
    start_game,
    tap_move,
    tops,
    watch_errors,
    watch_rest_actions,
)

pytestmark = pytest.mark.django_db(transaction=True)

MOVE = {"type": "move", "from": "tableau:2", "to": "tableau:7", "count": 1}
STALE = "The game moved on in another tab or device. The board now shows the latest position."


def move_undo_resign(page: Page) -> None:
    """A move, an undo and a resignation from the page, each drawn once answered."""
    tap_move(page, MOVE)
    expect_move_number(page, 1)
    page.locator("#undo").click()
    expect_move_number(page, 2)
    expect(page.locator("#message")).to_have_text("Move taken back.")
    page.locator("#resign").click()
    page.locator("#confirm-resign").click()
    expect(page.locator("#board")).to_have_attribute("data-status", "resigned")
    expect(page.locator("#result")).to_be_visible()
    expect_move_number(page, 3)


def stored(page: Page, game_id: int) -> dict:
    game = call_api(page, "GET", f"/api/games/{game_id}/")["body"]
    return {"move_number": game["move_number"], "status": game["status"]}


def test_with_the_socket_in_step_moves_undo_and_resign_go_on_it_and_no_post(site, page):
    errors = watch_errors(page)
    game_id = start_game(page, "selective-castle", 1)
    relayed = GameSockets(page)
    rest = watch_rest_actions(page)
    open_game(page, site, game_id)
    move_undo_resign(page)

    assert rest == [], "a write went over REST with the socket up"
    assert relayed.kinds() == ["moves", "undo", "resign"]
    assert [a.get("expected_move_number") for a in relayed.actions] == [0, 1, 2]
    keys = [a["idempotency_key"] for a in relayed.actions]
    assert all(keys) and len(set(keys)) == 3, keys
    assert relayed.actions[0]["move"] == MOVE
    assert stored(page, game_id) == {"move_number": 3, "status": "resigned"}
    assert errors == []


@pytest.mark.parametrize("socket", ["refused", "silent"])
def test_with_the_socket_down_moves_undo_and_resign_go_over_rest(site, page, socket):
    """Refused: every connection closed at once (the page keeps trying). Silent: open, but the
    server never speaks on it (not in step: nothing is sent on it)."""
    errors = watch_errors(page)
    game_id = start_game(page, "selective-castle", 1)
    if socket == "refused":
        GameSockets(page).cut = True
    else:
        sent_on_socket: list[str] = []
        page.route_web_socket(
            re.compile(r"/ws/games/"),
            lambda ws: ws.on_message(lambda message: sent_on_socket.append(message)),
        )
    rest = watch_rest_actions(page)
    open_game(page, site, game_id, live=False)
    move_undo_resign(page)

    assert [url.rsplit("/", 2)[-2] for url in rest] == ["moves", "undo", "resign"]
    if socket == "silent":
        assert not [m for m in sent_on_socket if '"idempotency_key"' in str(m)], sent_on_socket
    assert stored(page, game_id) == {"move_number": 3, "status": "resigned"}
    assert errors == []


def test_a_move_whose_answer_does_not_come_goes_over_rest_with_its_key_once(site, page):
    """The move sent on the socket is held on its way (the socket died under it, as far as the
    page can tell): a few seconds later it goes over REST with the same Idempotency-Key and is
    applied, and the page opens a new socket (the old one taken for dead, and closed). The held
    copy, arriving late on the new connection, changes nothing: the key's first answer. The
    next move goes on the new socket, which has spoken."""
    errors = watch_errors(page)
    line = Line("selective-castle", 1)
    game_id = start_game(page, "selective-castle", 1)
    held: list = []
    relayed = GameSockets(
        page, on_action=lambda _, forward, __: forward() if held else held.append(forward)
    )
    keys: list[str] = []
    page.on(
        "request",
        lambda r: (
            r.method == "POST"
            and r.url.endswith(f"/api/games/{game_id}/moves/")
            and keys.append(r.headers.get("idempotency-key"))
        ),
    )
    open_game(page, site, game_id)
    tap_move(page, MOVE)
    expect(page.locator("#board")).to_have_attribute("data-move-number", "1", timeout=20_000)
    assert len(held) == 1
    assert keys == [relayed.actions[0]["idempotency_key"]], (keys, relayed.actions)
    for _ in range(200):
        if len(relayed.sockets) == 2:
            break
        page.wait_for_timeout(25)
    assert len(relayed.sockets) == 2, "no new socket after the answer's wait"
    expect(page.locator("#live")).to_have_text("Live")

    # The held copy, late (the old connection is closed: on the new one): the server answers it
    # with the key's first answer, which the page, no longer waiting for it, lets go.
    relayed.servers[-1].send(json.dumps(relayed.actions[0]))
    for _ in range(200):
        if relayed.answers:
            break
        page.wait_for_timeout(25)
    assert [(a["status"], a["body"]["move_number"]) for a in relayed.answers] == [(201, 1)]
    line.play(MOVE)
    second = next(
        m
        for m in line.legal()
        if m["type"] == "move" and m["count"] == 1 and m["to"].startswith("tableau:")
    )
    tap_move(page, second)
    expect_move_number(page, 2)
    line.play(second)
    assert len(relayed.actions) == 2 and keys == [relayed.actions[0]["idempotency_key"]]
    entries = call_api(page, "GET", f"/api/games/{game_id}/moves/")["body"]
    assert [entry["move"] for entry in entries] == [MOVE, second]
    assert tops(page) == line.tops()
    assert errors == []


@pytest.mark.parametrize("way", ["socket", "rest"])
def test_a_refusal_reads_the_same_on_the_socket_as_over_rest(site, page, way):
    """A move made stale elsewhere (the page does not hear of it: the server's updates are
    kept from it) and an illegal move: the same words, whichever way the refusal came."""
    errors = watch_errors(page)
    line = Line("selective-castle", 1)
    game_id = start_game(page, "selective-castle", 1)
    relayed = GameSockets(
        page, drop=lambda data: isinstance(data, dict) and data.get("type") == "update"
    )
    relayed.cut = way == "rest"
    open_game(page, site, game_id, live=way == "socket")
    line.play(MOVE)
    post_move(page, game_id, MOVE, 0)  # another tab's move
    rest = watch_rest_actions(page)

    tap_move(page, MOVE)  # the same move, from the board the page still shows
    expect_move_number(page, 1)
    message = page.locator("#message")
    expect(message).to_have_text(STALE)
    assert tops(page) == line.tops()

    refused = {"type": "move", "from": "tableau:5", "to": "tableau:3", "count": 1}
    tap_move(page, refused)
    expect(message).to_have_text(line.refusal(refused))
    expect_move_number(page, 1)

    if way == "socket":
        assert rest == [] and relayed.kinds() == ["moves", "moves"]
    else:
        assert len(rest) == 2 and relayed.actions == []
    assert errors == []


def test_a_socket_silent_after_a_ping_is_replaced_and_moves_go_on_the_new_one(site, page):
    """The connection is dropped on the way without a word (the server's pongs never arrive:
    a phone's network, a NAT): 10 s after its 25 s ping the page takes it for dead and opens
    another, which catches up, says Live, and carries the next move. The page's clock is
    driven forward; the sockets are real."""
    errors = watch_errors(page)
    game_id = start_game(page, "selective-castle", 1)
    relayed = GameSockets(
        page, drop=lambda data: isinstance(data, dict) and data.get("type") == "pong"
    )
    rest = watch_rest_actions(page)
    page.clock.install()
    open_game(page, site, game_id)
    assert len(relayed.sockets) == 1

    page.clock.fast_forward(26_000)  # the ping goes; its pong is dropped
    page.wait_for_timeout(200)
    assert len(relayed.sockets) == 1, "replaced before its 10 s"
    page.clock.fast_forward(10_500)
    for _ in range(200):
        if len(relayed.sockets) == 2:
            break
        page.wait_for_timeout(25)
    assert len(relayed.sockets) == 2, "the silent socket was kept"
    expect(page.locator("#live")).to_have_text("Live")

    tap_move(page, MOVE)
    expect_move_number(page, 1)
    assert relayed.kinds() == ["moves"] and rest == []
    assert stored(page, game_id) == {"move_number": 1, "status": "playing"}
    assert errors == []
