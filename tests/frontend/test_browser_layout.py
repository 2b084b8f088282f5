"""How the board reads, measured in a real browser: long piles late in a game keep every card's
corner in view (the page grows instead), special piles are labelled, and the focus, a picked
card, its targets and a hint each look different."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.frontend.browser_helpers import (
    Line,
    board_still,
    cards,
    contrast,
    create_players,
    open_game,
    pile,
    post_move,
    sign_in,
    start_game,
    watch_errors,
    winning_line,
)
from tests.frontend.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}

# Per game, a deal and moves that pile one tableau pile high (found by searching the engine's
# moves for the tallest pile): "t3>t0" moves tableau:3's top card to tableau:0, "*n" moves n
# cards, "d" deals; w, r and f are the waste, the reserve and a foundation.
LONG_PILES = {
    "grounds-for-divorce": (1, "t2>t0 t4>t0 t4>t0 t6>t0 d d t6>t0 t3>t0 d d t2>t0 t7>t0 d d t3>t0 "
                               "t3>t0 t3>t0 t6>t0 t7>t2 t7>t0"),
    "gold-mine": (5, "d w>t0 d w>t1 w>t2 w>t3 t0>t3 d w>t2 d w>t1 w>t2 w>t0 w>t2 t1>t2*2 d w>t2 "
                     "w>t1 w>t4 t2>t4*7 w>t2 w>t5 w>t4 t2>t4 d d d w>t2 w>t4 t4>t2*11 d d d w>t4 "
                     "w>t6 t2>t6*12"),
    "selective-castle": (4, "t2>t3 t7>f0 t7>t3 t0>t3 t0>t3 t1>t3 t7>t3 t0>t3 t4>t3 t7>t3 t0>t6 "
                            "t0>t3 t1>t3"),
    "grandfathers-clock": (1, "t6>t0 t4>t0 t6>t7 t6>t3 t6>t7 t6>f8 t3>t6 t3>t7 t6>t7 t1>t6 t1>t7 "
                              "t2>t7 t1>t7 t5>t7 t3>t7 t0>t7 t3>f0 t3>f1 t3>t7 t2>t7 t0>t3 t0>f6 "
                              "t0>t7 t6>t7 t2>f5 t2>t7 t4>t3 t4>t7 t0>t5 t0>t7 t4>t7 t1>t7 t5>t6 "
                              "t5>t7 t6>t7"),
    "blondes-and-brunettes": (46, "d d w>t8 t7>t8 d w>t8 " + "d " * 16 + "w>t8 t1>t8 "
                                  + "d " * 18 + "w>t8 d d d d w>t8 " + "d " * 9
                                  + "w>t8 d d d w>t8 t0>t8 t6>t8"),
}  # fmt: skip
_PILES = {"t": "tableau", "f": "foundation", "w": "waste", "r": "reserve"}
_STEP = re.compile(r"([a-z])(\d*)>([a-z])(\d*)(?:\*(\d+))?")


def parse_move(text: str) -> dict:
    """A move of LONG_PILES' shorthand as the API's JSON."""
    if text == "d":
        return {"type": "deal"}
    source, i, target, j, count = _STEP.fullmatch(text).groups()
    name = lambda kind, n: f"{_PILES[kind]}:{n}" if n else _PILES[kind]  # noqa: E731
    return {"type": "move", "from": name(source, i), "to": name(target, j),
            "count": int(count or 1)}  # fmt: skip


def play_line(page: Page, slug: str, seed: int, moves: str) -> tuple[int, Line]:
    """A game of ``seed`` with ``moves`` played through the API (each checked by the engine)."""
    line = Line(slug, seed)
    game_id = start_game(page, slug, seed)
    for text in moves.split():
        move = parse_move(text)
        number = line.state.move_number
        line.play(move)
        post_move(page, game_id, move, number)
    return game_id, line


# Cards of fanned piles whose corner index (rank and suit) the next card covers, and piles with
# cards past the felt's bottom or right edge.
_COVERED = """
() => {
  const covered = [];
  for (const pile of document.querySelectorAll("#board .pile[data-fan]")) {
    const cards = [...pile.querySelectorAll(":scope > .card")];
    cards.slice(0, -1).forEach((card, i) => {
      const index = card.querySelector(".index.top");
      if (!index) return;  // a back: only its edge need show
      const corner = index.getBoundingClientRect();
      const next = cards[i + 1].getBoundingClientRect();
      const hidden = pile.dataset.fan === "down" ? next.top < corner.bottom - 0.5
                                                 : next.left < corner.right - 0.5;
      if (hidden) covered.push(`${pile.dataset.pile}: ${card.dataset.card}`);
    });
  }
  const felt = document.querySelector("#board").getBoundingClientRect();
  const outside = [...document.querySelectorAll("#board .pile[data-pile]")]
    .filter((p) => [...p.querySelectorAll(".card")]
      .some((c) => {
        const box = c.getBoundingClientRect();
        return box.bottom > felt.bottom || box.right > felt.right;
      }))
    .map((p) => p.dataset.pile);
  return { covered, outside, scrolls: document.documentElement.scrollHeight > innerHeight };
}
"""


def test_long_piles_show_every_cards_corner_and_the_page_grows_to_hold_them(site, page):
    found = {}
    for slug, (seed, moves) in LONG_PILES.items():
        game_id, line = play_line(page, slug, seed, moves)
        tallest = max(
            len(p["cards"]) for k, p in line.view()["piles"].items() if k.startswith("tableau:")
        )
        assert tallest >= 12, (slug, tallest)
        for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(size)
            open_game(page, site, game_id)
            expect(cards(page, "tableau:0").first).to_be_visible()
            result = page.evaluate(_COVERED)
            if result["covered"] or result["outside"]:
                found[f"{slug} ({name})"] = result
            if name == "desktop":
                assert result["scrolls"], f"{slug}: the page should grow to hold the long pile"
                screenshot(page, f"{slug}-long-piles")
    assert found == {}, f"cards whose corner is covered, or piles off the felt: {found}"


def test_the_reserve_is_labelled_as_the_other_games_special_piles_are(site, page):
    # Grounds for Divorce's discard: its outline says what it takes, a badge counts its runs;
    # a stock's badge counts its cards. Blondes and Brunettes' reserve: named and counted.
    open_game(page, site, start_game(page, "grounds-for-divorce", 1))
    expect(pile(page, "discard")).to_have_attribute("data-hint", "K\u2013A")
    expect(pile(page, "stock").locator(".count")).to_be_visible()

    open_game(page, site, start_game(page, "blondes-and-brunettes", 3))
    reserve = pile(page, "reserve")
    expect(reserve).to_have_attribute("data-hint", "Reserve")  # what its outline shows, empty
    outline = reserve.evaluate("(p) => getComputedStyle(p, '::before').content")
    assert outline == '"Reserve"'
    badge = reserve.locator(".count")
    expect(badge).to_be_visible()
    expect(badge).to_have_text("Reserve \u00b7 10")
    box, felt = badge.bounding_box(), page.locator("#board").bounding_box()
    assert box["x"] >= reserve.bounding_box()["x"] - 0.5  # starts on the reserve, not before
    assert box["x"] + box["width"] <= felt["x"] + felt["width"]


# The colour (r, g, b) and line style that mark an element: its outline if it has one, else
# its first box-shadow (a ring), else its border; ``glow``: whether a light blur surrounds it.
_MARK = """
([selector, pseudo]) => {
  const node = document.querySelector(selector);
  if (!node) return null;
  const style = getComputedStyle(node, pseudo);
  const rgb = (text) => text.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number);
  const shadows = style.boxShadow === "none" ? [] : style.boxShadow.split(/,(?![^(]*\\))/);
  const glow = shadows.some((s) => {  // a light blur all round, not a drop shadow
    const [x, y, blur] = (s.match(/(-?[\\d.]+)px/g) ?? []).map(parseFloat);
    return x === 0 && y === 0 && blur > 0 && rgb(s).reduce((a, b) => a + b) > 300;
  });
  if (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0) {
    return { colour: rgb(style.outlineColor), style: style.outlineStyle, glow };
  }
  if (shadows.length) return { colour: rgb(shadows[0]), style: "ring", glow };
  return { colour: rgb(style.borderTopColor), style: style.borderTopStyle, glow };
}
"""


def test_the_focus_a_picked_card_its_targets_and_a_hint_each_look_different(site, page):
    open_game(page, site, start_game(page, "selective-castle", 1))
    mark = lambda selector, pseudo=None: page.evaluate(_MARK, [selector, pseudo])  # noqa: E731
    page.locator("#hint").click()
    expect(page.locator("#board .card.hinted").first).to_be_visible()
    board_still(page)  # past the cards' transition
    hint = mark("#board .card.hinted")

    pile(page, "tableau:2").focus()
    page.keyboard.press("Enter")  # picks up its Ace of diamonds: tableau:7 and a foundation take it
    expect(pile(page, "tableau:7")).to_have_class(re.compile(r"\btarget\b"))
    expect(pile(page, "foundation:0")).to_have_class(re.compile(r"\btarget\b"))
    assert page.evaluate("document.activeElement.matches('.pile:focus-visible')")
    board_still(page)
    marks = {
        "focus": mark("#board .pile:focus-visible"),
        "picked card": mark("#board .card.selected"),
        "target": mark("#board .pile.target > .card:last-of-type"),
        "empty target": mark("#board .pile.target.empty:not(.hinted-target)", "::before"),
        "hint": hint,
    }
    screenshot(page, "highlights")

    # Told apart by colour, each pair clearly (distance in RGB; the two targets are alike)...
    names = list(marks)
    for i, one in enumerate(names):
        for two in names[i + 1 :]:
            if {one, two} == {"target", "empty target"}:
                continue
            pairs = zip(marks[one]["colour"], marks[two]["colour"], strict=True)
            distance = sum((a - b) ** 2 for a, b in pairs) ** 0.5
            assert distance >= 80, f"{one} and {two} look alike: {marks[one]} {marks[two]}"
    # ... and by form: a ring around the pile, a ring on the cards, dashes where they may go,
    # and a glow.
    assert marks["focus"]["style"] == "solid", marks["focus"]
    assert marks["picked card"]["style"] == "ring", marks["picked card"]
    assert marks["target"]["style"] == marks["empty target"]["style"] == "dashed", marks
    assert marks["hint"]["glow"], marks["hint"]

    # Each stands out on the felt: 3:1 at least against its middle tone (WCAG's non-text
    # contrast).
    felt = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--felt')")
    stops = re.findall(r"#([0-9a-f]{6})", felt)
    middle = tuple(int(stops[len(stops) // 2][i : i + 2], 16) for i in (0, 2, 4))
    for name, found in marks.items():
        assert contrast(found["colour"], middle) >= 3, f"{name} is faint on the felt: {found}"


_FELT_TEXT = """
() => {
  const rgba = (text) => text.match(/[\\d.]+/g).map(Number);
  const found = [];
  for (const pile of document.querySelectorAll("#board .pile.empty[data-hint]")) {
    const style = getComputedStyle(pile, "::before");
    found.push([pile.dataset.pile, rgba(style.color), parseFloat(style.fontSize)]);
  }
  for (const mark of document.querySelectorAll("#board .hour-mark")) {
    const style = getComputedStyle(mark);
    found.push([`hour ${mark.textContent}`, rgba(style.color), parseFloat(style.fontSize)]);
  }
  return found;
}
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_words_and_ranks_on_the_felt_can_be_read(site, page, scheme):
    # What an empty pile takes ("A", the base rank, "K-A") and the clock's hours are text on
    # the felt, all bold: 4.5:1 against its middle tone, and against its lightest too when
    # small (under 18.66 px: the hours and "K-A" on a phone, the hours on a desktop; the
    # clock's 12 lies at the top, the lightest); 3:1 there for large text.
    page.emulate_media(color_scheme=scheme)
    seen = []
    for slug, seed in [("gold-mine", 1), ("grounds-for-divorce", 1), ("grandfathers-clock", 1)]:
        open_game(page, site, start_game(page, slug, seed))
        felt = page.evaluate(
            "getComputedStyle(document.documentElement).getPropertyValue('--felt')"
        )
        stops = [
            tuple(int(stop[i : i + 2], 16) for i in (0, 2, 4))
            for stop in re.findall(r"#([0-9a-f]{6})", felt)
        ]
        middle = stops[len(stops) // 2]
        for name, colour, size in page.evaluate(_FELT_TEXT):
            alpha = colour[3] if len(colour) > 3 else 1
            for stop in stops:
                pairs = zip(colour[:3], stop, strict=True)
                shown = tuple(alpha * c + (1 - alpha) * f for c, f in pairs)
                least = 4.5 if stop == middle or size < 18.66 else 3
                assert contrast(shown, stop) >= least, f"{slug} {name} is faint: {colour}"
            seen.append(name)
    assert "foundation:0" in seen and "discard" in seen and "hour 12" in seen, seen


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_red_buttons_words_can_be_read(site, page, scheme):
    """Resign's confirmation and "Close my account" are words on the danger red: 4.5:1."""
    page.emulate_media(color_scheme=scheme)
    open_game(page, site, start_game(page, "gold-mine", 1))
    page.locator("#resign").click()
    confirm = page.locator("#confirm-resign")
    expect(confirm).to_be_visible()
    colours = confirm.evaluate(
        """(node) => [getComputedStyle(node).color, getComputedStyle(node).backgroundColor]
             .map((text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number))"""
    )
    assert contrast(*colours) >= 4.5, colours


# Court cards whose framed picture touches one of their corner indices (a hidden index aside).
_COURT_OVERLAPS = """
() => [...document.querySelectorAll("#board .card")]
  .filter((card) => card.querySelector(".centre.court"))
  .flatMap((card) => {
    const frame = card.querySelector(".centre.court").getBoundingClientRect();
    return [...card.querySelectorAll(".index")]
      .filter((index) => getComputedStyle(index).display !== "none")
      .map((index) => index.getBoundingClientRect())
      .filter((box) => box.top < frame.bottom && box.bottom > frame.top
                       && box.left < frame.right && box.right > frame.left)
      .map(() => card.dataset.card);
  })
"""


def test_a_court_cards_picture_is_clear_of_both_corner_indices(site, page):
    # Grandfather's Clock deals every card face up: its board shows courts of every suit.
    game_id = start_game(page, "grandfathers-clock", 1)
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        open_game(page, site, game_id)
        assert page.locator("#board .card .centre.court").count() >= 8
        assert page.evaluate(_COURT_OVERLAPS) == [], size


# Each complete foundation's mark, and the corner indices (rank and suit) of any card on the
# board it covers, by more than a rounding error.
_MARKS_OVER_INDICES = """
() => {
  const marks = [...document.querySelectorAll("#board .pile.complete > .done-mark")];
  const indices = [...document.querySelectorAll("#board .card .index")]
    .map((index) => [index, index.getBoundingClientRect()])
    .filter(([, box]) => box.width > 0 && box.height > 0);
  const covered = [];
  for (const mark of marks) {
    const m = mark.getBoundingClientRect();
    for (const [index, box] of indices) {
      const x = Math.min(m.right, box.right) - Math.max(m.left, box.left);
      const y = Math.min(m.bottom, box.bottom) - Math.max(m.top, box.top);
      if (x > 0.5 && y > 0.5) {
        const card = index.closest(".card").dataset.card;
        covered.push(`${mark.parentElement.dataset.pile}: ${card} ${index.className}`);
      }
    }
  }
  return { marks: marks.length, covered };
}
"""


@pytest.mark.parametrize(
    "slug", ["gold-mine", "selective-castle", "grandfathers-clock", "blondes-and-brunettes"]
)
def test_a_complete_foundations_mark_covers_no_cards_corner(site, page, slug):
    # A won game (its stored winning line, played through the API): every foundation is
    # complete and marked; the mark must leave every corner index in view, its own card's and
    # its neighbours' (Grandfather's Clock's hours lie close together), on both pages.
    winning = winning_line(slug)
    line = Line(slug, winning["seed"])
    game_id = start_game(page, slug, winning["seed"])
    for move in winning["moves"]:
        number = line.state.move_number
        line.play(move)
        post_move(page, game_id, move, number)
    foundations = sum(1 for pile_id in line.view()["piles"] if pile_id.startswith("foundation:"))
    found = {}
    for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        open_game(page, site, game_id)
        pages = {"play": page.evaluate(_MARKS_OVER_INDICES)}
        page.goto(f"{site}/replay/{game_id}/")
        expect(page.locator("#step")).to_have_text(re.compile(r"Step 0 of \d+"))
        page.locator("#last").click()
        expect(page.locator("#board")).to_have_attribute(
            "data-move-number", str(len(winning["moves"]))
        )
        pages["replay"] = page.evaluate(_MARKS_OVER_INDICES)
        screenshot(page, f"{slug}-complete-replay-{name}")
        for where, result in pages.items():
            assert result["marks"] == foundations, (slug, name, where, result)
            if result["covered"]:
                found[f"{name} {where}"] = result["covered"]
    assert found == {}, f"{slug}: a complete foundation's mark covers a corner index: {found}"


SLUGS = list(LONG_PILES)

# Where the board lies in the window, and how far the page scrolls.
_BOARD_IN_WINDOW = """
() => {
  const box = document.querySelector("#board").getBoundingClientRect();
  return { top: box.top + scrollY, bottom: box.bottom + scrollY, height: box.height,
           window: innerHeight };
}
"""


def test_the_replays_board_fits_the_window_at_the_deal(site, page):
    # The replay's header (summary, controls, step slider, the step's entry) is taller than the
    # play page's: the card size allows for it, so the whole board is in view at the deal. (The
    # history and the keys' note lie below the board, read by scrolling on.) Grandfather's Clock
    # too on a 360 x 740 phone, below a 372 px header: there its clock is a compact frame above
    # the tableau (an ellipse would need cards of 26 px).
    games = {slug: start_game(page, slug, 3) for slug in SLUGS}
    found = {}
    for width, height in ((1280, 720), (1280, 900), (390, 844), (360, 740)):
        page.set_viewport_size({"width": width, "height": height})
        for slug, game_id in games.items():
            page.goto(f"{site}/replay/{game_id}/")
            expect(page.locator("#step")).to_have_text("Step 0 of 0")
            expect(page.locator("#board .pile[data-pile]").first).to_be_visible()
            board = page.evaluate(_BOARD_IN_WINDOW)
            if board["bottom"] > height:
                found[f"{slug} {width}x{height}"] = board
            if width == 1280 or slug == "grandfathers-clock":
                screenshot(page, f"{slug}-replay-{width}x{height}")
    assert found == {}, f"replay boards not in the window at the deal: {found}"


# How far the page reaches below the window, and where the help line under the board ends.
_PAGE_IN_WINDOW = """
() => {
  const help = document.querySelector("#board-help").getBoundingClientRect();
  return { page: document.documentElement.scrollHeight, help: help.bottom + scrollY,
           helpHeight: help.height, window: innerHeight };
}
"""
DESKTOPS = [(1280, 720), (1366, 768), (1024, 768), (1440, 900), (1920, 1080)]


def test_the_play_page_fits_a_desktop_window_at_the_deal(site, page):
    # The board, the controls above it and the help line below it, of every game at the deal,
    # without scrolling. (A pile that grows in play may make the page scroll later: see
    # test_long_piles_show_every_cards_corner_and_the_page_grows_to_hold_them.) Grandfather's
    # Clock at 1280 x 720 reached 8 px below the window: its card size left no room for the
    # help line's two or three lines.
    games = {slug: start_game(page, slug, 3) for slug in SLUGS}
    found = {}
    for width, height in DESKTOPS:
        page.set_viewport_size({"width": width, "height": height})
        for slug, game_id in games.items():
            open_game(page, site, game_id)
            expect(page.locator("#board-help")).to_be_visible()
            result = page.evaluate(_PAGE_IN_WINDOW)
            assert result["helpHeight"] > 0
            if result["page"] > height or result["help"] > height:
                found[f"{slug} {width}x{height}"] = result
            if (width, height) == (1280, 720):
                screenshot(page, f"{slug}-play-{width}x{height}")
    assert found == {}, f"play pages that scroll at the deal: {found}"


TABLETS = [(768, 1024), (1024, 768)]
_CARD_WIDTH = "document.querySelector('#board .card').getBoundingClientRect().width"


def test_a_touch_tablet_fits_each_board_at_the_deal_and_its_help_speaks_of_touch(
    site, new_context, django_user_model
):
    """An iPad, held either way: each game's board, the controls and the help line fit at the
    deal. The help spoke of Tab, arrows and Esc to a touch screen with no mouse, in three or four
    lines that the card size left room for (landscape, where the height decides it, cost the
    cards 5 to 7 px of width): it now speaks of touch in a line or two, the keys staying in the
    board's description for screen readers."""
    create_players(django_user_model, "ada")
    tablet = new_context(viewport={"width": 1024, "height": 768}, has_touch=True).new_page()
    desktop = new_context(viewport={"width": 1024, "height": 768}).new_page()
    errors = watch_errors(tablet)
    for one in (tablet, desktop):
        sign_in(one, site, "ada")
    games = {slug: start_game(tablet, slug, 3) for slug in SLUGS}
    found = {}
    for width, height in TABLETS:
        tablet.set_viewport_size({"width": width, "height": height})
        for slug, game_id in games.items():
            open_game(tablet, site, game_id)
            result = tablet.evaluate(_PAGE_IN_WINDOW)
            if result["page"] > height or result["help"] > height or result["helpHeight"] > 40:
                found[f"{slug} {width}x{height}"] = result
            screenshot(tablet, f"{slug}-tablet-{width}x{height}")
    assert found == {}, f"tablet pages that scroll at the deal, or help of 3 lines or more: {found}"

    help_text = tablet.locator("#board-help")
    expect(help_text).to_contain_text("tap the stock to deal.", use_inner_text=True)
    assert tablet.locator(".help-keys").bounding_box()["width"] <= 1  # not shown
    expect(tablet.locator("#board")).to_have_accessible_description(
        re.compile(r"tap the stock to deal\. Keyboard: the table is one Tab stop")
    )

    # With a mouse the keys are shown; on the touch screen their room goes to the cards.
    tablet.set_viewport_size({"width": 1024, "height": 768})
    open_game(desktop, site, games["blondes-and-brunettes"])
    assert desktop.locator(".help-keys").bounding_box()["height"] > 30  # two lines or more
    assert tablet.evaluate(_CARD_WIDTH) >= desktop.evaluate(_CARD_WIDTH) + 4
    assert errors == []
