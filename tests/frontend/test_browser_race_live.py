"""Races live in the browser, two players at once (ada at desktop size, bea at a phone's): a
lobby's invitation goes as soon as its race starts, and with "Not now", which the sender's room
shows as declined, live; the play page of a race's game shows the race in one line above the
table (the time left, the place, everyone's cards home), which follows the other player's
moves and ends with a link to the result. One server and one browser per test; no sleeps."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.frontend.browser_helpers import (
    board_ready,
    call_api,
    create_players,
    release_connection,
    sign_in,
    watch_errors,
    winning_line,
)
from tests.frontend.conftest import screenshot, serve_site
from tests.games.races.helpers import on_winning_deal

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def site(browser, transactional_db) -> Iterator[str]:
    # A one-second countdown: the games are dealt and taking moves soon after the start.
    yield from serve_site(RACE_COUNTDOWN_SECONDS="1")


def two_players(new_context, site: str, django_user_model):
    create_players(django_user_model, "ada", "bea", "cy")
    ada = new_context(viewport=DESKTOP).new_page()
    bea = new_context(viewport=PHONE).new_page()
    errors = watch_errors(ada) + watch_errors(bea)
    sign_in(ada, site, "ada")
    sign_in(bea, site, "bea")
    return ada, bea, errors


def new_race(page, **fields) -> str:
    answer = call_api(page, "POST", "/api/races/", {"variant": "gold-mine", **fields})
    assert answer["status"] == 201, answer
    return answer["body"]["code"]


def test_an_invitation_leaves_the_lobby_when_declined_or_when_its_race_starts(
    site, new_context, django_user_model
):
    ada, bea, errors = two_players(new_context, site, django_user_model)
    for name in ("bea", "cy"):
        assert call_api(ada, "POST", f"/api/players/{name}/follow/", {})["status"] in (200, 201)
    bea.goto(f"{site}/")
    expect(bea.locator("#race-invitations")).to_be_hidden()

    declined, started = new_race(ada, listed=False), new_race(ada, listed=False)
    ada.goto(f"{site}/races/{declined}/")
    ada.locator("#race-invite").get_by_role("button", name="Invite bea").click()
    expect(ada.get_by_role("button", name="bea is invited")).to_be_disabled()
    sent = call_api(ada, "POST", f"/api/races/{started}/invite/", {"username": "bea"})
    assert sent["status"] == 200

    lines = bea.locator("#race-invitations-list li")
    expect(lines).to_have_count(2)
    screenshot(bea, "race-invitations-two-phone")
    # "Not now": gone from her lobby, and shown declined in ada's room, both live.
    bea.locator(f'li[data-code="{declined}"]').get_by_role(
        "button", name="Not now, ada's race of Gold Mine"
    ).click()
    expect(lines).to_have_count(1)
    expect(bea.locator(f'li[data-code="{declined}"]')).to_have_count(0)
    declined_button = ada.get_by_role("button", name="bea declined: not now")
    expect(declined_button).to_have_text("Declined")
    expect(declined_button).to_be_disabled()
    screenshot(ada, "race-invite-declined-desktop")
    # Asked again: nothing is sent, and the room still says so after a reload.
    again = call_api(ada, "POST", f"/api/races/{declined}/invite/", {"username": "bea"})
    assert again["body"]["you"]["invited"] == [{"username": "bea", "declined": True}]
    ada.reload()
    expect(ada.get_by_role("button", name="bea declined: not now")).to_be_visible()

    # The other race starts without her: its invitation goes too, with no reload.
    cy = new_context(viewport=DESKTOP).new_page()
    sign_in(cy, site, "cy")
    assert call_api(cy, "POST", f"/api/races/{started}/join/", {})["status"] == 200
    assert call_api(ada, "POST", f"/api/races/{started}/start/", {})["status"] == 200
    expect(bea.locator("#race-invitations")).to_be_hidden()
    screenshot(bea, "race-invitations-gone-phone")
    assert call_api(bea, "GET", "/api/me/race-invitations/")["body"]["results"] == []
    assert errors == []


def test_the_play_page_of_a_race_shows_the_race_live_and_its_end(
    site, new_context, django_user_model
):
    ada, bea, errors = two_players(new_context, site, django_user_model)
    code = new_race(ada)
    on_winning_deal(code)
    release_connection()
    assert call_api(bea, "POST", f"/api/races/{code}/join/", {})["status"] == 200
    for page in (ada, bea):
        page.goto(f"{site}/races/{code}/")
    assert call_api(ada, "POST", f"/api/races/{code}/start/", {})["status"] == 200
    # The room's "Play your game" once the countdown has dealt the games.
    games = {}
    for name, page in (("ada", ada), ("bea", bea)):
        page.get_by_role("link", name="Play your game").click()
        page.wait_for_url(re.compile(r"/play/\d+/$"))
        board_ready(page)
        games[name] = int(page.url.rstrip("/").rsplit("/", 1)[-1])

    strips = {name: page.locator("#race-strip") for name, page in (("ada", ada), ("bea", bea))}
    for strip in strips.values():
        expect(strip).to_be_visible()
        expect(strip).to_have_attribute("data-state", "live")
        expect(strip.locator(".race-clock")).to_have_text(re.compile(r"^(9|10):\d\d left$"))
        expect(strip.locator(".race-entrant.mine")).to_have_text("you 0")
        expect(strip.locator(".race-place")).to_have_text("1st of 2")
    # One line on the phone, above the table, not over it.
    box = strips["bea"].bounding_box()
    assert box is not None and box["height"] < 24, box
    assert box["y"] + box["height"] <= bea.locator("#board").bounding_box()["y"] + 1

    # bea plays the known line up to its third card home: ada's line follows, live.
    line, home = winning_line("gold-mine")["moves"], 0
    for number, move in enumerate(line):
        body = {"move": move, "expected_move_number": number}
        answer = call_api(bea, "POST", f"/api/games/{games['bea']}/moves/", body)
        assert answer["status"] == 201, answer
        home += move.get("to", "").startswith("foundation")
        if home == 3:
            break
    expect(strips["ada"].locator('[data-player="bea"] .race-cards')).to_have_text("3")
    expect(strips["ada"].locator(".race-place")).to_have_text("2nd of 2")
    expect(strips["ada"].locator(".race-entrant").first).to_have_attribute("data-player", "bea")
    expect(strips["bea"].locator(".race-entrant.mine")).to_have_text("you 3")
    expect(strips["bea"].locator(".race-place")).to_have_text("1st of 2")
    screenshot(ada, "race-strip-desktop")
    screenshot(bea, "race-strip-phone")

    # Both resign: the race is over, and the line leads to its result.
    for name, page in (("ada", ada), ("bea", bea)):
        resigned = call_api(page, "POST", f"/api/games/{games[name]}/resign/", {})
        assert resigned["status"] in (200, 201), resigned
    for page in (ada, bea):
        expect(page.locator("#result")).to_be_visible()
        page.locator("#result-close").click()
        over = page.locator("#race-strip-over")
        expect(over).to_have_text("The race is over: see the result")
        expect(over.get_by_role("link", name="see the result")).to_have_attribute(
            "href", f"/races/{code}/"
        )
    screenshot(bea, "race-strip-over-phone")
    ada.locator("#race-strip-over").get_by_role("link", name="see the result").click()
    ada.wait_for_url(f"{site}/races/{code}/")
    expect(ada.locator("#race-phase")).to_have_text("The race is over.")
    assert errors == []
