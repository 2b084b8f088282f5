"""A phone-sized window (360 x 740): no page scrolls sideways, and every board fits."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.frontend.browser_helpers import (
    board_ready,
    call_api,
    create_players,
    scroll_width,
    sign_in,
    watch_errors,
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
