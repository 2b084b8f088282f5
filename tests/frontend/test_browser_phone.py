"""A phone-sized window (360 x 740): no page scrolls sideways, and every board fits; the game's
header wraps rather than overlaps; and at every width, phones to desktops, nothing but a move
moves the board (a message, a count, the game's end)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from games.core.history import revealed_hidden_cards
from games.models import Game
from games.rules import get_variant, move_from_json
from games.solver import deadends
from games.solver.lookahead import LOST_MESSAGE
from tests.frontend.browser_helpers import (
    Line,
    board_ready,
    call_api,
    create_players,
    make_a_move,
    open_game,
    post_move,
    release_connection,
    scroll_width,
    sign_in,
    start_game,
    tap_move,
    watch_errors,
    winning_line,
)
from tests.frontend.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 360, "height": 740}
SLUGS = [
    "grounds-for-divorce",
    "gold-mine",
    "selective-castle",
    "grandfathers-clock",
    "blondes-and-brunettes",
]

# Piles whose box reaches past the window's sides (clipped rather than scrolled).
_OFF_SCREEN = """
(width) => [...document.querySelectorAll("#board .pile[data-pile]")]
  .filter((p) => {
    const box = p.getBoundingClientRect();
    return box.left < -0.5 || box.right > width + 0.5;
  })
  .map((p) => p.dataset.pile)
"""


def test_a_phone_sized_window_never_scrolls_sideways(site, new_context, django_user_model):
    create_players(django_user_model, "ada")
    page = new_context(viewport=PHONE, device_scale_factor=2, has_touch=True).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    too_wide: dict[str, int] = {}
    off_screen: dict[str, list[str]] = {}

    def check(name: str) -> None:
        width = scroll_width(page)
        if width > PHONE["width"]:
            too_wide[name] = width
        screenshot(page, f"{name}-phone")

    def lobby() -> Page:
        page.goto(site + "/")
        expect(page.locator("#game-tiles .game-tile")).to_have_count(5)
        expect(page.locator("#daily-list li.daily-item")).to_have_count(5)
        expect(page.locator("#saved-games")).not_to_have_attribute("aria-busy", "true")
        return page

    # A board of each game, dealt with the lobby's "New deal".
    for slug in SLUGS:
        lobby().locator(f'button.new-deal[data-variant="{slug}"]').click()
        page.wait_for_url(re.compile(r"/play/\d+/$"))
        board_ready(page)
        # A move, through the API: the game is then in progress (the lobby lists it).
        make_a_move(page, int(re.search(r"/play/(\d+)/$", page.url).group(1)))
        expect(page.locator("#board")).to_have_attribute("data-move-number", "1")
        expect(page.locator("#board")).to_have_attribute("data-variant", slug)
        check(slug)
        outside = page.evaluate(_OFF_SCREEN, PHONE["width"])
        if outside:
            off_screen[slug] = outside

    lobby()
    expect(page.locator("#saved-games li.saved-game")).to_have_count(5)
    check("lobby")

    page.goto(site + "/daily/")
    expect(page.locator("#challenges .challenge")).to_have_count(5)
    check("daily")

    today = call_api(page, "GET", "/api/daily/")["body"]["date"]
    page.goto(f"{site}/daily/{today}/grandfathers-clock/")
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
    expect(page.locator("#start-attempt")).to_be_visible()
    check("daily-leaderboard")

    page.goto(site + "/leaderboards/")
    expect(page.locator("#tab-grounds-for-divorce")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#min-games")).not_to_be_empty()
    check("leaderboards")

    page.goto(site + "/profile/")
    expect(page.locator("#in-progress li[data-game-id]")).to_have_count(5)
    expect(page.locator("#stats-table tr[data-variant]")).to_have_count(5)
    check("profile")

    assert too_wide == {}, f"pages wider than {PHONE['width']} px: {too_wide}"
    assert off_screen == {}, f"piles outside the window: {off_screen}"
    assert errors == []

    # The lobby at desktop size too, for people to look at.
    page.set_viewport_size({"width": 1280, "height": 900})
    lobby()
    screenshot(page, "lobby-desktop")


# The largest deal number there is (2**53 - 1): its badge is the widest.
LONGEST_SEED = 9007199254740991

# Pairs of the game header's parts whose boxes overlap, and parts past the window's sides.
_HEADER_CLASHES = """
() => {
  const parts = [...document.querySelectorAll(
    "#game-title, #badges > *, .play-stats > div:not([hidden]), .play-actions > :not([hidden])"
  )];
  const boxes = parts.map((p) => [p.id || p.textContent.trim(), p.getBoundingClientRect()]);
  const clashes = [];
  boxes.forEach(([a, one], i) => boxes.slice(i + 1).forEach(([b, two]) => {
    const wide = Math.min(one.right, two.right) - Math.max(one.left, two.left);
    const high = Math.min(one.bottom, two.bottom) - Math.max(one.top, two.top);
    if (wide > 0.5 && high > 0.5) clashes.push(`${a} / ${b}`);
  }));
  for (const [name, box] of boxes) {
    if (box.left < -0.5 || box.right > innerWidth + 0.5) clashes.push(`${name} off screen`);
  }
  return clashes;
}
"""


def test_the_game_header_wraps_rather_than_overlaps(site, page):
    games = {slug: start_game(page, slug, LONGEST_SEED) for slug in SLUGS}
    # The most the header holds: a hint count, and a finished game's outcome and Result button.
    hint = call_api(page, "POST", f"/api/games/{games['gold-mine']}/hint/",
                    {"expected_move_number": 0})  # fmt: skip
    assert hint["status"] == 200, hint
    resigned = call_api(page, "POST", f"/api/games/{games['blondes-and-brunettes']}/resign/", {})
    assert resigned["status"] == 200, resigned
    clashes = {}
    for slug, game_id in games.items():
        page.set_viewport_size({"width": 1280, "height": 900})
        open_game(page, site, game_id, live=False)
        expect(page.locator("#badges .badge.seed")).to_have_text(f"Deal #{LONGEST_SEED}")
        page.keyboard.press("Escape")  # a finished game opens on its result
        for width, height in ((360, 740), (390, 844), (600, 900), (1280, 900)):
            page.set_viewport_size({"width": width, "height": height})
            found = page.evaluate(_HEADER_CLASHES)
            if found:
                clashes[f"{slug} at {width}px"] = found
        page.set_viewport_size({"width": 390, "height": 844})
        screenshot(page, f"{slug}-header-phone")
    assert clashes == {}, clashes


# Where the parts above the board lie, the board's top, and what lies on the title's middle.
_ABOVE_THE_BOARD = """
() => {
  const box = (selector) => document.querySelector(selector).getBoundingClientRect().toJSON();
  const title = box("#game-title");
  const seen = document.elementFromPoint(title.left + 8, (title.top + title.bottom) / 2);
  const buttons = [...document.querySelectorAll(".play-actions > :not([hidden])")]
    .map((b) => b.getBoundingClientRect()).filter((b) => b.width > 0);
  return {
    actions: box(".play-actions"), board: box("#board"), message: box("#message"),
    badges: box("#badges"),
    buttonsTop: Math.min(...buttons.map((b) => b.top)),
    titleShows: Boolean(seen?.closest("#game-title")),
    messageShows: Boolean(seen?.closest(".message-slot")),
  };
}
"""

_BOARD_TOP = "document.querySelector('#board').getBoundingClientRect().top + scrollY"
SIZES = [
    PHONE,
    {"width": 390, "height": 844},
    {"width": 600, "height": 900},
    {"width": 768, "height": 1024},
    {"width": 1024, "height": 768},
    {"width": 1240, "height": 800},
    {"width": 1280, "height": 900},
]


def hide_the_seed(game_id: int, *, age: float = 0) -> None:
    """Make a game of a chosen deal show its deal number only once it is over, as a random
    deal does, and its clock read ``age`` seconds (its time, games/core/clock.py, as if played
    that long). Through the ORM: the server reads both from the database."""
    created = timezone.now() - dt.timedelta(seconds=age)
    Game.objects.filter(id=game_id).update(
        seed_chosen=False, created_at=created, active_ms=round(age * 1000)
    )
    release_connection()


def forward_game_sockets(page: Page) -> list:
    """Pass the page's game websockets through to the server, keeping each so that the test
    can close it from the page's side, as a server's 4503 would."""
    sockets: list = []

    def forward(ws) -> None:
        ws.connect_to_server()
        sockets.append(ws)

    page.route_web_socket(re.compile(r"/ws/games/"), forward)
    return sockets


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size['width']}x{size['height']}")
def test_nothing_but_a_move_moves_the_board(site, new_context, django_user_model, size):
    """What the page shows around the board as a game goes on, without a card moved by the
    player, leaves the board where it is: a message, the hint count, Finish coming and going,
    "Reconnecting…", the time passing an hour, the game's end with its outcome and its deal
    number (a random deal's is hidden until then). At 600 x 900 the first hint's count rewrapped
    the header and moved the board 29 px down; the end of a game moved it at every width."""
    create_players(django_user_model, "ada")
    page = new_context(viewport=size).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    sockets = forward_game_sockets(page)
    game_id = start_game(page, "blondes-and-brunettes", 3)
    hide_the_seed(game_id, age=3590)  # ten seconds short of an hour
    open_game(page, site, game_id)
    expect(page.locator("#timer")).to_have_text(re.compile(r"^59:5\d$"))
    expect(page.locator("#hint-stat")).to_be_hidden()
    expect(page.locator("#finish")).to_be_visible()  # the Four of spades can go home
    expect(page.locator("#badges .badge")).to_have_count(0)
    top = page.evaluate(_BOARD_TOP)
    message = page.locator("#message")

    def stays() -> None:
        assert page.evaluate(_BOARD_TOP) == top

    def check() -> None:
        """The board stays put, and the message fits in the room kept for it above the felt,
        over no button."""
        stays()
        found = page.evaluate(_ABOVE_THE_BOARD)
        box = found["message"]
        assert box["height"] > 0 and box["width"] <= size["width"]
        if size["width"] > 560:
            assert box["bottom"] <= found["board"]["top"] + 0.5, found
            assert box["top"] >= found["actions"]["bottom"] - 0.5, found
        else:  # a phone: a toast over the felt, clear of the title, counts and action bar
            assert box["top"] >= found["board"]["top"] - 0.5, found
            assert box["bottom"] <= found["actions"]["top"] + 0.5, found
            assert found["titleShows"], found

    page.locator("#hint").click()  # a long message: which card, from where, to where
    expect(message).to_have_text(re.compile(r"^Hint: move the .+ from .+ to "))
    expect(page.locator("#hint-count")).to_have_text("1")  # the count comes
    check()

    # A refusal, and one of the engine's longest (139 characters; the longest has 141): the Five
    # of diamonds does not go on the Jack of diamonds. At 600 px it took three lines in a room of
    # two, at 1024 px two in a room of one, and lay over the first row of cards.
    tap_move(page, {"type": "move", "from": "tableau:2", "to": "tableau:1", "count": 1})
    expect(message).to_have_text(re.compile(r"^The Five of diamonds cannot go on the Jack .{80}"))
    check()
    screenshot(page, f"message-{size['width']}")

    # Finish sends the two cards that can go home, reading "Stop" meanwhile, and goes.
    page.locator("#finish").click()
    expect(message).to_have_text("Sent 2 cards to the foundations.")
    expect(page.locator("#finish")).to_be_hidden()
    check()

    # The live updates stop for a moment, and come back.
    sockets[-1].close(code=4503, reason="")
    expect(page.locator("#live")).to_have_text("Reconnecting…")
    stays()
    expect(page.locator("#live")).to_have_text("Live", timeout=15_000)

    expect(page.locator("#timer")).to_have_text(re.compile(r"^1:00:\d\d$"), timeout=15_000)
    stays()

    if page.locator("#menu-button").is_visible():
        page.locator("#menu-button").click()  # a phone's Resign is in the ☰ menu
    page.locator("#resign").click()
    page.locator("#confirm-resign").click()
    expect(page.locator("#result")).to_be_visible()
    page.locator("#result-close").click()
    expect(page.locator("#badges .badge.status-resigned")).to_have_text("Resigned")
    expect(page.locator("#badges .badge.seed")).to_have_text("Deal #3")
    expect(page.locator("#show-result")).to_be_visible()
    stays()
    screenshot(page, f"header-over-{size['width']}")
    assert errors == []


# Every width the header has a layout for, and the edges of those layouts.
HEADER_SIZES = [(320, 640), (360, 740), (390, 844), (560, 800), (561, 800), (600, 900),
                (768, 1024), (820, 1180), (899, 1200), (900, 1200), (1024, 768), (1024, 1366),
                (1180, 820), (1239, 800), (1240, 800), (1440, 900), (1920, 1080)]  # fmt: skip


def board_tops(page: Page) -> dict[str, float]:
    """Where the board's top lies at each of HEADER_SIZES (the window back at 1280 x 900 after)."""
    found = {}
    for width, height in HEADER_SIZES:
        page.set_viewport_size({"width": width, "height": height})
        found[f"{width}x{height}"] = page.evaluate(_BOARD_TOP)
    page.set_viewport_size({"width": 1280, "height": 900})
    return found


def lost_from_the_deal(slug: str) -> bool:
    """Whether the largest deal of ``slug`` is a static dead end from the start, which its hint
    tells (Blondes and Brunettes' is: its reserve cannot go home in its order)."""
    variant = get_variant(slug)
    return deadends.applies(variant) and deadends.is_dead_end(variant, variant.deal(LONGEST_SEED))


def test_the_board_stays_put_at_every_width_in_every_game_until_its_end(site, page):
    """Each game, a casual one and a daily attempt, at every width from 320 to 1920 px: where
    the board lies at the deal, after a hint, after a move and its undo (where the deal has a
    move that can be taken back) and once the game is over, with its outcome and its deal
    number (the largest there is) shown, must be the same."""
    games = {}
    for slug in SLUGS:
        games[slug] = start_game(page, slug, LONGEST_SEED)
        hide_the_seed(games[slug])
    today = call_api(page, "GET", "/api/daily/")["body"]["date"]
    attempt = call_api(page, "POST", f"/api/daily/{today}/gold-mine/attempt/", {})
    assert attempt["status"] == 201, attempt
    games["daily"] = attempt["body"]["id"]

    moved: dict[str, dict[str, str]] = {}
    for name, game_id in games.items():
        page.set_viewport_size({"width": 1280, "height": 900})
        open_game(page, site, game_id)
        dealt = board_tops(page)
        stages = {}
        if name != "daily":  # a ranked attempt has no hint and no undo
            page.locator("#hint").click()
            if lost_from_the_deal(name):
                # Its hint says so, and a hint that suggests no move is not counted.
                expect(page.locator("#message")).to_have_text(LOST_MESSAGE)
                expect(page.locator("#hint-count")).to_have_text("0")
            else:
                expect(page.locator("#hint-count")).to_have_text("1")
            stages["a hint"] = board_tops(page)
            line = Line(name, LONGEST_SEED)
            undoable = [m for m in line.legal() if m["type"] == "move" and can_be_undone(line, m)]
            if undoable:
                tap_move(page, undoable[0])
                expect(page.locator("#undo")).to_be_enabled()
                stages["a move"] = board_tops(page)
                page.locator("#undo").click()
                expect(page.locator("#undo")).to_be_disabled()
                stages["its undo"] = board_tops(page)
        answer = call_api(page, "POST", f"/api/games/{game_id}/resign/", {})
        assert answer["status"] == 200, answer
        expect(page.locator("#result")).to_be_visible()
        page.keyboard.press("Escape")
        expect(page.locator("#badges .badge.status-resigned")).to_be_visible()
        if name != "daily":
            expect(page.locator("#badges .badge.seed")).to_have_text(f"Deal #{LONGEST_SEED}")
        stages["the end"] = board_tops(page)
        for stage, tops in stages.items():
            for size, top in tops.items():
                if top != dealt[size]:
                    moved.setdefault(f"{name} {size}", {})[stage] = (
                        f"{dealt[size]:.0f} -> {top:.0f}"
                    )
        page.set_viewport_size({"width": 768, "height": 1024})
        screenshot(page, f"header-end-{name}-768")
    assert moved == {}, f"the board moved: {moved}"


def can_be_undone(line: Line, move: dict) -> bool:
    """Whether the server would let the player take ``move`` back: it shows no hidden card."""
    _, events = line.variant.play(line.state, move_from_json(move))
    return not revealed_hidden_cards(move, events)


@pytest.mark.parametrize("size", [PHONE, {"width": 390, "height": 844}])
def test_on_a_phone_no_empty_band_lies_above_the_board(site, new_context, django_user_model, size):
    """The room a message needs (three lines on a phone) stayed empty above the board while
    there was none. Now the board follows the top bar (issue 46), and a message is a toast over
    the felt's top: in the window, over no button of the action bar, never over the title or the
    counts (issue 36: a message over them hid the move count and the clock), and gone again after
    the next move."""
    create_players(django_user_model, "ada")
    page = new_context(viewport=size).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    line = Line("blondes-and-brunettes", 3)
    open_game(page, site, start_game(page, "blondes-and-brunettes", 3))
    screenshot(page, f"no-message-{size['width']}")
    idle = page.evaluate(_ABOVE_THE_BOARD)
    assert idle["board"]["top"] - idle["badges"]["bottom"] <= 12, idle
    assert idle["actions"]["top"] >= idle["board"]["bottom"] - 0.5, idle  # the bar below
    assert idle["titleShows"], idle
    message = page.locator("#message")

    def shown(name: str) -> None:
        found = page.evaluate(_ABOVE_THE_BOARD)
        assert found["board"]["top"] == idle["board"]["top"]
        box = found["message"]
        assert box["height"] > 0 and box["top"] >= 0 and box["right"] <= size["width"], found
        assert box["top"] >= found["board"]["top"] - 0.5, found  # on the felt, below the bar
        assert box["bottom"] <= found["actions"]["top"] + 0.5, found  # over no action
        assert found["titleShows"] and not found["messageShows"], found  # the title shows
        screenshot(page, f"{name}-{size['width']}")

    page.locator("#hint").click()
    expect(message).to_have_text(re.compile(r"^Hint: move the .+ from .+ to "))
    shown("message-hint")
    # One of the engine's longest refusals: the 5 of spades does not go on the 3 of hearts.
    tap_move(page, {"type": "move", "from": "tableau:5", "to": "foundation:0", "count": 1})
    expect(message).to_have_attribute("data-kind", "error")
    shown("message-refusal")

    move = next(m for m in line.legal() if m["type"] == "move" and m["to"].startswith("tableau"))
    tap_move(page, move)
    expect(page.locator("#board")).to_have_attribute("data-move-number", "1")
    expect(message).to_be_empty()
    after = page.evaluate(_ABOVE_THE_BOARD)
    assert after["titleShows"] and after["board"]["top"] == idle["board"]["top"], after
    assert errors == []


# Grandfather's Clock on a phone: each foundation's and hour numeral's box, and the board's.
_CLOCK = """
() => {
  const box = (node) => node.getBoundingClientRect().toJSON();
  const piles = Object.fromEntries([...document.querySelectorAll("#board .pile[data-pile]")]
    .map((p) => [p.dataset.pile, box(p.querySelector(".card") ?? p)]));
  const marks = [...document.querySelectorAll("#board .hour-mark")].map(box);
  return { piles, marks, board: box(document.querySelector("#board")),
           page: document.documentElement.scrollWidth };
}
"""


def _overlap(one, two) -> bool:
    wide = min(one["right"], two["right"]) - max(one["left"], two["left"])
    high = min(one["bottom"], two["bottom"]) - max(one["top"], two["top"])
    return wide > 0.5 and high > 0.5


def _middle(box) -> tuple[float, float]:
    return (box["left"] + box["right"]) / 2, (box["top"] + box["bottom"]) / 2


def _check_the_clock(found, size) -> list[str]:
    """What is wrong with a clock drawn on a phone, as a player would say it."""
    problems = []
    if found["board"]["bottom"] > size["height"]:
        problems.append(f"the board ends at {found['board']['bottom']:.0f} px, below the window")
    if found["page"] > size["width"]:
        problems.append("the page scrolls sideways")
    hours = [found["piles"][f"foundation:{i}"] for i in range(12)]
    tableau = found["piles"]["tableau:0"]
    if abs(hours[0]["width"] - tableau["width"]) > 0.5:
        problems.append("the clock's cards are smaller than the tableau's")
    for i, one in enumerate(hours):
        clashes = [j for j in range(i + 1, 12) if _overlap(one, hours[j])]
        problems += [f"hours {i} and {j} overlap" for j in clashes]
        if _overlap(one, tableau):
            problems.append(f"hour {i} lies on the tableau")
    # A clock: 12 at the top, 3 on the right, 6 at the bottom, 9 on the left.
    x = {i: _middle(hours[i])[0] for i in range(12)}
    y = {i: _middle(hours[i])[1] for i in range(12)}
    if not (y[0] == min(y.values()) and y[6] == max(y.values()) and abs(x[0] - x[6]) < 1):
        problems.append("12 and 6 are not at the top and bottom")
    if not (x[3] == max(x.values()) and x[9] == min(x.values()) and abs(y[3] - y[9]) < 1):
        problems.append("3 and 9 are not on the right and left")
    # Each numeral lies nearer its own foundation than any other.
    for i, mark in enumerate(found["marks"]):
        mx, my = _middle(mark)
        distance = [(mx - _middle(h)[0]) ** 2 + (my - _middle(h)[1]) ** 2 for h in hours]
        if distance.index(min(distance)) != i:
            problems.append(f"the numeral of hour {i} lies nearer another foundation")
    return problems


def test_grandfathers_clock_fits_a_phone_with_cards_as_large_as_its_tableaus(
    site, new_context, django_user_model
):
    """Its clock stood above the tableau as an ellipse 7.1 card widths high: the replay's board
    reached past a 360 x 740 window, and the play page's past a 375 x 667 one. On a phone the
    clock is a compact frame of the twelve foundations, and the whole board is in view at the
    deal, its clock's cards the tableau's size, every hour where a clock has it."""
    create_players(django_user_model, "ada")
    page = new_context(viewport=PHONE).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    game_id = start_game(page, "grandfathers-clock", 3)
    found = {}
    for size in (PHONE, {"width": 375, "height": 667}, {"width": 390, "height": 844}):
        page.set_viewport_size(size)
        name = f"{size['width']}x{size['height']}"
        open_game(page, site, game_id)
        found[f"play {name}"] = _check_the_clock(page.evaluate(_CLOCK), size)
        screenshot(page, f"grandfathers-clock-play-{name}")
        if size["width"] == 375:
            continue  # the replay's taller header needs cards under 44 px there: it scrolls
        page.goto(f"{site}/replay/{game_id}/")
        expect(page.locator("#step")).to_have_text("Step 0 of 0")
        expect(page.locator("#board .pile[data-pile]").first).to_be_visible()
        found[f"replay {name}"] = _check_the_clock(page.evaluate(_CLOCK), size)
        screenshot(page, f"grandfathers-clock-replay-{name}")
    assert {where: problems for where, problems in found.items() if problems} == {}
    assert errors == []


# What each replay control shows (its words, or its icon on a phone), as boxes, and the room
# inside its border and padding; the words a screen reader hears are left out when hidden.
_CONTROL_CONTENT = """
() => [...document.querySelectorAll(".replay-controls button")].map((button) => {
  const box = button.getBoundingClientRect();
  const style = getComputedStyle(button);
  const inner = {
    left: box.left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft),
    right: box.right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight),
  };
  const shown = [];
  const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.nodeType === Node.TEXT_NODE ? node.parentElement : node;
    const hidden = element.closest(".visually-hidden") ||
      getComputedStyle(element).display === "none" || getComputedStyle(element).clipPath !== "none";
    if (hidden) continue;
    if (node.nodeType === Node.TEXT_NODE && !node.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rect = (node.nodeType === Node.TEXT_NODE ? range : node).getBoundingClientRect();
    if (rect.width) shown.push({ left: rect.left, right: rect.right });
  }
  return { id: button.id, box: { left: box.left, right: box.right }, inner, shown };
})
"""


@pytest.mark.parametrize("width", [320, 360, 414])
def test_the_replay_controls_fit_a_phone_and_keep_their_names(
    site, new_context, django_user_model, width
):
    create_players(django_user_model, "ada")
    page = new_context(viewport={"width": width, "height": 740}).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    game_id = start_game(page, "selective-castle", 5)
    assert call_api(page, "POST", f"/api/games/{game_id}/resign/", {})["status"] == 200
    page.goto(f"{site}/replay/{game_id}/")
    expect(page.locator("#step")).to_have_text(re.compile(r"^Step 0 of \d+$"))

    for name in ("First", "Back", "Play", "Forward", "Last"):
        expect(page.get_by_role("button", name=name, exact=True)).to_be_visible()
    controls = page.evaluate(_CONTROL_CONTENT)
    tops = {round(page.locator(f"#{c['id']}").bounding_box()["y"]) for c in controls}
    assert len(tops) == 1, "the five controls keep to one row"
    spill = {
        c["id"]: c["shown"]
        for c in controls
        if not c["shown"]
        or c["box"]["left"] < 0
        or c["box"]["right"] > width
        or any(r["left"] < c["inner"]["left"] - 0.5 or r["right"] > c["inner"]["right"] + 0.5
               for r in c["shown"])
    }  # fmt: skip
    assert spill == {}, f"a control's label or icon spills out of it (or shows nothing): {spill}"
    assert scroll_width(page) <= width

    page.locator("#play").click()
    expect(page.get_by_role("button", name="Pause", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    screenshot(page, f"replay-controls-{width}")
    assert errors == []


# Per game, how far into its winning line (tests/rules/winning_lines.json) to look: where the
# labelled piles hold most (Grounds for Divorce: three runs on the discard, four cards in the
# stock; Blondes and Brunettes: a reserve half gone, Grandfather's Clock: won, its dial counting
# complete foundations). Selective Castle labels no pile: it must stay so.
LABEL_PREFIX = {
    "grounds-for-divorce": 126,
    "gold-mine": 20,
    "selective-castle": 10,
    "grandfathers-clock": 41,
    "blondes-and-brunettes": 30,
}

# The words written on the felt beside the piles: a stock's, the discard's and the reserve's
# badges, and Grandfather's Clock's hours and count of complete foundations.
_LABEL_CLASHES = """
() => {
  const cards = [...document.querySelectorAll("#board .card")]
    .map((card) => card.getBoundingClientRect());
  const labels = [...document.querySelectorAll(
    "#board .pile > .count, #board .hour-mark, #board .clock-centre"
  )].filter((label) => label.getClientRects().length);
  const clashes = [];
  for (const label of labels) {
    // A badge by its box; the dial's words by their text (the count fills the dial's centre).
    const text = document.createRange();
    text.selectNodeContents(label);
    const box = (label.matches(".count") ? label : text).getBoundingClientRect();
    const pile = label.closest(".pile")?.dataset.pile ?? "dial";
    if (cards.some((c) => Math.min(c.right, box.right) - Math.max(c.left, box.left) > 0.5 &&
                          Math.min(c.bottom, box.bottom) - Math.max(c.top, box.top) > 0.5)) {
      clashes.push(`${pile}: "${label.textContent}"`);
    }
  }
  return { clashes, labels: labels.length };
}
"""
_FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
LABEL_SIZES = [{"width": 375, "height": 667}, {"width": 390, "height": 844}, PHONE,
               {"width": 1280, "height": 900}]  # fmt: skip


@pytest.mark.parametrize("slug", SLUGS)
def test_no_pile_label_covers_a_card_on_the_play_and_replay_pages(
    site, new_context, django_user_model, slug
):
    """The badges that name and count piles, and the clock's numerals, lie beside the cards at
    phone and desktop widths, at the deal and later in the game, on the play page and the replay."""
    create_players(django_user_model, "ada")
    page = new_context(viewport=LABEL_SIZES[0]).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    winning = winning_line(slug)
    game_id = start_game(page, slug, winning["seed"])
    prefix = LABEL_PREFIX[slug]
    for number, move in enumerate(winning["moves"][:prefix]):
        post_move(page, game_id, move, number)
    found: dict[str, list[str]] = {}
    counted = 0

    def check(where: str) -> None:
        nonlocal counted
        for size in LABEL_SIZES:
            page.set_viewport_size(size)
            page.evaluate(_FRAMES)  # the fans are re-spaced on the next frame
            result = page.evaluate(_LABEL_CLASHES)
            counted += result["labels"]
            if result["clashes"]:
                found[f"{where} at {size['width']}x{size['height']}"] = result["clashes"]
            if size["width"] < 400 or where == "play":
                screenshot(page, f"labels-{slug}-{where}-{size['width']}")

    open_game(page, site, game_id)
    expect(page.locator("#board")).to_have_attribute("data-move-number", str(prefix))
    page.keyboard.press("Escape")  # a won game opens on its result
    check("play")
    page.goto(f"{site}/replay/{game_id}/")
    expect(page.locator("#step")).to_have_text(f"Step 0 of {prefix}")
    expect(page.locator("#board .pile[data-pile]").first).to_be_visible()
    check("replay-deal")
    page.locator("#last").click()
    expect(page.locator("#board")).to_have_attribute("data-move-number", str(prefix))
    check("replay-last")
    assert found == {}, f"labels over cards: {found}"
    assert (counted > 0) == (slug != "selective-castle")
    assert errors == []
