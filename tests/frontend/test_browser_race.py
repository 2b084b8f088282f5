"""A race in the browser, two players in two contexts at desktop and phone sizes: one opens a
race from the lobby's Race box and lands in its room, the other finds it on the lobby's list of
races waiting for players and joins; the
opener starts it, both rooms count down and say the race runs, each gets "Play your game";
one moves and the other's room shows it; one resigns, then the other, and both rooms show the
result and the deal's number."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.frontend.browser_helpers import call_api, create_players, sign_in, watch_errors
from tests.frontend.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("size", SIZES)
def test_two_players_race_from_a_link_and_see_each_other_live(
    site, new_context, django_user_model, size
):
    create_players(django_user_model, "ada", "bea")
    pages = {}
    errors = []
    for name in ("ada", "bea"):
        page = new_context(viewport=SIZES[size]).new_page()
        errors += watch_errors(page)
        sign_in(page, site, name)
        pages[name] = page
    ada, bea = pages["ada"], pages["bea"]

    ada.goto(f"{site}/")
    ada.select_option("#race-variant", "gold-mine")
    ada.click("#race-form button[data-race='open']")
    ada.wait_for_url(re.compile(r"/races/[a-z0-9]+/$"))
    expect(ada.locator("#race-phase")).to_contain_text("Waiting for players")
    expect(ada.locator("#live-status")).to_have_text("Live")

    # bea finds it on the lobby's list of races waiting for players.
    bea.goto(f"{site}/")
    bea.locator("#open-races li").first.scroll_into_view_if_needed()
    screenshot(bea, f"race-lobby-{size}")
    bea.get_by_role("link", name=re.compile(r"Gold Mine: 1 of 10 players, opened by ada")).click()
    bea.wait_for_url(ada.url)
    bea.get_by_role("button", name="Join the race").click()
    expect(ada.locator("#race-players tbody tr")).to_have_count(2)
    ada.get_by_role("button", name="Start the race").click()
    for page in (ada, bea):
        expect(page.locator("#race-phase")).to_contain_text("Racing", timeout=10_000)
        expect(page.get_by_role("link", name="Play your game")).to_be_visible()
    screenshot(ada, f"race-running-{size}")

    code = ada.url.rstrip("/").rsplit("/", 1)[-1]
    # ada moves: bea's room shows her line change live (her moves, nothing of her cards).
    ada_game = call_api(ada, "GET", f"/api/races/{code}/")["body"]["you"]["game"]
    board = call_api(ada, "GET", f"/api/games/{ada_game}/")["body"]
    move = {"move": board["legal_moves"][0], "expected_move_number": board["move_number"]}
    assert call_api(ada, "POST", f"/api/games/{ada_game}/moves/", move)["status"] == 201
    ada_line = bea.locator("#race-players tbody tr", has=bea.locator("th", has_text="ada"))
    expect(ada_line.locator("td").nth(3)).to_have_text("1")
    expect(ada_line.locator("td").nth(1)).to_have_text(re.compile("[Pp]laying"))
    for page in (ada, bea):
        game = call_api(page, "GET", f"/api/races/{code}/")["body"]["you"]["game"]
        assert call_api(page, "POST", f"/api/games/{game}/resign/", {})["status"] == 200
    for page in (ada, bea):
        expect(page.locator("#race-phase")).to_have_text("The race is over.", timeout=10_000)
        expect(page.locator("#race-seed")).to_contain_text("The deal was number")
        expect(page.get_by_role("button", name="Rematch")).to_be_visible()
    screenshot(bea, f"race-over-{size}")
    assert errors == []


def test_a_visitor_who_joins_from_the_link_races_as_a_guest(site, new_context, django_user_model):
    """A visitor opening a race's link joins as a new guest: the room then shows them as a
    player of it (Ready, and their own game once it runs), not as a watcher."""
    create_players(django_user_model, "ada")
    ada = new_context(viewport=SIZES["desktop"]).new_page()
    visitor = new_context(viewport=SIZES["phone"]).new_page()
    errors = watch_errors(ada) + watch_errors(visitor)
    sign_in(ada, site, "ada")
    link = call_api(ada, "POST", "/api/races/", {"variant": "gold-mine"})["body"]["link"]

    visitor.goto(link if link.startswith("http") else site + link)
    visitor.get_by_role("button", name="Join the race").click()
    expect(visitor.get_by_role("button", name="Ready")).to_be_visible()
    expect(visitor.locator("#race-players tbody th", has_text="(you)")).to_have_count(1)
    ada.goto(visitor.url)
    expect(ada.locator("#race-players tbody tr")).to_have_count(2)
    ada.get_by_role("button", name="Start the race").click()
    expect(visitor.locator("#race-phase")).to_contain_text("Racing", timeout=10_000)
    # The room's table fits a phone's width: no column cut off.
    table = visitor.evaluate(
        "() => { const w = document.querySelector('.table-wrap');"
        " return [w.scrollWidth, w.clientWidth]; }"
    )
    assert table[0] <= table[1]
    screenshot(visitor, "race-visitor-running-phone")
    visitor.get_by_role("link", name="Play your game").click()
    visitor.wait_for_url(re.compile(r"/play/\d+/$"))
    assert errors == []
