"""Competition from the first day (issue 36): the Leaderboards page leads to today's live boards
and shows a player from their first ranked game; "Start ranked attempt" asks first; "New game"
in a ranked attempt says the attempt stays open."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from tests.frontend.browser_helpers import (
    board_ready,
    call_api,
    create_players,
    make_a_move,
    open_play_menu,
    release_connection,
    sign_in,
    wait_for_new_game,
    watch_errors,
)
from tests.frontend.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 740}


def today_of(page: Page) -> str:
    return call_api(page, "GET", "/api/daily/")["body"]["date"]


def ranked_attempt(page: Page, today: str, slug: str) -> int:
    """A ranked attempt started through the API, with one move made (so it is on the boards)."""
    answer = call_api(page, "POST", f"/api/daily/{today}/{slug}/attempt/")
    assert answer["status"] == 201, answer
    make_a_move(page, answer["body"]["id"])
    return answer["body"]["id"]


def ranked_games_of(django_user_model, name: str) -> list[tuple[str, str]]:
    games = list(
        Game.objects.filter(owner__username=name, ranked=True).values_list(
            "daily__variant", "status"
        )
    )
    release_connection()
    return games


@pytest.mark.parametrize(
    "viewport", [DESKTOP, PHONE, SMALL_PHONE], ids=["1280x800", "390x844", "360x740"]
)
def test_the_leaderboards_page_leads_to_todays_live_boards_with_their_leaders(
    site, new_context, django_user_model, viewport
):
    create_players(django_user_model, "ada")
    player = new_context().new_page()
    sign_in(player, site, "ada")
    today = today_of(player)
    ranked_attempt(player, today, "gold-mine")

    visitor = new_context(viewport=viewport).new_page()  # anyone, signed out
    errors = watch_errors(visitor)
    visitor.goto(site + "/leaderboards/")
    boards = visitor.locator("#today-list li.today-board")
    expect(boards).to_have_count(5)
    gold = visitor.locator('#today-list li[data-variant="gold-mine"]')
    expect(gold.locator(".attempts")).to_have_text("1 ranked attempt")
    expect(gold.locator(".leader .player-link")).to_have_text("ada")
    expect(gold.locator(".leader-result")).to_contain_text("in play")
    expect(gold.locator(".leader-detail")).to_contain_text("1 move · 0:")
    castle = visitor.locator('#today-list li[data-variant="selective-castle"]')
    expect(castle.locator(".attempts")).to_have_text("0 ranked attempts")
    expect(castle.locator(".leader")).to_have_text("Nobody on the board yet: be the first.")
    # Nothing of the open day's deal: no seed anywhere on the page.
    assert "seed" not in visitor.locator("#today-boards").inner_text().lower()
    screenshot(visitor, f"leaderboards-today-{viewport['width']}x{viewport['height']}")

    gold.locator("a.board-link").click()
    visitor.wait_for_url(f"{site}/daily/{today}/gold-mine/")
    expect(visitor.locator('#leaderboard tr[data-user="ada"]')).to_be_visible()
    assert errors == []


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_one_finished_ranked_game_puts_a_player_on_the_weeks_board(
    site, new_context, django_user_model, viewport
):
    """The all-time ranking waits for LEADERBOARD_MIN_GAMES; the week's board shows a player
    from the first ranked game."""
    create_players(django_user_model, "bea")
    page = new_context(viewport=viewport).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "bea")
    game_id = ranked_attempt(page, today_of(page), "grandfathers-clock")
    answer = call_api(page, "POST", f"/api/games/{game_id}/resign/", {})
    assert answer["status"] == 200, answer

    page.goto(site + "/leaderboards/?game=grandfathers-clock")
    expect(page.locator("#tab-grandfathers-clock")).to_have_attribute("aria-selected", "true")
    row = page.locator('#week-leaderboard tr[data-user="bea"]')
    expect(row).to_be_visible()
    expect(row.locator("td").first).to_have_text("1")  # rank
    expect(row.locator("td.num").nth(1)).to_have_text("0")  # wins
    expect(row.locator("td.num").nth(2)).to_have_text("1")  # played
    expect(page.locator("#week-empty")).to_be_hidden()
    expect(page.locator("#week-note")).to_contain_text("from a player's first")
    # Not yet on the all-time ranking (5 finished ranked games), which says so.
    expect(page.locator("#alltime-leaderboard tbody tr")).to_have_count(0)
    expect(page.locator("#leaderboard-empty")).to_be_visible()
    expect(page.locator("#min-games")).to_contain_text("at least 5 ranked games")
    screenshot(page, f"leaderboards-week-{viewport['width']}x{viewport['height']}")

    # Another game's tab: nobody this week.
    page.locator("#tab-gold-mine").click()
    expect(page.locator("#week-leaderboard")).to_have_attribute("data-variant", "gold-mine")
    expect(page.locator("#week-leaderboard tbody tr")).to_have_count(0)
    expect(page.locator("#week-empty")).to_be_visible()
    assert errors == []


def test_on_a_small_phone_the_weeks_board_shows_every_column_even_for_a_long_name(
    site, new_context, django_user_model
):
    """At 360 px the board's six columns fit its width: a long name wraps rather than pushing
    the best time out of sight into a sideways scroll."""
    name = "a_rather_long_player_name_2026"
    create_players(django_user_model, name)
    page = new_context(viewport=SMALL_PHONE).new_page()
    sign_in(page, site, name)
    game_id = ranked_attempt(page, today_of(page), "grandfathers-clock")
    assert call_api(page, "POST", f"/api/games/{game_id}/resign/", {})["status"] == 200

    page.goto(site + "/leaderboards/?game=grandfathers-clock")
    row = page.locator(f'#week-leaderboard tr[data-user="{name}"]')
    expect(row).to_be_visible()
    fits = page.eval_on_selector(
        "#week-leaderboard", "t => t.scrollWidth <= t.parentElement.clientWidth"
    )
    assert fits, "the week's board scrolls sideways inside its frame"
    wrap = page.locator("#week-leaderboard").locator("xpath=..").bounding_box()
    last = row.locator("td").last.bounding_box()
    assert wrap and last and last["x"] + last["width"] <= wrap["x"] + wrap["width"] + 0.5
    screenshot(page, "leaderboards-week-long-name-360x740")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_start_ranked_attempt_asks_first_and_cancel_starts_nothing(
    site, new_context, django_user_model, viewport
):
    create_players(django_user_model, "cid")
    page = new_context(viewport=viewport).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "cid")
    today = today_of(page)
    page.goto(f"{site}/daily/{today}/gold-mine/")
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")

    start = page.locator("#start-attempt")
    start.click()
    ask = page.locator(".start-ask")
    expect(ask).to_be_visible()
    expect(ask).to_have_attribute("role", "group")
    expect(ask).to_contain_text("Start your ranked attempt at Gold Mine?")
    expect(ask).to_contain_text("One try only")
    expect(ask).to_contain_text("clock starts now")
    expect(ask).to_contain_text("counts for today's ranking")
    # Its name is the question, for a screen reader.
    label = page.locator(f"#{ask.get_attribute('aria-labelledby')}")
    expect(label).to_contain_text("Start your ranked attempt at Gold Mine?")
    expect(page.locator("#confirm-attempt")).to_be_focused()
    screenshot(page, f"daily-start-ask-{viewport['width']}x{viewport['height']}")

    page.locator("#cancel-attempt").click()
    expect(ask).to_have_count(0)
    expect(start).to_be_focused()
    assert ranked_games_of(django_user_model, "cid") == []

    # From the keyboard: Enter asks, Escape puts it back, nothing started.
    page.keyboard.press("Enter")
    expect(page.locator("#confirm-attempt")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator(".start-ask")).to_have_count(0)
    expect(start).to_be_focused()
    assert ranked_games_of(django_user_model, "cid") == []
    challenges = call_api(page, "GET", "/api/daily/")["body"]["challenges"]
    gold_mine = next(c for c in challenges if c["variant"] == "gold-mine")
    assert gold_mine["your_attempt"] is None and gold_mine["can_attempt"] is True

    # Enter asks, Enter on Start starts it.
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    board_ready(page)
    expect(page.locator("#badges .badge.ranked")).to_be_visible()
    assert ranked_games_of(django_user_model, "cid") == [("gold-mine", "playing")]
    assert errors == []


def test_the_daily_pages_challenge_cards_ask_first_too(site, new_context, django_user_model):
    create_players(django_user_model, "dot")
    page = new_context(viewport=DESKTOP).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "dot")
    page.goto(site + "/daily/")
    card = page.locator('#challenges .challenge[data-variant="selective-castle"]')
    card.locator(".start-attempt").click()
    expect(card.locator(".start-ask")).to_contain_text("Selective Castle")
    screenshot(page, "daily-card-start-ask-1280x800")
    card.locator(".cancel-attempt").click()
    expect(card.locator(".start-attempt")).to_be_focused()
    assert ranked_games_of(django_user_model, "dot") == []
    card.locator(".start-attempt").click()
    card.locator(".confirm-attempt").click()
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    assert ranked_games_of(django_user_model, "dot") == [("selective-castle", "playing")]
    assert errors == []


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_new_game_in_a_ranked_attempt_says_the_attempt_stays_open(
    site, new_context, django_user_model, viewport
):
    create_players(django_user_model, "eve")
    page = new_context(viewport=viewport).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "eve")
    today = today_of(page)
    answer = call_api(page, "POST", f"/api/daily/{today}/gold-mine/attempt/")
    assert answer["status"] == 201, answer
    attempt = answer["body"]["id"]
    page.goto(f"{site}/play/{attempt}/")
    board_ready(page)

    # Even with no move made, it asks (and says why) rather than leaving the attempt silently.
    open_play_menu(page)  # a phone's New game is in the ☰ menu
    page.locator("#new-game").click()
    dialog = page.locator("#new-game-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#new-game-title")).to_have_text("Leave your ranked attempt?")
    expect(dialog.locator("#new-game-ranked")).to_contain_text("Your ranked attempt stays open")
    expect(dialog.locator("#new-game-ranked")).to_contain_text("until the day ends at midnight UTC")
    expect(dialog.locator("#new-game-casual")).to_be_hidden()
    expect(dialog.locator("#new-game-daily-link")).to_have_attribute(
        "href", f"/daily/{today}/gold-mine/"
    )
    expect(dialog.locator("#confirm-new-game")).to_have_text("New casual game")
    expect(dialog.locator("#keep-playing")).to_be_focused()
    screenshot(page, f"play-ranked-new-game-{viewport['width']}x{viewport['height']}")

    # Keep playing: the dialog goes, the attempt's page stays.
    dialog.locator("#keep-playing").click()
    expect(dialog).to_be_hidden()
    assert page.url == f"{site}/play/{attempt}/"
    # Escape too.
    open_play_menu(page)
    page.locator("#new-game").click()
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert page.url == f"{site}/play/{attempt}/"

    open_play_menu(page)
    page.locator("#new-game").click()
    dialog.locator("#confirm-new-game").click()
    casual = wait_for_new_game(page, attempt)
    board_ready(page)
    expect(page.locator("#badges .badge.ranked")).to_have_count(0)
    game = call_api(page, "GET", f"/api/games/{casual}/")["body"]
    assert game["ranked"] is False and game["variant"] == "gold-mine"
    # The attempt is still open, and the daily page leads back to it.
    assert call_api(page, "GET", f"/api/games/{attempt}/")["body"]["status"] == "playing"
    page.goto(f"{site}/daily/{today}/gold-mine/")
    expect(page.locator("#continue-attempt")).to_have_attribute("href", f"/play/{attempt}/")

    # A casual game with a move still asks in its own words.
    page.goto(f"{site}/play/{casual}/")
    board_ready(page)
    make_a_move(page, casual)
    page.reload()
    board_ready(page)
    open_play_menu(page)
    page.locator("#new-game").click()
    expect(dialog.locator("#new-game-title")).to_have_text("Start a new game?")
    expect(dialog.locator("#new-game-casual")).to_be_visible()
    expect(dialog.locator("#new-game-ranked")).to_be_hidden()
    expect(dialog.locator("#confirm-new-game")).to_have_text("New game")
    assert errors == []
