"""The game's header: its title on one line beside the counts, the time's room up to 99:59:59 (and
days after that), and the room kept for the badges still to come."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.frontend.browser_helpers import call_api, open_game, start_game
from tests.frontend.test_browser_phone import LONGEST_SEED, SLUGS, board_tops, hide_the_seed

pytestmark = pytest.mark.django_db(transaction=True)

# How many lines the game's title takes.
_TITLE_LINES = """
() => {
  const range = document.createRange();
  range.selectNodeContents(document.querySelector("#game-title"));
  return new Set([...range.getClientRects()].map((line) => Math.round(line.top))).size;
}
"""


def test_each_games_title_keeps_to_one_line_beside_the_counts(site, page):
    """From 561 to 590 px "Blondes and Brunettes" took two lines beside the counts (and the
    header a line more than at 591 px): its type now shrinks with the window there."""
    games = {slug: start_game(page, slug, 3) for slug in SLUGS}
    wrapped = {}
    for slug, game_id in games.items():
        open_game(page, site, game_id)
        for width in (561, 565, 575, 590, 600, 640, 700, 899, 900, 1240, 1440):
            page.set_viewport_size({"width": width, "height": 900})
            lines = page.evaluate(_TITLE_LINES)
            if lines != 1:
                wrapped[f"{slug} at {width}px"] = lines
    assert wrapped == {}, f"titles on more than one line: {wrapped}"


_COUNTS_WIDTH = "document.querySelector('.play-stats').getBoundingClientRect().width"
TIMES = {
    # name: (how old the game is, in seconds; the time shown as it opens; then after it)
    "ten hours": (36_000 - 15, r"^9:59:[45]\d$", r"^10:00:\d\d$"),
    "a hundred hours": (360_000 - 15, r"^99:59:[45]\d$", r"^4d 04h$"),
    "forty days": (40 * 86_400, r"^40d 00h$", None),
}


def test_the_time_passing_ten_or_a_hundred_hours_never_moves_the_board(site, page):
    """The header kept room for the time up to 9:59:59: at ten hours the counts grew and the
    title beside them took a line more (600 px), moving the board. It keeps room for 99:59:59;
    from a hundred hours (a game left open for days) the time reads in days and hours, which
    take no more room. At every width the board lies where a new game's does, whatever the
    time, and the counts keep their width."""
    fresh = start_game(page, "blondes-and-brunettes", LONGEST_SEED)
    hide_the_seed(fresh)
    open_game(page, site, fresh)
    expect(page.locator("#timer")).to_have_text(re.compile(r"^0:0\d$"))
    dealt = board_tops(page)
    counts = page.evaluate(_COUNTS_WIDTH)

    moved = {}
    for name, (age, before, after) in TIMES.items():
        game_id = start_game(page, "blondes-and-brunettes", LONGEST_SEED)
        hide_the_seed(game_id, age=age)  # (made just now: the time crosses the hour soon)
        open_game(page, site, game_id)
        timer = page.locator("#timer")
        expect(timer).to_have_text(re.compile(before))
        stages = {before: board_tops(page)}
        widths = {before: page.evaluate(_COUNTS_WIDTH)}
        if after:
            expect(timer).to_have_text(re.compile(after), timeout=25_000)
            stages[after] = board_tops(page)
            widths[after] = page.evaluate(_COUNTS_WIDTH)
        for shown, width in widths.items():
            if width != counts:
                moved[f"{name} ({shown}): the counts' width"] = f"{counts:.1f} -> {width:.1f}"
        for shown, tops in stages.items():
            for size, top in tops.items():
                if top != dealt[size]:
                    moved[f"{name} ({shown}) at {size}"] = f"{dealt[size]:.0f} -> {top:.0f}"
    assert moved == {}, f"the board moved with the time: {moved}"


def test_a_short_deal_number_leaves_no_gap_before_the_outcome(site, page):
    """A random deal's number comes at the end into the room kept for the largest (16 digits):
    "Deal #3" left that room's spare width as a gap before the outcome. The badges to come share
    one room now, side by side, the spare room after them (before them where they lie on the
    right)."""
    game_id = start_game(page, "gold-mine", 3)
    hide_the_seed(game_id)
    open_game(page, site, game_id)
    answer = call_api(page, "POST", f"/api/games/{game_id}/resign/", {})
    assert answer["status"] == 200, answer
    expect(page.locator("#result")).to_be_visible()
    page.keyboard.press("Escape")
    seed, outcome = page.locator("#badges .badge.seed"), page.locator("#badges .badge.status")
    expect(seed).to_have_text("Deal #3")
    expect(outcome).to_have_text("Resigned")
    gaps = {}
    for width in (360, 600, 768, 1024, 1280, 1440, 1920):
        page.set_viewport_size({"width": width, "height": 900})
        one, two = seed.bounding_box(), outcome.bounding_box()
        gap = two["x"] - (one["x"] + one["width"])
        if abs(one["y"] - two["y"]) > 0.5 or not 0 <= gap <= 6:
            gaps[width] = f"{gap:.0f} px between them, tops {one['y']:.0f} and {two['y']:.0f}"
    assert gaps == {}, f"the deal number and the outcome are not side by side: {gaps}"
