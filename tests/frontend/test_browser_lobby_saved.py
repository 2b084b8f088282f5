"""The lobby lists the games in progress, newest first, each with a way to abandon it; a game
with no move is not in progress, so not listed, and counts nowhere."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.frontend.browser_helpers import call_api, make_a_move, start_game
from tests.frontend.conftest import screenshot


def ids_listed(page) -> list[int]:
    rows = page.locator("#saved-games li.saved-game")
    return [int(row.get_attribute("data-game-id")) for row in rows.all()]


def test_the_lobby_lists_games_in_progress_newest_first_and_abandons_one(site, page):
    older = start_game(page, "gold-mine", 3)
    make_a_move(page, older)
    start_game(page, "grandfathers-clock", 1)  # no move: not in progress
    newer = start_game(page, "selective-castle", 1)
    make_a_move(page, newer)

    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(site + "/")
    expect(page.locator("#saved-games")).not_to_have_attribute("aria-busy", "true")
    expect(page.locator("#saved-games li.saved-game")).to_have_count(2)
    assert ids_listed(page) == [newer, older], "newest first, the untouched game not at all"
    screenshot(page, "lobby-saved-games-1280x800")

    row = page.locator(f'#saved-games li[data-game-id="{older}"]')
    row.get_by_role("button", name="Abandon").click()
    expect(row).to_contain_text("It counts as resigned.")
    row.get_by_role("button", name="Keep").click()
    expect(row.get_by_role("button", name="Abandon")).to_be_focused()
    row.get_by_role("button", name="Abandon").click()
    row.get_by_role("button", name="Resign it").click()
    expect(page.locator("#saved-games li.saved-game")).to_have_count(1)
    assert ids_listed(page) == [newer]

    assert call_api(page, "GET", f"/api/games/{older}/")["body"]["status"] == "resigned"
    stats = {s["variant"]: s for s in call_api(page, "GET", "/api/me/stats/")["body"]}
    assert (stats["gold-mine"]["played"], stats["gold-mine"]["won"]) == (1, 0)
    assert stats["grandfathers-clock"]["played"] == 0, "the untouched game counts nowhere"


def test_the_lobby_list_on_a_phone(site, page):
    for slug, seed in (("gold-mine", 3), ("grounds-for-divorce", 2)):
        make_a_move(page, start_game(page, slug, seed))
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(site + "/")
    expect(page.locator("#saved-games li.saved-game")).to_have_count(2)
    abandon = page.locator("#saved-games li.saved-game").first.get_by_role("button", name="Abandon")
    expect(abandon).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.locator("#saved-games").scroll_into_view_if_needed()
    screenshot(page, "lobby-saved-games-390x844")
