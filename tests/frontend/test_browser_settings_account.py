"""Settings per account (issue 36): a setting chosen on one device is in force on another of
the same account from the first paint (the page is served with it); a guest's stay in its
browser; signing in keeps an account's saved settings, or gives an account with none the
browser's."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from accounts.models import PlayerSettings
from tests.frontend.browser_helpers import (
    call_api,
    create_players,
    open_game,
    open_play_menu,
    release_connection,
    sign_in,
    start_game,
    watch_errors,
)
from tests.frontend.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)

# What <html> says of the colours and layout once the page's content is parsed, before any
# module script runs (readyState "interactive" comes before them; DOMContentLoaded after): what
# the first paint draws, from the served page and prefs.js alone.
RECORD_FIRST_PAINT = """
document.addEventListener("readystatechange", () => {
  if (document.readyState !== "interactive") return;
  const root = document.documentElement;
  window.__atFirstPaint = {
    table: root.dataset.table ?? null,
    back: root.dataset.back ?? null,
    hand: root.dataset.hand ?? null,
  };
});
"""


def first_paint(page: Page) -> dict:
    return page.evaluate("window.__atFirstPaint")


def saved(page: Page) -> None:
    """Wait until the page's changes have reached the account (settings.js keeps the ones in
    flight under patience.settings.pending)."""
    page.wait_for_function("() => localStorage.getItem('patience.settings.pending') === null")


def account_settings(username: str) -> dict:
    row = PlayerSettings.objects.filter(user__username=username).values().first()
    release_connection()
    return row


def open_settings(page: Page) -> None:
    if not page.locator(".open-settings:visible").count():
        open_play_menu(page)  # a phone's Settings are in the ☰ menu
    page.locator(".open-settings:visible").first.click()
    expect(page.locator("#settings-dialog")).to_be_visible()


def test_a_setting_chosen_on_one_device_is_in_force_on_another_from_the_first_paint(
    site, new_context, django_user_model
):
    create_players(django_user_model, "ada")
    desktop = new_context(viewport={"width": 1280, "height": 800}).new_page()
    errors = watch_errors(desktop)
    sign_in(desktop, site, "ada")
    game_id = start_game(desktop, "grounds-for-divorce", seed=3)
    open_game(desktop, site, game_id)
    open_settings(desktop)
    expect(desktop.locator("#settings-where")).to_contain_text("Saved to your account")
    for name, value in [
        ("table", "blue"),
        ("card_back", "red"),
        ("speed", "slow"),
        ("left_handed", "on"),
    ]:
        desktop.locator(f"#setting-{name}-{value}").check()
    desktop.locator("#setting-winnable").check()
    saved(desktop)
    row = account_settings("ada")
    assert (row["table"], row["card_back"], row["speed"]) == ("blue", "red", "slow")
    assert row["left_handed"] and row["winnable_only"]

    # Another device (a phone, nothing in its storage): the page comes with the account's.
    phone_context = new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    phone_context.add_init_script(RECORD_FIRST_PAINT)
    phone = phone_context.new_page()
    phone_errors = watch_errors(phone)
    sign_in(phone, site, "ada")
    served = phone.request.get(f"{site}/play/{game_id}/").text()
    html_tag = served[served.index("<html") : served.index(">", served.index("<html"))]
    assert 'data-table="blue"' in html_tag and 'data-hand="left"' in html_tag
    open_game(phone, site, game_id)
    assert first_paint(phone) == {"table": "blue", "back": "red", "hand": "left"}
    open_play_menu(phone)  # a phone's New game is in the ☰ menu
    expect(phone.locator("#new-game .winnable-mark")).to_be_visible()
    open_settings(phone)
    for name, value in [("table", "blue"), ("card_back", "red"), ("left_handed", "on")]:
        expect(phone.locator(f"#setting-{name}-{value}")).to_be_checked()
    expect(phone.locator("#setting-winnable")).to_be_checked()
    screenshot(phone, "settings-account-phone-dialog")

    # Changed back on the phone: the desktop's next page has it, from its first paint too.
    phone.locator("#setting-table-green").check()
    phone.locator("#setting-left_handed-off").check()
    phone.locator("#settings-close").click()
    saved(phone)
    screenshot(phone, "settings-account-phone")
    desktop.context.add_init_script(RECORD_FIRST_PAINT)
    desktop.reload()
    expect(desktop.locator("#board .pile").first).to_be_visible()
    assert first_paint(desktop) == {"table": "green", "back": "red", "hand": None}
    assert errors == [] and phone_errors == []


def test_a_guests_settings_stay_in_its_browser(site, new_context):
    context = new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    context.add_init_script(RECORD_FIRST_PAINT)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(site + "/")
    game_id = start_game(page, "gold-mine", seed=4)  # the visitor is now a guest
    open_game(page, site, game_id)
    expect(page.locator("html")).to_have_attribute("data-guest", "true")
    open_settings(page)
    expect(page.locator("#settings-where")).to_have_text("Kept in this browser.")
    page.locator("#setting-table-red").check()
    page.locator("#setting-left_handed-on").check()
    page.locator("#settings-close").click()

    assert call_api(page, "GET", "/api/auth/settings/")["status"] == 403
    assert PlayerSettings.objects.count() == 0
    release_connection()
    stored = json.loads(page.evaluate("localStorage.getItem('patience.settings')"))
    assert stored["table"] == "red" and stored["left_handed"] is True

    page.reload()
    expect(page.locator("#board .pile").first).to_be_visible()
    assert first_paint(page) == {"table": "red", "back": "blue", "hand": "left"}
    screenshot(page, "settings-guest-left-handed-phone")

    # Another browser is another visitor: the defaults.
    other = new_context().new_page()
    other.add_init_script(RECORD_FIRST_PAINT)
    other.goto(site + "/")
    assert first_paint(other) == {"table": None, "back": None, "hand": None}
    assert errors == []


def test_signing_in_keeps_an_accounts_saved_settings_or_gives_it_the_browsers(
    site, new_context, django_user_model
):
    create_players(django_user_model, "ada", "bob")
    bob = django_user_model.objects.get(username="bob")
    PlayerSettings.objects.create(user=bob, table="grey", card_back="black")
    release_connection()

    def guest_with_a_red_table():
        context = new_context(viewport={"width": 1280, "height": 800})
        context.add_init_script(RECORD_FIRST_PAINT)
        page = context.new_page()
        page.goto(site + "/")
        start_game(page, "grandfathers-clock", seed=2)
        page.evaluate(
            "localStorage.setItem('patience.settings', JSON.stringify({table: 'red', "
            "card_back: 'green', speed: 'fast'}))"
        )
        return page

    # Ada has saved none: she takes this browser's.
    page = guest_with_a_red_table()
    sign_in(page, site, "ada")
    page.goto(site + "/")
    saved(page)
    row = account_settings("ada")
    assert (row["table"], row["card_back"], row["speed"]) == ("red", "green", "fast")
    assert first_paint(page)["table"] == "red"

    # Bob has his own: they stay his, and this browser follows them.
    page = guest_with_a_red_table()
    sign_in(page, site, "bob")
    page.goto(site + "/")
    assert first_paint(page) == {"table": "grey", "back": "black", "hand": None}
    row = account_settings("bob")
    assert (row["table"], row["card_back"]) == ("grey", "black")
    stored = json.loads(page.evaluate("localStorage.getItem('patience.settings')"))
    assert stored["table"] == "grey"
    screenshot(page, "settings-account-kept-on-sign-in")


def test_a_page_served_just_before_a_save_landed_shows_the_save(site, page):
    """A reload straight after a change can be served by the server before the change's save
    is committed (the old page lives on until the new one arrives, and gets the save's
    answer): the new page then shows the save's settings, which are newer, not those it was
    served."""
    PlayerSettings.objects.create(user=User.objects.get(username="ada"), table="blue")
    release_connection()
    page.goto(site + "/")
    box = page.locator("#winnable-only")
    expect(box).not_to_be_checked()
    served_before_the_save = page.request.get(site + "/").text()  # the session's own page

    box.check()
    saved(page)  # the answer came, and the account has it
    assert account_settings("ada")["winnable_only"] is True

    page.route(
        site + "/",
        lambda route: route.fulfill(body=served_before_the_save, content_type="text/html"),
    )
    page.reload()
    expect(page.locator("#winnable-only")).to_be_checked()
    page.unroute(site + "/")
