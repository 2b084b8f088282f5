"""The board on a phone held upright (issue 36: "in Grounds for Divorce the cards are about 33 px
wide while the lower half of the screen is empty"). At 360 x 740 every game's cards are targets
a finger can take, 44 px wide at least, in the table's narrow arrangement (games/rules/table.py:
Grounds for Divorce's ten piles in two rows of five), the felt reaches down the screen and
nothing overflows sideways; taps and drags go between its rows; a desktop keeps its table.

Grandfather's Clock too (it was 38.8 px at 360 px: its twelve foundations in a frame 5.4 card
widths tall, with one row of eight piles below, 8.7 card widths wide): on a phone held upright
its clock is a band across the board's width, 3.2 card widths tall, and its eight piles lie in
two rows of four below it, 44.5 px at 360 x 740."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from games.rules import get_variant, move_from_json
from tests.frontend.browser_helpers import (
    Line,
    create_players,
    expect_move_number,
    open_game,
    sign_in,
    start_game,
    tap_move,
    watch_errors,
)
from tests.frontend.conftest import screenshot
from tests.frontend.test_browser_phone import SLUGS

pytestmark = pytest.mark.django_db(transaction=True)

PHONES = [(360, 740), (390, 844)]
TOUCH = 44  # px: a comfortable touch target

# The cards' widths, where the board and its cards lie, the page's widths, the arrangement.
_BOARD = """
() => {
  const board = document.querySelector("#board");
  const felt = board.getBoundingClientRect();
  const style = getComputedStyle(board);
  const inner = { left: felt.left + parseFloat(style.paddingLeft),
                  right: felt.right - parseFloat(style.paddingRight) };
  const cards = [...board.querySelectorAll(".card")].map((c) => c.getBoundingClientRect());
  const piles = [...board.querySelectorAll(".pile[data-pile]")];
  const outside = piles.filter((p) => [p, ...p.querySelectorAll(".card")].some((node) => {
    const box = node.getBoundingClientRect();
    return box.left < inner.left - 0.5 || box.right > inner.right + 0.5;
  })).map((p) => p.dataset.pile);
  return {
    narrow: board.querySelector(".tabletop").classList.contains("narrow"),
    widths: cards.map((c) => c.width),
    cardsBottom: Math.max(...cards.map((c) => c.bottom)),
    boardTop: felt.top, boardBottom: felt.bottom, outside,
    page: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
  };
}
"""


def test_on_a_phone_every_card_is_a_touch_target_and_the_board_uses_the_height(
    site, new_context, django_user_model
):
    create_players(django_user_model, "ada")
    page = new_context(viewport={"width": 360, "height": 740}, has_touch=True).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    games = {slug: start_game(page, slug, 3) for slug in SLUGS}
    problems: dict[str, list[str]] = {}
    widths = {}
    for width, height in PHONES:
        page.set_viewport_size({"width": width, "height": height})
        for slug, game_id in games.items():
            open_game(page, site, game_id)
            found = page.evaluate(_BOARD)
            screenshot(page, f"{slug}-phone-board-{width}x{height}")
            wrong = []
            widths[f"{slug} {width}"] = round(min(found["widths"]), 1)
            if min(found["widths"]) < TOUCH:
                wrong.append(f"cards {min(found['widths']):.1f} px wide, under {TOUCH}")
            if not found["narrow"]:
                wrong.append(f"narrow arrangement: {found['narrow']}")
            # The felt reaches down the screen, and the whole table is in view at the deal.
            if not 0.9 * height <= found["boardBottom"] <= height:
                wrong.append(f"the board ends at {found['boardBottom']:.0f} px of {height}")
            if found["cardsBottom"] > height:
                wrong.append(f"cards reach {found['cardsBottom']:.0f} px, below the window")
            if found["page"] != [width, height]:
                wrong.append(f"the page is {found['page']}, not the window")
            if found["outside"]:
                wrong.append(f"past the felt's sides: {found['outside']}")
            if wrong:
                problems[f"{slug} {width}x{height}"] = wrong
    assert problems == {}, (problems, widths)
    assert len([key for key in widths if key.endswith(" 360")]) == 5  # every game at 360 px
    assert errors == []


def _across_rows() -> tuple[int, dict, dict]:
    """A Grounds for Divorce deal with a move from the narrow arrangement's second row of piles
    to its first, and after it one from the first to the second: (seed, up, down)."""
    variant = get_variant("grounds-for-divorce")

    def row(move: dict) -> tuple[int, int]:
        return int(move["from"][8:]) // 5, int(move["to"][8:]) // 5

    for seed in range(1, 200):
        state = variant.deal(seed)
        moves = [m.to_json() for m in variant.legal_moves(state)]
        for up in (m for m in moves if m["type"] == "move" and row(m) == (1, 0)):
            after, _ = variant.play(state, move_from_json(up))
            later = [m.to_json() for m in variant.legal_moves(after)]
            down = next((m for m in later if m["type"] == "move" and row(m) == (0, 1)), None)
            if down:
                return seed, up, down
    raise AssertionError("no deal with moves both ways between the rows")


def _finger_drag(page: Page, move: dict) -> None:
    """Drag with a finger (touch events, as a phone sends them): the move's top card to the
    middle of the target pile's top card."""
    source = page.locator(f'#board .pile[data-pile="{move["from"]}"] > .card').last.bounding_box()
    target = page.locator(f'#board .pile[data-pile="{move["to"]}"] > .card').last.bounding_box()
    x, y = source["x"] + source["width"] / 2, source["y"] + source["height"] / 2
    tx, ty = target["x"] + target["width"] / 2, target["y"] + target["height"] / 2
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, px: float, py: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": px, "y": py}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", x, y)
    for step in range(1, 11):
        touch("touchMove", x + (tx - x) * step / 10, y + (ty - y) * step / 10)
    touch("touchEnd", tx, ty)


def test_taps_and_drags_go_between_the_rows_of_a_phones_arrangement(
    site, new_context, django_user_model
):
    create_players(django_user_model, "ada")
    page = new_context(viewport={"width": 360, "height": 740}, has_touch=True).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    seed, up, down = _across_rows()
    line = Line("grounds-for-divorce", seed)
    open_game(page, site, start_game(page, "grounds-for-divorce", seed))
    assert page.evaluate(_BOARD)["narrow"]
    # A tap on a card of the second row, then on a pile of the first.
    tap_move(page, up)
    line.play(up)
    expect_move_number(page, 1)
    # A finger drags a card of the first row down onto a pile of the second.
    _finger_drag(page, down)
    line.play(down)
    expect_move_number(page, 2)
    top = page.locator(f'#board .pile[data-pile="{down["to"]}"] > .card').last
    expect(top).to_have_attribute("data-card", line.top(down["to"]))
    screenshot(page, "grounds-for-divorce-phone-moved")
    assert errors == []


def test_a_desktop_and_a_phone_on_its_side_keep_the_wide_table(site, page):
    """1280 x 800 draws the table as before (ten piles in one row); so does a phone turned on
    its side, and turned upright again it takes the narrow arrangement back."""
    open_game(page, site, start_game(page, "grounds-for-divorce", 3))
    tops = """() => new Set([...document.querySelectorAll('#board .pile[data-kind=tableau]')]
                 .map((p) => Math.round(p.getBoundingClientRect().top))).size"""
    for width, height, narrow, rows in ((1280, 800, False, 1), (740, 360, False, 1),
                                        (360, 740, True, 2), (1280, 800, False, 1)):  # fmt: skip
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(
            "(narrow) => document.querySelector('#board .tabletop')"
            ".classList.contains('narrow') === narrow",
            arg=narrow,
        )
        assert page.evaluate(tops) == rows, (width, height)
    assert page.evaluate(_BOARD)["widths"][0] > 95  # the desktop's cards, as large as before
