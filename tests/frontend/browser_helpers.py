"""Helpers for the browser tests: signing in, starting deals, reading and moving on the board.

Everything goes through the page (its forms, its clicks, or fetch from the page with the
session and csrftoken cookies), never through the games' services: the server under test is a
separate process, and this thread runs Playwright's event loop.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from django.db import connection
from playwright.sync_api import Locator, Page, expect

from games.models import Game
from games.rules import IllegalMove, get_variant, move_from_json

WINNING_LINES = Path(__file__).resolve().parents[1] / "rules" / "winning_lines.json"

PASSWORD = "correct-horse-battery-staple"
_ANY = re.compile(".*")
_SELECTED = re.compile(r"\bselected\b")
_HAS_DROP_HOVER = re.compile(r"\bdrop-hover\b")

expect.set_options(timeout=10_000)

# fetch() from the page: the session cookie goes along, and writes carry X-CSRFToken from the
# csrftoken cookie (fetched first when there is none), as the site's own api.js does.
_FETCH = """
async ([method, path, body]) => {
  const cookie = () => document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
  if (!cookie()) await fetch("/api/auth/csrf/", { credentials: "same-origin" });
  const token = decodeURIComponent((cookie() || "=").split("=")[1]);
  const headers = { Accept: "application/json", "X-CSRFToken": token };
  if (body !== null) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method, headers, credentials: "same-origin",
    body: body === null ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}
"""

# What the board shows: each pile's cards (codes; null for a face-down card) and counts.
_SNAPSHOT = """
() => Object.fromEntries([...document.querySelectorAll("#board .pile[data-pile]")].map((p) => [
  p.dataset.pile,
  {
    count: p.dataset.count,
    faceDown: p.dataset.faceDown,
    label: p.getAttribute("aria-label"),
    cards: [...p.querySelectorAll(":scope > .card")].map((c) => c.dataset.card ?? null),
  },
]))
"""


def create_players(user_model, *names: str) -> None:
    """Players with PASSWORD, through the ORM."""
    for name in names:
        user_model.objects.create_user(name, password=PASSWORD)
    release_connection()


def release_connection() -> None:
    """Hand the test's database connection back after using the ORM. (The test body runs in
    Playwright's context, and a connection it leaves checked out of the pool keeps a session
    open on the test database, which then cannot be dropped at the end of the run.)"""
    connection.close()


def watch_errors(page: Page) -> list[str]:
    """Collect the page's uncaught JS errors (assert the list is empty at the end)."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    return errors


def call_api(page: Page, method: str, path: str, body: Any = None) -> dict[str, Any]:
    """{status, body} of a request made by the page itself (it must be on the site)."""
    return page.evaluate(_FETCH, [method, path, body])


def post_move(page: Page, game_id: int, move: dict[str, Any], expected_move_number: int) -> None:
    """Play ``move`` through the API from the page, asserting the server took it."""
    answer = call_api(
        page,
        "POST",
        f"/api/games/{game_id}/moves/",
        {"move": move, "expected_move_number": expected_move_number},
    )
    assert answer["status"] == 201, answer


def make_a_move(page: Page, game_id: int) -> None:
    """A legal move that leaves the game in play, through the API: a game with a move is in
    progress (one with none is in no list and counts nowhere). The first legal move is not
    always one: it ends about 1 deal in 200 of Selective Castle and 1 in 1,000 of Grandfather's
    Clock, and the lobby's server-chosen deals then listed one game too few."""
    game = call_api(page, "GET", f"/api/games/{game_id}/")["body"]
    post_move(page, game_id, move_keeping_play(game_id, game["legal_moves"]), game["move_number"])


def move_keeping_play(game_id: int, legal_moves: list[dict[str, Any]]) -> dict[str, Any]:
    """The first of ``legal_moves`` after which the game is still in play, judged by the engine
    on the game's stored state (read from the test database, whose rows the server shares)."""
    game = Game.objects.select_related("deal").get(pk=game_id)
    release_connection()
    variant = get_variant(game.deal.variant)
    state = variant.state_from_json(game.state)
    for move in legal_moves:
        if variant.status(variant.apply(state, move_from_json(move))) == "playing":
            return move
    raise AssertionError(f"every legal move of game {game_id} ends it: {legal_moves}")


def sign_in(page: Page, site: str, username: str, password: str = PASSWORD) -> None:
    """Sign the page's context in by POSTing /api/auth/login/ from the page."""
    if not page.url.startswith(site):
        page.goto(site + "/signin/")
    answer = call_api(
        page, "POST", "/api/auth/login/", {"username": username, "password": password}
    )
    assert answer["status"] == 200, answer


def start_game(page: Page, slug: str, seed: int | None = None) -> int:
    """A new game through POST /api/games/ from the page; returns its id."""
    body: dict[str, Any] = {"variant": slug}
    if seed is not None:
        body["seed"] = seed
    answer = call_api(page, "POST", "/api/games/", body)
    assert answer["status"] == 201, answer
    return answer["body"]["id"]


def wait_for_new_game(page: Page, *left: int) -> int:
    """Wait until the page has gone to a game page other than those of ``left``; its id."""

    def game_of(url: str) -> int | None:
        found = re.search(r"/play/(\d+)/$", url)
        return int(found.group(1)) if found else None

    page.wait_for_url(lambda url: game_of(url) not in (None, *left))
    return game_of(page.url)


#: The actions the play page sends on the game's websocket, and the REST path each stands for
#: (docs/api.md, "Moves on the game's websocket").
SOCKET_ACTIONS = {"move": "moves", "undo": "undo", "resign": "resign", "end": "end"}
#: A REST action of a game's, as the page would POST it when its socket is down.
REST_ACTION = re.compile(r"/api/games/\d+/(moves|undo|resign|end)/$")


def watch_rest_actions(page: Page) -> list[str]:
    """The REST actions (POST …/moves/, undo/, resign/, end/) the page sends, by URL."""
    sent: list[str] = []
    page.on(
        "request", lambda r: r.method == "POST" and REST_ACTION.search(r.url) and sent.append(r.url)
    )
    return sent


class GameSockets:
    """The page's game websockets, passed through the test to the server
    (``page.route_web_socket``): the test sees every action the page sends on them (``actions``,
    each message parsed), and may hold, alter or answer one itself (``on_action(message,
    forward, reply)``: ``forward(message)`` sends it on to the server, ``reply(answer)`` answers
    the page as the server would), drop what the server says (``drop(message)`` true), or cut
    them: while ``cut``, actions are lost on the way and new connections are closed at once (a
    proxy with no server behind it). ``sockets``: the page's side of each, to close it;
    ``servers``: the server's side of each, to send on it what the page did not;
    ``answers``: the answers the server sent on them, parsed."""

    def __init__(self, page: Page, on_action=None, drop=None) -> None:
        self.sockets: list = []
        self.servers: list = []
        self.actions: list[dict[str, Any]] = []
        self.answers: list[dict[str, Any]] = []
        self.on_action = on_action
        self.drop = drop
        self.cut = False
        page.route_web_socket(re.compile(r"/ws/games/"), self._connect)

    def kinds(self) -> list[str]:
        """The REST path's last step of each action sent on a socket, in order."""
        return [SOCKET_ACTIONS[action["type"]] for action in self.actions]

    def _connect(self, ws) -> None:
        if self.cut:
            ws.close(code=1011, reason="")
            return
        server = ws.connect_to_server()
        self.sockets.append(ws)
        self.servers.append(server)

        def from_page(message) -> None:
            try:
                data = json.loads(message)
            except ValueError:
                data = None
            if not (isinstance(data, dict) and data.get("type") in SOCKET_ACTIONS):
                server.send(message)
                return
            self.actions.append(data)
            if self.cut:
                return

            def forward(sent: dict[str, Any] = data) -> None:
                server.send(json.dumps(sent))

            if self.on_action is None:
                forward()
            else:
                self.on_action(data, forward, lambda answer: ws.send(json.dumps(answer)))

        def from_server(message) -> None:
            try:
                data = json.loads(message)
            except ValueError:
                data = None
            if isinstance(data, dict) and data.get("type") == "answer":
                self.answers.append(data)
            if self.drop is None or not self.drop(data):
                ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)


def open_game(page: Page, site: str, game_id: int, *, live: bool = True) -> None:
    """Go to /play/<id>/ and wait until the board is drawn (and its websocket is open)."""
    page.goto(f"{site}/play/{game_id}/")
    board_ready(page, live=live)


def open_play_menu(page: Page) -> bool:
    """On a phone, open the play page's ☰ menu (its header's links, new game, settings, rules
    and resign are there) unless it is open; True when there is one (False on a desktop, whose
    bar holds those controls)."""
    button = page.locator("#menu-button")
    if not button.is_visible():
        return False
    if button.get_attribute("aria-expanded") != "true":
        button.click()
    expect(page.locator("#play-menu")).to_be_visible()
    return True


def board_ready(page: Page, *, live: bool = True) -> None:
    expect(page.locator("#board")).to_have_attribute("data-move-number", _ANY)
    expect(page.locator("#board .pile[data-pile]").first).to_be_visible()
    if live:
        expect(page.locator("#live")).to_have_attribute("data-state", "open")


def board_still(page: Page, timeout: float = 10_000) -> None:
    """Wait until no animation or transition of the board's runs: the cards are where they
    go (a wait for that, not for the time it usually takes)."""
    page.wait_for_function(
        """() => !document.getAnimations().some(
             (a) => a.playState === "running" && a.effect?.target?.closest?.("#board")
           )""",
        timeout=timeout,
    )


def pile(page: Page, pile_id: str):
    return page.locator(f'#board .pile[data-pile="{pile_id}"]')


def cards(page: Page, pile_id: str):
    return page.locator(f'#board .pile[data-pile="{pile_id}"] > .card')


def snapshot(page: Page) -> dict[str, Any]:
    return page.evaluate(_SNAPSHOT)


def expect_move_number(page: Page, number: int) -> None:
    expect(page.locator("#board")).to_have_attribute("data-move-number", str(number))


def _centre(box: dict[str, float]) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def grab_point(page: Page, pile_id: str, count: int = 1) -> tuple[float, float]:
    """Where to press to lift the top ``count`` cards: on the lowest of them, near its top
    edge when more cards lie over it (a fan shows only its top strip)."""
    card = cards(page, pile_id).nth(-count) if count > 1 else cards(page, pile_id).last
    card.scroll_into_view_if_needed()
    box = card.bounding_box()
    assert box, f"no card to grab on {pile_id}"
    if count > 1:
        return box["x"] + box["width"] / 2, box["y"] + min(8, box["height"] / 6)
    return _centre(box)


def drop_point(page: Page, pile_id: str) -> tuple[float, float]:
    """The middle of the pile's top card, or of the pile when it is empty."""
    top = cards(page, pile_id)
    target = top.last if top.count() else pile(page, pile_id)
    box = target.bounding_box()
    assert box, f"pile {pile_id} is not on the page"
    return _centre(box)


def drag_move(page: Page, move: dict[str, Any]) -> None:
    """Drag the move's cards from their pile and drop them on the target pile (mouse
    pointer events: press, travel, release)."""
    x, y = grab_point(page, move["from"], move.get("count", 1))
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 12, y + 12, steps=3)  # past the 6 px threshold: now a drag
    expect(page.locator(".drag-ghost")).to_have_count(1)
    tx, ty = drop_point(page, move["to"])
    page.mouse.move(tx, ty, steps=8)
    expect(pile(page, move["to"])).to_have_class(_HAS_DROP_HOVER)
    page.mouse.up()
    expect(page.locator(".drag-ghost")).to_have_count(0)


def tap_move(page: Page, move: dict[str, Any]) -> None:
    """Tap (click) the move's lowest card, then the target pile; a deal taps the stock."""
    if move["type"] == "deal":
        pile(page, "stock").click()
        return
    count = move.get("count", 1)
    card = cards(page, move["from"]).nth(-count) if count > 1 else cards(page, move["from"]).last
    if count > 1:
        box = card.bounding_box()
        card.click(position={"x": box["width"] / 2, "y": min(8, box["height"] / 6)})
    else:
        card.click()
    expect(card).to_have_class(_SELECTED)
    x, y = drop_point(page, move["to"])
    page.mouse.click(x, y)


def tops(page: Page) -> dict[str, str | None]:
    """Each pile's top card as drawn (a code; None for a face-down card or an empty pile),
    the stock left out (it shows a back)."""
    return {
        pile_id: (entry["cards"][-1] if entry["cards"] else None)
        for pile_id, entry in snapshot(page).items()
        if pile_id != "stock"
    }


# -- the engine: what a move should do, computed with the same rules the server uses ---------


class Line:
    """A deal followed through the engine, to know what each planned move should show."""

    def __init__(self, slug: str, seed: int) -> None:
        self.slug = slug
        self.variant = get_variant(slug)
        self.state = self.variant.deal(seed)

    def legal(self) -> list[dict[str, Any]]:
        return [move.to_json() for move in self.variant.legal_moves(self.state)]

    def view(self) -> dict[str, Any]:
        return self.variant.player_view(self.state)

    def top(self, pile_id: str) -> str | None:
        cards = self.view()["piles"][pile_id]["cards"]
        return cards[-1] if cards else None

    def tops(self) -> dict[str, str | None]:
        """Each pile's top card as the board should draw it (see tops() above)."""
        return {
            pile_id: self.top(pile_id) for pile_id in self.view()["piles"] if pile_id != "stock"
        }

    def refusal(self, move: dict[str, Any]) -> str:
        """The engine's message for an illegal move (fails if the move is legal)."""
        try:
            self.variant.apply(self.state, move_from_json(move))
        except IllegalMove as error:
            return error.message
        raise AssertionError(f"{move} is legal")

    def play(self, move: dict[str, Any]) -> list[dict[str, Any]]:
        """Apply a move, asserting it is legal; returns the engine's events."""
        assert move in self.legal(), f"{move} is not legal here: {self.legal()}"
        self.state, events = self.variant.play(self.state, move_from_json(move))
        return events


def winning_line(slug: str) -> list[dict[str, Any]]:
    """A winning line of moves of ``slug``'s deal in tests/rules/winning_lines.json."""
    return json.loads(WINNING_LINES.read_text())[slug]


def focused_pile(page: Page) -> str | None:
    """The pile that has the keyboard focus (None when the focus is not on a board pile)."""
    return page.evaluate(
        "document.activeElement?.closest('#board') ? document.activeElement.dataset.pile : null"
    )


def tab_stops(page: Page) -> list[str]:
    """The board's piles that Tab stops at (tabindex 0)."""
    return page.evaluate(
        """() => [...document.querySelectorAll("#board .pile[data-pile]")]
             .filter((pile) => pile.tabIndex === 0).map((pile) => pile.dataset.pile)"""
    )


def assert_the_board_is_one_tab_stop(page: Page, before_board: Locator) -> None:
    """Tab from ``before_board`` (the last control before the board, focused) reaches the
    board's first pile, one more Tab leaves the board and Shift+Tab comes back; on the board
    the arrows, Home and End move between piles, and the pile they reach becomes the stop.
    Leaves the focus on foundation:0 (the board of Grandfather's Clock or Selective Castle)."""
    before_board.focus()
    page.keyboard.press("Tab")
    assert focused_pile(page) == "foundation:0"
    page.keyboard.press("Tab")  # and out again
    assert focused_pile(page) is None
    page.keyboard.press("Shift+Tab")
    assert focused_pile(page) == "foundation:0"

    page.keyboard.press("ArrowDown")
    down = focused_pile(page)
    assert down is not None and down.startswith("tableau:"), down
    page.keyboard.press("ArrowRight")
    right = focused_pile(page)
    assert right is not None and right != down and right.startswith("tableau:"), right
    assert tab_stops(page) == [right]
    page.keyboard.press("End")
    assert focused_pile(page) == "tableau:7"
    page.keyboard.press("Home")
    assert focused_pile(page) == "foundation:0"


def navigate_to(page: Page, target: str, *, limit: int = 24) -> None:
    """Move the keyboard focus with the arrow keys from the focused pile to ``target``: each
    step presses the arrow pointing from the focused pile toward the target."""
    goal = pile(page, target)
    for _ in range(limit):
        here = page.evaluate("document.activeElement?.dataset?.pile ?? null")
        assert here, "no pile has the focus"
        if here == target:
            return
        a = pile(page, here).bounding_box()
        b = goal.bounding_box()
        dx = (b["x"] + b["width"] / 2) - (a["x"] + a["width"] / 2)
        dy = b["y"] - a["y"]
        if abs(dx) >= abs(dy):
            page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
        else:
            page.keyboard.press("ArrowDown" if dy > 0 else "ArrowUp")
    raise AssertionError(f"the arrow keys did not reach {target}")


def scroll_width(page: Page) -> int:
    """The document's scroll width: at most the viewport's width when nothing scrolls sideways."""
    return page.evaluate("document.documentElement.scrollWidth")


def luminance(rgb: tuple[float, float, float]) -> float:
    """A colour's relative luminance (WCAG 2), from 0-255 channels."""

    def channel(value: float) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = (channel(v) for v in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(one: tuple[float, float, float], two: tuple[float, float, float]) -> float:
    """The contrast ratio of two colours (WCAG 2): 1 to 21."""
    light, dark = sorted((luminance(one), luminance(two)), reverse=True)
    return (light + 0.05) / (dark + 0.05)
