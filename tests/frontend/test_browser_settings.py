"""The player's settings (animation speed, automatic play, sounds, card backs, table colour):
a dialog on the play page, kept in localStorage and applied before the page is first drawn;
and on a phone, messages that never cover the title, the move count or the clock, and a tap on
a disabled button that says why."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.frontend.browser_helpers import (
    Line,
    create_players,
    open_game,
    sign_in,
    start_game,
    tap_move,
    watch_errors,
)
from tests.frontend.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)

# What <html> says of the colours when the page's content is parsed (before any module runs).
RECORD_FIRST_PAINT = """
document.addEventListener("DOMContentLoaded", () => {
  window.__atFirstPaint = {
    table: document.documentElement.dataset.table ?? null,
    back: document.documentElement.dataset.back ?? null,
  };
});
"""


def felt(page: Page) -> str:
    return page.evaluate("getComputedStyle(document.querySelector('#board')).backgroundImage")


def choose(page: Page, name: str, value: str) -> None:
    page.locator(f"#setting-{name}-{value}").check()


def test_settings_are_kept_across_a_reload_and_applied_before_the_first_paint(
    site, new_context, django_user_model
):
    create_players(django_user_model, "ada")
    context = new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(RECORD_FIRST_PAINT)
    page = context.new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    game_id = start_game(page, "gold-mine", seed=4)
    open_game(page, site, game_id)
    green = felt(page)
    page.locator("#settings").click()
    expect(page.locator("#settings-dialog")).to_be_visible()
    expect(page.locator("#setting-speed-normal")).to_be_checked()
    expect(page.locator("#setting-autoplay-off")).to_be_checked()
    expect(page.locator("#setting-sound-off")).to_be_checked()  # off by default
    choose(page, "table", "blue")
    choose(page, "card_back", "red")
    choose(page, "speed", "slow")
    choose(page, "autoplay", "safe")
    assert felt(page) != green  # applied at once
    screenshot(page, "settings-dialog-desktop")
    page.locator("#settings-close").click()
    expect(page.locator("#settings-dialog")).to_be_hidden()

    page.reload()
    expect(page.locator("#board .pile").first).to_be_visible()
    assert page.evaluate("window.__atFirstPaint") == {"table": "blue", "back": "red"}
    page.locator("#settings").click()
    for name, value in [
        ("table", "blue"),
        ("card_back", "red"),
        ("speed", "slow"),
        ("autoplay", "safe"),
    ]:
        expect(page.locator(f"#setting-{name}-{value}")).to_be_checked()
    page.keyboard.press("Escape")
    screenshot(page, "settings-blue-table-desktop")
    assert errors == []


def overlaps(a: dict, b: dict) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def assert_message_clear_of_the_counters(page: Page) -> None:
    message = page.locator("#message").bounding_box()
    assert message and message["height"] > 0
    for counter in ["#game-title", "#move-count", "#timer", "#undo", "#hint"]:
        box = page.locator(counter).bounding_box()
        assert not overlaps(message, box), f"the message covers {counter}"


def test_on_a_phone_a_message_leaves_the_counters_and_a_tap_on_undo_says_why(
    site, new_context, django_user_model
):
    create_players(django_user_model, "ada")
    context = new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    game_id = start_game(page, "grandfathers-clock", seed=5)
    open_game(page, site, game_id)
    expect(page.locator("#undo")).to_be_disabled()
    page.mouse.click(*centre(page, "#undo"))
    expect(page.locator("#message")).to_have_text("No move to take back yet.")
    assert_message_clear_of_the_counters(page)
    screenshot(page, "phone-disabled-undo-says-why")

    page.locator("#hint").click()
    expect(page.locator("#message")).to_contain_text("Hint")
    assert_message_clear_of_the_counters(page)
    screenshot(page, "phone-hint-message")

    line = Line("grandfathers-clock", 5)
    move = next(m for m in line.legal() if m["type"] == "move")
    tap_move(page, move)
    expect(page.locator("#undo")).to_be_enabled()
    page.locator("#undo").click()
    expect(page.locator("#message")).to_have_text("Move taken back.")
    assert_message_clear_of_the_counters(page)
    screenshot(page, "phone-move-taken-back")
    assert errors == []


def centre(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_tap_on_the_greyed_undo_says_why_on_a_desktop_too(site, new_context, django_user_model):
    create_players(django_user_model, "ada")
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    sign_in(page, site, "ada")
    game_id = start_game(page, "gold-mine", seed=4)
    open_game(page, site, game_id)
    expect(page.locator("#undo")).to_be_disabled()
    page.mouse.click(*centre(page, "#undo"))
    expect(page.locator("#message")).to_have_text("No move to take back yet.")
    screenshot(page, "desktop-disabled-undo-says-why")
