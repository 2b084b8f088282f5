"""Nothing the player does is lost to a dropped connection (outbox.js): moves made offline, while
the server restarts, or while a proxy answers 502 are shown as pending and sent once the
connection is back, each applied exactly once; a game that moved on in another tab meanwhile is
reloaded, and the page says so. The live indicator says "Offline" while the browser is.
(A real browser and a real server process, which the second test stops and starts again.)"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator

import pytest
from django.db import connection
from playwright.sync_api import Page, expect

from games.models import Game
from tests.frontend.browser_helpers import (
    GameSockets,
    create_players,
    expect_move_number,
    open_game,
    pile,
    post_move,
    release_connection,
    sign_in,
    start_game,
    watch_errors,
)
from tests.support.servers import LOGS, ROOT, database_url, wait_until_up

pytestmark = pytest.mark.django_db(transaction=True)

GAME = "gold-mine"  # 52 cards in the stock, dealt three at a time: many deals to make
SEED = 3


def deal(page: Page) -> None:
    pile(page, "stock").focus()
    page.keyboard.press("d")


def stored_move_number(game_id: int) -> int:
    """The game's move number as the server stored it (the test database it shares)."""
    number = Game.objects.get(pk=game_id).move_number
    release_connection()
    return number


def moves_applied(page: Page, game_id: int) -> dict:
    """What the API says of the game: its move number and how many moves and undos it counts."""
    game = page.evaluate(
        "async (id) => (await fetch(`/api/games/${id}/`, {credentials: 'same-origin'})).json()",
        game_id,
    )
    return {"move_number": game["move_number"], "moves": game["counts"]["moves"]}


def test_moves_made_offline_are_sent_once_when_the_browser_is_back_online(
    site, new_context, django_user_model
):
    create_players(django_user_model, "ada")
    context = new_context()
    page = context.new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    game_id = start_game(page, GAME, seed=SEED)
    open_game(page, site, game_id)
    deal(page)
    expect_move_number(page, 1)

    context.set_offline(True)
    expect(page.locator("#live")).to_have_text("Offline")
    expect(page.locator("#live")).to_have_attribute("data-state", "offline")
    for _ in range(3):
        deal(page)
    expect(page.locator("#board")).to_have_attribute("data-pending", "3")
    expect(page.locator("#message")).to_contain_text("3 moves wait for the connection")
    expect_move_number(page, 1)  # the board never guesses: it shows what the server has
    page.wait_for_timeout(3000)  # several tries fail meanwhile, each with the same key
    assert stored_move_number(game_id) == 1

    context.set_offline(False)
    expect(page.locator("#live")).to_have_text("Live")
    expect_move_number(page, 4)
    expect(page.locator("#message")).to_have_text(
        "Connection back: the moves kept meanwhile were sent."
    )
    expect(page.locator("#board")).not_to_have_attribute("data-pending", "3")
    assert moves_applied(page, game_id) == {"move_number": 4, "moves": 4}

    # Offline again, and meanwhile another tab (a session of its own) moves first: the move kept
    # here is refused as stale when it goes, and the page shows the game as it is now.
    context.set_offline(True)
    expect(page.locator("#live")).to_have_text("Offline")
    deal(page)
    deal(page)
    expect(page.locator("#board")).to_have_attribute("data-pending", "2")
    other = new_context().new_page()
    sign_in(other, site, "ada")
    post_move(other, game_id, {"type": "deal"}, 4)
    context.set_offline(False)
    expect_move_number(page, 5)
    expect(page.locator("#message")).to_contain_text(
        "While you were offline the game moved on in another tab or device"
    )
    page.wait_for_timeout(1500)  # the second move kept was chosen on the old board: dropped
    assert moves_applied(page, game_id) == {"move_number": 5, "moves": 5}
    expect_move_number(page, 5)
    assert errors == []


class RestartableServer:
    """One server process on a port that stays the same when it is stopped and started again
    (a deploy's restart): while it is down, connections to the port are refused."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = {**os.environ, **env}
        self.port: int | None = None
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        # The same port each time (0 the first: the kernel picks one). The test keeps no copy of
        # the socket once the server has it, so the port refuses connections while it is down.
        with socket.socket() as listener:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind(("127.0.0.1", self.port or 0))
            listener.listen(128)
            self.port = listener.getsockname()[1]
            LOGS.mkdir(parents=True, exist_ok=True)
            with (LOGS / f"server-{self.port}.log").open("ab") as log:
                self.process = subprocess.Popen(
                    [sys.executable, "-m", "tests.support.serve_socket", str(listener.fileno())],
                    cwd=ROOT,
                    env=self.env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                    pass_fds=(listener.fileno(),),
                )
        wait_until_up(self.url, self.process)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


@pytest.fixture
def restartable_site(browser, transactional_db) -> Iterator[RestartableServer]:
    env = {
        "DATABASE_URL": database_url(connection.settings_dict),
        "DEBUG": "1",
        "SECRET_KEY": "browser-tests",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_POOL_MAX": "6",
    }
    if os.environ.get("REDIS_URL"):
        env["REDIS_URL"] = os.environ["REDIS_URL"]
    connection.close()
    server = RestartableServer(env)
    server.start()
    try:
        yield server
    finally:
        server.stop()
        connection.close()


def test_moves_made_while_the_server_restarts_or_its_proxy_fails_are_each_applied_once(
    restartable_site, new_context, django_user_model
):
    create_players(django_user_model, "ada")
    site = restartable_site.url
    page = new_context().new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    game_id = start_game(page, GAME, seed=SEED)
    relayed = GameSockets(page)  # the game's websocket, which the proxy below cuts
    open_game(page, site, game_id)

    restartable_site.stop()
    expect(page.locator("#live")).to_have_text("Reconnecting…")
    for _ in range(3):
        deal(page)
    expect(page.locator("#board")).to_have_attribute("data-pending", "3")
    page.wait_for_timeout(2000)
    assert stored_move_number(game_id) == 0

    restartable_site.start()
    expect(page.locator("#live")).to_have_text("Live", timeout=40_000)
    expect_move_number(page, 3)
    assert moves_applied(page, game_id) == {"move_number": 3, "moves": 3}

    # A proxy in front of the server answers 502 for a while (the server behind it not there
    # yet), and lets no websocket through: the moves wait as they do offline, and go once it
    # answers again.
    refused = []

    def bad_gateway(route) -> None:
        refused.append(route.request.headers.get("idempotency-key"))
        route.fulfill(status=502, content_type="text/html", body="<h1>502 Bad Gateway</h1>")

    page.route("**/api/games/*/moves/", bad_gateway)
    relayed.cut = True
    relayed.sockets[-1].close()
    expect(page.locator("#live")).to_have_text("Reconnecting…")
    deal(page)
    deal(page)
    expect(page.locator("#board")).to_have_attribute("data-pending", "2")
    page.wait_for_timeout(2500)
    assert len(refused) >= 2, refused  # tried again…
    assert len(set(refused)) == 1, refused  # …with the same key each time
    page.unroute("**/api/games/*/moves/")
    relayed.cut = False
    expect(page.locator("#board")).to_have_attribute("data-move-number", "5", timeout=40_000)
    assert moves_applied(page, game_id) == {"move_number": 5, "moves": 5}
    assert errors == []
