"""Guests in the browser (issue 36): a visitor plays at once, without an account; a shared
deal's link deals that deal to anyone and survives signing up or in; a guest's games are kept
when it signs up; a guest meeting the daily ranked attempt is told it is for accounts."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from accounts.guests import is_guest
from games.models import Game
from tests.frontend.browser_helpers import (
    PASSWORD,
    board_ready,
    call_api,
    create_players,
    expect_move_number,
    open_play_menu,
    release_connection,
    tap_move,
    wait_for_new_game,
    watch_errors,
)
from tests.frontend.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)

CLOCK = "grandfathers-clock"
VIEWPORTS = [(1280, 800), (390, 844)]


def game_row(game_id: int) -> Game:
    game = Game.objects.select_related("deal", "owner").get(pk=game_id)
    game.owner_is_guest = is_guest(game.owner)
    release_connection()
    return game


def first_move(page, game_id: int) -> None:
    """Play the game's first legal move with the mouse, as a player would."""
    legal = call_api(page, "GET", f"/api/games/{game_id}/")["body"]["legal_moves"]
    tap_move(page, legal[0])
    expect_move_number(page, 1)


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_visitor_plays_a_first_move_within_seconds_of_landing(site, new_context, viewport):
    width, height = viewport
    page = new_context(viewport={"width": width, "height": height}).new_page()
    errors = watch_errors(page)
    landed = time.monotonic()
    page.goto(site + "/")
    page.locator(f'.new-deal[data-variant="{CLOCK}"]').click()
    game_id = wait_for_new_game(page)
    board_ready(page)
    first_move(page, game_id)
    seconds = time.monotonic() - landed
    print(f"\nvisitor's first move accepted {seconds:.2f} s after landing at {width}x{height}")
    assert seconds < 30  # it happens: no sign-in, no form on the way
    game = game_row(game_id)
    assert game.owner_is_guest and game.move_number == 1
    # The header says so, and offers an account from this very page (a phone's ☰ menu holds
    # the header's links).
    if open_play_menu(page):
        guest, sign_up = "#menu-guest", "#menu-sign-up"
    else:
        guest, sign_up = "#guest-games", "#sign-up"
    expect(page.locator(guest)).to_be_visible()
    expect(page.locator(sign_up)).to_have_attribute("href", f"/signup/?next=/play/{game_id}/")
    screenshot(page, f"guest-first-move-{width}x{height}")
    assert errors == []


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_shared_deal_link_opened_signed_out_then_after_signing_up(site, new_context, viewport):
    width, height = viewport
    page = new_context(viewport={"width": width, "height": height}).new_page()
    errors = watch_errors(page)
    page.goto(f"{site}/?deal={CLOCK}&seed=4242")
    game_id = wait_for_new_game(page)
    board_ready(page)
    game = game_row(game_id)
    assert (game.deal.variant, game.deal.seed, game.owner_is_guest) == (CLOCK, 4242, True)
    first_move(page, game_id)
    screenshot(page, f"guest-shared-deal-{width}x{height}")

    # Signing up from the header comes back to the deal, now the account's.
    page.locator("#menu-sign-up" if open_play_menu(page) else "#sign-up").click()
    expect(page.locator("#guest-keeps")).to_be_visible()
    screenshot(page, f"guest-sign-up-{width}x{height}")
    name = f"sharer{width}"
    page.locator("#id_username").fill(name)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("#signup-form button[type=submit]").click()
    page.wait_for_url(re.compile(rf"/play/{game_id}/$"))
    board_ready(page)
    expect_move_number(page, 1)
    expect(page.locator(".account-nav")).to_contain_text(name)
    game = game_row(game_id)
    assert game.owner.username == name and not game.owner_is_guest
    # The same link opened again by the account deals it again, for the account.
    page.goto(f"{site}/?deal={CLOCK}&seed=4242")
    again = wait_for_new_game(page, game_id)
    assert game_row(again).owner.username == name
    assert errors == []


def test_a_shared_deal_link_survives_signing_in(site, new_context, django_user_model):
    create_players(django_user_model, "ada")
    page = new_context().new_page()
    errors = watch_errors(page)
    page.goto(f"{site}/?deal={CLOCK}&seed=77")
    game_id = wait_for_new_game(page)
    board_ready(page)
    first_move(page, game_id)
    page.locator("#sign-in").click()
    expect(page.locator("#guest-keeps")).to_be_visible()
    page.locator("#id_username").fill("ada")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("#signin-form button[type=submit]").click()
    page.wait_for_url(re.compile(rf"/play/{game_id}/$"))
    board_ready(page)
    expect_move_number(page, 1)
    game = game_row(game_id)
    assert game.owner.username == "ada" and game.deal.seed == 77
    assert errors == []


def test_a_guests_games_are_kept_on_sign_up(site, new_context):
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    errors = watch_errors(page)
    played = []
    for variant in (CLOCK, "gold-mine"):
        page.goto(site + "/")
        page.locator(f'.new-deal[data-variant="{variant}"]').click()
        played.append(wait_for_new_game(page, *played))
        board_ready(page)
        first_move(page, played[-1])
    page.goto(site + "/")
    expect(page.locator("#saved-games .saved-game")).to_have_count(2)
    expect(page.locator("#account-required")).to_be_visible()
    screenshot(page, "guest-lobby-1280x800")
    page.locator("#account-required-sign-up").click()
    page.locator("#id_username").fill("keeper")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("#signup-form button[type=submit]").click()
    page.wait_for_url(site + "/")
    expect(page.locator("#account-required")).to_have_count(0)
    saved = page.locator("#saved-games .saved-game")
    expect(saved).to_have_count(2)
    shown = {int(saved.nth(i).get_attribute("data-game-id")) for i in range(2)}
    assert shown == set(played)
    screenshot(page, "guest-signed-up-lobby-1280x800")
    page.goto(site + "/profile/")
    expect(page.locator("#profile-title")).to_have_text("keeper")
    assert errors == []


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_guest_meeting_the_daily_ranked_attempt_sees_the_account_message(
    site, new_context, viewport
):
    width, height = viewport
    page = new_context(viewport={"width": width, "height": height}).new_page()
    errors = watch_errors(page)
    page.goto(site + "/")
    page.locator(f'.new-deal[data-variant="{CLOCK}"]').click()
    wait_for_new_game(page)
    today = call_api(page, "GET", "/api/daily/")["body"]["date"]
    board = f"/daily/{today}/gold-mine/"
    page.goto(site + board)
    message = page.locator("#attempt-account-required")
    expect(message).to_be_visible()
    expect(message).to_contain_text("the ranked attempt is for accounts")
    expect(page.locator("#start-attempt")).to_have_count(0)
    expect(page.locator("#attempt-sign-up")).to_have_attribute(
        "href", "/signup/?next=" + board.replace("/", "%2F")
    )
    # The API says the same to a guest who tries anyway.
    refused = call_api(page, "POST", f"/api/daily/{today}/gold-mine/attempt/")
    assert refused["status"] == 403 and refused["body"]["error"]["code"] == "account_required"
    screenshot(page, f"guest-daily-{width}x{height}")
    assert errors == []


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_guests_welcome_page_header_shows_the_new_account(site, new_context, viewport):
    """Signing up with an email stays on the page to say "check your inbox": its header said
    "Guest · Sign in · Sign up" until Continue while the page said "signed in"."""
    width, height = viewport
    page = new_context(viewport={"width": width, "height": height}).new_page()
    errors = watch_errors(page)
    page.goto(site + "/")
    page.locator(f'.new-deal[data-variant="{CLOCK}"]').click()
    game_id = wait_for_new_game(page)
    board_ready(page)
    expect(page.locator("#guest-games")).to_have_count(1)
    page.goto(site + "/signup/?next=/")
    page.locator("#id_username").fill("welcomed")
    page.locator("#id_email").fill("welcomed@example.org")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("#signup-form button[type=submit]").click()
    expect(page.locator("#signup-confirm")).to_contain_text("you are signed in")
    expect(page.locator("nav.account-nav")).to_contain_text("Profile (welcomed)")
    expect(page.locator("#sign-out")).to_be_visible()
    for gone in ("#guest-games", "#sign-in", "#sign-up"):
        expect(page.locator(gone)).to_have_count(0)
    expect(page.locator("html")).to_have_attribute("data-user", "welcomed")
    expect(page.locator("html")).not_to_have_attribute("data-guest", "true")
    screenshot(page, f"guest-welcome-header-{width}x{height}")
    assert game_row(game_id).owner.username == "welcomed"
    # The header's new "Sign out" signs the new account out (it names it, not the guest).
    page.locator("#sign-out").click()
    page.wait_for_url(site + "/")
    expect(page.locator("html")).to_have_attribute("data-user", "")
    assert errors == []
