"""A touch screen (a tablet, a phone): every control is a target a finger can hit, 44 x 44 px
(WCAG 2.5.5), and each board still fits the window at the deal; Grandfather's Clock on a
portrait tablet takes the layout that gives it the larger cards."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.frontend.browser_helpers import (
    call_api,
    create_players,
    open_game,
    open_play_menu,
    sign_in,
    start_game,
    watch_errors,
)
from tests.frontend.conftest import screenshot
from tests.frontend.test_browser_phone import _CLOCK, SLUGS, _check_the_clock

pytestmark = pytest.mark.django_db(transaction=True)

TABLETS = [(768, 1024), (1024, 768), (820, 1180), (1180, 820)]
PHONES = [(360, 740), (390, 844)]

# The controls shown whose target (where a tap reaches them) is smaller than 44 x 44 px: its
# extent up, down, left and right of the control's middle, each corner of that box (4 px in, for
# rounded corners) reaching the control too.
_SMALL_TARGETS = """
(selector) => {
  const shown = (node) => node.checkVisibility({ visibilityProperty: true });
  const found = [];
  for (const control of [...document.querySelectorAll(selector)].filter(shown)) {
    const box = control.getBoundingClientRect();
    const x = Math.round(box.left + box.width / 2), y = Math.round(box.top + box.height / 2);
    const hits = (px, py) => {
      const hit = document.elementFromPoint(px, py);
      return Boolean(hit) && (hit === control || control.contains(hit));
    };
    const reach = (dx, dy) => {
      let n = 0;
      while (n < 80 && hits(x + dx * (n + 1), y + dy * (n + 1))) n += 1;
      return n;
    };
    const [up, down, left, right] = [reach(0, -1), reach(0, 1), reach(-1, 0), reach(1, 0)];
    const width = left + right + 1, height = up + down + 1;
    const corners = [[x - left + 4, y - up + 4], [x + right - 4, y - up + 4],
                     [x - left + 4, y + down - 4], [x + right - 4, y + down - 4]];
    if (width < 44 || height < 44 || !corners.every(([px, py]) => hits(px, py))) {
      const name = control.id || control.textContent.trim().slice(0, 30);
      found.push(`${name} (${width} x ${height})`);
    }
  }
  return found;
}
"""
PLAY_CONTROLS = (
    ".site-header a, .site-header summary, .site-header button, .play-actions > *, #badges a"
)
_PAGE_FITS = "document.documentElement.scrollHeight <= innerHeight"


def test_on_a_touch_screen_every_control_is_a_44px_target_and_each_board_still_fits(
    site, new_context, django_user_model
):
    """The play page's buttons were 32 px high (30 on a phone), the header's links 36: under a
    finger they are 44 x 44 at least, the daily badge's link too, and the Rules menu's entries;
    the replay's controls and slider as well. Each game's board, the controls and the help
    still fit an iPad held either way, and a phone, at the deal."""
    create_players(django_user_model, "ada")
    page = new_context(viewport={"width": 768, "height": 1024}, has_touch=True).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    games = {slug: start_game(page, slug, 3) for slug in SLUGS}
    today = call_api(page, "GET", "/api/daily/")["body"]["date"]
    attempt = call_api(page, "POST", f"/api/daily/{today}/gold-mine/attempt/", {})
    assert attempt["status"] == 201, attempt
    small: dict[str, list[str]] = {}
    scrolls: list[str] = []

    for width, height in TABLETS + PHONES:
        page.set_viewport_size({"width": width, "height": height})
        for slug, game_id in games.items():
            open_game(page, site, game_id)
            if not page.evaluate(_PAGE_FITS):
                scrolls.append(f"{slug} {width}x{height}")
        # Blondes and Brunettes' deal 3 shows every button, Finish too (a Four can go home).
        expect(page.locator("#finish")).to_be_visible()
        found = page.evaluate(_SMALL_TARGETS, PLAY_CONTROLS)
        if open_play_menu(page):  # a phone: the header's links are in the ☰ menu
            found += page.evaluate(_SMALL_TARGETS, "#play-menu > *")
        else:
            page.locator(".menu summary").click()
            expect(page.locator(".menu ul a").first).to_be_visible()
            found += page.evaluate(_SMALL_TARGETS, ".menu ul a")
        page.keyboard.press("Escape")
        open_game(page, site, attempt["body"]["id"])
        expect(page.locator("#badges a.badge.daily")).to_be_visible()
        found += page.evaluate(_SMALL_TARGETS, PLAY_CONTROLS)
        page.goto(f"{site}/replay/{games['selective-castle']}/")
        expect(page.locator("#step")).to_have_text(re.compile(r"^Step 0 of \d+$"))
        found += page.evaluate(_SMALL_TARGETS, ".replay-controls button, #scrubber")
        if found:
            small[f"{width}x{height}"] = found
        page.goto(f"{site}/play/{games['blondes-and-brunettes']}/")
        expect(page.locator("#board .pile[data-pile]").first).to_be_visible()
        screenshot(page, f"touch-{width}x{height}")

    assert small == {}, f"controls a finger cannot hit on all of 44 x 44 px: {small}"
    assert scrolls == [], f"touch screens where the page scrolls at the deal: {scrolls}"
    assert errors == []


# The width of a foundation's card on the clock and of a tableau's.
_CLOCK_CARDS = """
() => ["foundation:0", "tableau:0"].map((id) =>
  document.querySelector(`#board .pile[data-pile="${id}"] > .card`).getBoundingClientRect().width)
"""


def test_grandfathers_clock_on_a_portrait_tablet_takes_the_larger_cards(
    site, new_context, django_user_model
):
    """On an iPad held upright the round clock above the tableau left the window's height to
    decide the cards' size: 61 px at 768 x 1024, where the width allows 82. The compact frame of
    a phone (8.8 card widths of table rather than 11.6) lets the width decide it: the cards
    are a third larger, and the whole board still fits, every hour where a clock has it. A
    window so tall that the ellipse's cards are the largest there are anyway keeps it."""
    create_players(django_user_model, "ada")
    page = new_context(viewport={"width": 768, "height": 1024}, has_touch=True).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    game_id = start_game(page, "grandfathers-clock", 3)
    found = {}
    for (width, height), least in {(768, 1024): 80, (820, 1180): 85, (1024, 1366): 100}.items():
        size = {"width": width, "height": height}
        page.set_viewport_size(size)
        open_game(page, site, game_id)
        name = f"{width}x{height}"
        problems = _check_the_clock(page.evaluate(_CLOCK), size)
        clock, tableau = page.evaluate(_CLOCK_CARDS)
        if clock < least:
            problems.append(f"the clock's cards are {clock:.0f} px wide, under {least}")
        if abs(clock - tableau) > 0.5:
            problems.append("the clock's cards are not the tableau's size")
        if not page.evaluate(_PAGE_FITS):
            problems.append("the page scrolls at the deal")
        found[name] = problems
        screenshot(page, f"grandfathers-clock-tablet-{name}")
    # 1080 x 1920, a desktop screen turned upright: the round clock, with the largest cards.
    page.set_viewport_size({"width": 1080, "height": 1920})
    open_game(page, site, game_id)
    assert page.evaluate(_CLOCK_CARDS) == [108, 108]
    face = page.locator("#board .clock-face").bounding_box()
    assert abs(face["width"] - face["height"]) < 1, "a round dial"
    assert {name: problems for name, problems in found.items() if problems} == {}
    assert errors == []
