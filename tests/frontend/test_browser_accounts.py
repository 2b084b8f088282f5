"""Signing up and signing in through the site's own pages, in a real browser."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.test import override_settings
from django.utils.http import urlsafe_base64_encode
from playwright.sync_api import expect

from games.models import Game
from tests.frontend.browser_helpers import (
    PASSWORD,
    create_players,
    open_game,
    release_connection,
    sign_in,
    start_game,
    tap_move,
    watch_errors,
)
from tests.frontend.conftest import ARTIFACTS

pytestmark = pytest.mark.django_db(transaction=True)

BROWSER_SECRET_KEY = "browser-tests"  # the site fixture's server (tests/frontend/conftest.py)


def test_sign_up_shows_a_field_error_next_to_its_field_then_creates_the_account(
    site, new_context, django_user_model
):
    page = new_context().new_page()
    errors = watch_errors(page)
    page.goto(site + "/signup/?next=/daily/")
    expect(page.locator("html")).to_have_attribute("data-user", "")

    page.fill("#id_username", "grace")
    page.fill("#id_password", "1234")  # the server's validators refuse it
    page.locator("#signup-form button[type=submit]").click()
    password_error = page.locator("#password-error")
    expect(password_error).to_be_visible()
    expect(password_error).to_contain_text("too short")
    expect(page.locator("#id_password")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#id_password")).to_be_focused()
    # Next to its field: in the same .field, and named by the input's aria-describedby.
    field = page.locator(".field", has=page.locator("#id_password"))
    expect(field.locator("#password-error")).to_have_count(1)
    expect(page.locator("#id_password")).to_have_attribute(
        "aria-describedby", re.compile(r"\bpassword-error\b")
    )
    expect(page.locator("#username-error")).to_be_hidden()
    expect(page.locator("#id_username")).not_to_have_attribute("aria-invalid", "true")
    assert not django_user_model.objects.filter(username="grace").exists()
    release_connection()

    page.fill("#id_password", PASSWORD)
    page.locator("#signup-form button[type=submit]").click()
    page.wait_for_url(site + "/daily/")  # to `next`, signed in
    expect(page.locator("html")).to_have_attribute("data-user", "grace")
    expect(page.locator("#sign-out")).to_be_visible()
    assert django_user_model.objects.filter(username="grace").exists()
    release_connection()
    assert errors == []


def test_a_sign_up_with_an_email_says_to_check_the_inbox_before_going_on(
    site, new_context, django_user_model
):
    page = new_context().new_page()
    errors = watch_errors(page)
    page.goto(site + "/signup/?next=/daily/")
    page.fill("#id_username", "hopper")
    page.fill("#id_email", "hopper@example.org")
    page.fill("#id_password", PASSWORD)
    page.locator("#signup-form button[type=submit]").click()
    note = page.locator("#signup-confirm")
    expect(note).to_be_visible()
    expect(note).to_contain_text("hopper@example.org")
    expect(note).to_contain_text("Check your inbox")
    expect(page.locator("h1")).to_have_text("Welcome, hopper!")
    page.screenshot(path=str(ARTIFACTS / "signup-check-inbox.png"))
    page.locator("#signup-confirm a", has_text="Continue").click()
    page.wait_for_url(site + "/daily/")
    expect(page.locator("html")).to_have_attribute("data-user", "hopper")
    assert django_user_model.objects.get(username="hopper").email == ""  # until the link
    release_connection()
    assert errors == []


def test_sign_in_through_the_signin_page_after_a_missing_field_error(
    site, new_context, django_user_model
):
    create_players(django_user_model, "lovelace")
    page = new_context().new_page()
    errors = watch_errors(page)
    page.goto(site + "/profile/")  # needs a player: off to the sign-in page, with next
    page.wait_for_url(re.compile(r"/signin/\?next="))
    page.fill("#id_username", "lovelace")
    page.locator("#signin-form button[type=submit]").click()  # no password yet
    expect(page.locator("#password-error")).to_have_text("Enter your password.")
    expect(page.locator("#id_password")).to_have_attribute("aria-invalid", "true")
    field = page.locator(".field", has=page.locator("#id_password"))
    expect(field.locator("#password-error")).to_be_visible()
    expect(page.locator("#username-error")).to_be_hidden()

    page.fill("#id_password", PASSWORD)
    page.locator("#signin-form button[type=submit]").click()
    page.wait_for_url(site + "/profile/")
    expect(page.locator("html")).to_have_attribute("data-user", "lovelace")
    expect(page.locator("#profile-title")).to_have_text("lovelace")

    page.locator("#sign-out").click()  # and out again
    page.wait_for_url(site + "/")
    expect(page.locator("html")).to_have_attribute("data-user", "")
    expect(page.locator("#sign-in")).to_be_visible()
    assert errors == []


def test_a_forgotten_password_is_replaced_through_the_emailed_link(
    site, new_context, django_user_model
):
    create_players(django_user_model, "hopper")
    user = django_user_model.objects.get(username="hopper")
    user.email = "hopper@example.com"
    user.save(update_fields=["email"])
    page = new_context().new_page()
    errors = watch_errors(page)
    page.goto(site + "/signin/")
    page.get_by_role("link", name="Forgot your password?").click()
    page.wait_for_url(site + "/password/forgot/")
    page.fill("#id_email", "hopper@example.com")
    page.locator("#reset-form button[type=submit]").click()
    expect(page.locator("#form-status")).to_contain_text("on its way")

    # The link the server emailed (to its log, here): made with the server's secret key.
    with override_settings(SECRET_KEY=BROWSER_SECRET_KEY):
        token = default_token_generator.make_token(user)
    uid = urlsafe_base64_encode(str(user.pk).encode())
    release_connection()
    page.goto(f"{site}/password/reset/{uid}/{token}/")
    page.fill("#id_new_password", "a-fresh-passphrase")
    page.fill("#id_new_password2", "a-fresh-passphrase-typo")
    page.locator("#reset-confirm-form button[type=submit]").click()
    expect(page.locator("#new_password2-error")).to_have_text("The two passwords differ.")
    page.fill("#id_new_password2", "a-fresh-passphrase")
    page.locator("#reset-confirm-form button[type=submit]").click()
    expect(page.locator("#reset-done")).to_be_visible()

    page.get_by_role("link", name="Sign in").last.click()
    page.fill("#id_username", "hopper")
    page.fill("#id_password", "a-fresh-passphrase")
    page.locator("#signin-form button[type=submit]").click()
    page.wait_for_url(site + "/")
    expect(page.locator("html")).to_have_attribute("data-user", "hopper")

    # A link works once, and says so before anyone types a new password for nothing.
    page.goto(f"{site}/password/reset/{uid}/{token}/")
    expect(page.locator("#reset-invalid")).to_contain_text("already used")
    expect(page.locator("#reset-confirm-form")).to_have_count(0)
    page.get_by_role("link", name="Ask for a new link").click()
    page.wait_for_url(site + "/password/forgot/")
    assert errors == []


def reset_link(site: str, user) -> str:
    """The link the server would email ``user`` (made with the browser tests' server's key)."""
    with override_settings(SECRET_KEY=BROWSER_SECRET_KEY):
        token = default_token_generator.make_token(user)
    uid = urlsafe_base64_encode(str(user.pk).encode())
    return f"{site}/password/reset/{uid}/{token}/"


def test_a_reset_ends_the_pages_own_sign_in_only_when_it_was_that_accounts(
    site, new_context, django_user_model
):
    create_players(django_user_model, "hopper", "lovelace")
    page = new_context().new_page()
    errors = watch_errors(page)
    sign_in(page, site, "hopper")

    def reset(username: str) -> None:
        # Read after the sign-in: a link is made from the account's last sign-in too.
        link = reset_link(site, django_user_model.objects.get(username=username))
        release_connection()
        page.goto(link)
        page.fill("#id_new_password", "a-fresh-passphrase")
        page.fill("#id_new_password2", "a-fresh-passphrase")
        page.locator("#reset-confirm-form button[type=submit]").click()
        expect(page.locator("#reset-done")).to_be_visible()
        # The link has done its work: no offer of another.
        expect(page.get_by_role("link", name="Ask for a new link")).to_be_hidden()

    reset("lovelace")  # someone else's account: this sign-in goes on
    page.wait_for_timeout(300)  # room for a sign-out to reach the page, were one sent
    expect(page.locator("html")).to_have_attribute("data-user", "hopper")
    expect(page.locator("nav.account-nav")).to_be_visible()

    reset("hopper")  # this account's every session ended, this page's too
    expect(page.locator("html")).to_have_attribute("data-user", "")
    expect(page.locator("nav.account-nav")).to_be_hidden()
    assert errors == []


def test_a_player_downloads_their_data_then_closes_their_account(
    site, new_context, django_user_model
):
    create_players(django_user_model, "leaving")
    context = new_context(accept_downloads=True)
    page = context.new_page()
    errors = watch_errors(page)
    sign_in(page, site, "leaving")
    game_id = start_game(page, "gold-mine")
    page.goto(site + "/account/")

    with page.expect_download() as download:
        page.click("#export-link")
    assert download.value.suggested_filename.startswith("patience-data-")
    data = json.loads(Path(download.value.path()).read_text())
    assert data["account"]["username"] == "leaving"
    assert [game["id"] for game in data["games"]] == [game_id]

    close = page.locator("#close-form button[type=submit]")
    page.fill("#id_close_password", "not-the-password")
    close.click()  # the box is not ticked: refused before asking the server
    expect(page.locator("#confirm-error")).to_have_text("Tick the box to confirm.")
    page.check("#id_close_confirm")
    close.click()  # a wrong password: the server refuses, next to the field
    expect(page.locator("#password-error")).to_be_visible()
    expect(page.locator("#id_close_password")).to_be_focused()
    assert django_user_model.objects.filter(username="leaving").exists()
    release_connection()

    page.fill("#id_close_password", PASSWORD)
    close.click()
    expect(page.locator("#closed-title")).to_be_visible()
    expect(page.locator("#account-page")).to_be_hidden()
    expect(page.locator("html")).to_have_attribute("data-user", "")
    expect(page.locator("#sign-out")).to_be_hidden()
    assert not django_user_model.objects.filter(username="leaving").exists()
    release_connection()

    page.goto(site + "/")  # signed out
    expect(page.locator("html")).to_have_attribute("data-user", "")
    assert errors == []


def test_signing_out_in_one_tab_ends_the_game_tab_with_a_way_back(
    site, new_context, django_user_model
):
    create_players(django_user_model, "hopper")
    context = new_context()
    game_tab, other_tab = context.new_page(), context.new_page()
    errors = watch_errors(game_tab)
    sign_in(game_tab, site, "hopper")
    game_id = start_game(game_tab, "gold-mine", seed=11)
    release_connection()
    open_game(game_tab, site, game_id)

    other_tab.goto(site + "/")
    other_tab.locator(".site-nav summary").click()
    other_tab.locator("#sign-out").click()
    other_tab.wait_for_url(site + "/")
    expect(other_tab.locator("html")).to_have_attribute("data-user", "")

    # The game's tab hears at once that its sign-in ended, and sends nothing more.
    expect(game_tab.locator("#live")).to_have_text("Signed out")
    expect(game_tab.locator("#message")).to_contain_text("You have been signed out")
    expect(game_tab.locator("html")).to_have_attribute("data-user", "")
    expect(game_tab.locator("nav.account-nav")).to_be_hidden()
    tap_move(game_tab, {"type": "deal"})
    expect(game_tab.locator("#message")).to_contain_text("You have been signed out")
    expect(game_tab.locator("#board")).to_have_attribute("data-move-number", "0")

    game_tab.locator("#sign-in-again").click()
    game_tab.wait_for_url(re.compile(rf"/signin/\?next=%2Fplay%2F{game_id}%2F$"))
    game_tab.fill("#id_username", "hopper")
    game_tab.fill("#id_password", PASSWORD)
    game_tab.locator("#signin-form button[type=submit]").click()
    game_tab.wait_for_url(f"{site}/play/{game_id}/")
    expect(game_tab.locator("#live")).to_have_attribute("data-state", "open")
    assert errors == []


def test_signing_out_of_other_devices_from_the_account_page(site, new_context, django_user_model):
    create_players(django_user_model, "lovelace")
    laptop, phone = new_context().new_page(), new_context().new_page()
    errors = {"laptop": watch_errors(laptop), "phone": watch_errors(phone)}
    sign_in(phone, site, "lovelace")
    game_id = start_game(phone, "gold-mine", seed=11)
    release_connection()
    open_game(phone, site, game_id)
    sign_in(laptop, site, "lovelace")

    laptop.goto(site + "/account/")
    laptop.locator("#account-signout-others").click()
    expect(laptop.locator("#signout-others-message")).to_have_text("Signed out of 1 other session.")
    expect(phone.locator("#live")).to_have_text("Signed out")
    expect(phone.locator("#message")).to_contain_text("You have been signed out")
    # This device stays signed in; asking again finds nobody else.
    laptop.reload()
    expect(laptop.locator("html")).to_have_attribute("data-user", "lovelace")
    laptop.locator("#account-signout-others").click()
    expect(laptop.locator("#signout-others-message")).to_have_text(
        "You were not signed in anywhere else."
    )
    assert errors == {"laptop": [], "phone": []}


def test_pages_opened_as_one_account_never_act_as_the_account_signed_in_since(
    site, new_context, django_user_model
):
    """The audit: pages of tabs open in one browser; in a new tab the browser signs in as other
    over tabs' sign-in. tabs' pages refuse to write as other, and the game page says signed out."""
    create_players(django_user_model, "tabs", "other")
    context = new_context()
    play_tab, daily_tab, account_tab, new_tab = (context.new_page() for _ in range(4))
    errors = {
        name: watch_errors(tab)
        for name, tab in [
            ("play", play_tab),
            ("daily", daily_tab),
            ("account", account_tab),
            ("new", new_tab),
        ]
    }
    sign_in(play_tab, site, "tabs")
    game_id = start_game(play_tab, "gold-mine", seed=11)
    release_connection()
    open_game(play_tab, site, game_id)
    daily_tab.goto(site + "/daily/")
    start = daily_tab.locator('.challenge[data-variant="gold-mine"] .start-attempt')
    expect(start).to_be_visible()
    account_tab.goto(site + "/account/")
    expect(account_tab.locator("#account-username")).to_have_text("tabs")

    # /signin/ says who is signed in rather than offering a form.
    new_tab.goto(site + "/signin/")
    expect(new_tab.locator("#signed-in-as")).to_contain_text("You are signed in as tabs.")
    expect(new_tab.locator("#signin-form")).to_have_count(0)
    # A sign-in as other over tabs' (as the old sign-in form did; a script still may).
    sign_in(new_tab, site, "other")

    # The game page: tabs' sign-in has ended, as if signed out.
    expect(play_tab.locator("#live")).to_have_text("Signed out")
    expect(play_tab.locator("#message")).to_contain_text("You have been signed out")
    expect(play_tab.locator("#sign-in-again")).to_be_visible()
    expect(play_tab.locator("html")).to_have_attribute("data-user", "")

    refusal = (
        "This page belongs to tabs, but this browser is now signed in as other: nothing was "
        "changed. Reload the page to go on as other."
    )
    # The account page's email save: refused, onto nobody.
    account_tab.fill("#id_email", "x@example.org")
    account_tab.fill("#id_email_password", PASSWORD)
    account_tab.locator("#email-form button[type=submit]").click()
    expect(account_tab.locator("#email-form .form-error")).to_have_text(refusal)
    expect(account_tab.locator("#email-form .form-status")).to_be_hidden()
    # The daily page's ranked start: refused, no attempt for other.
    start.click()
    daily_tab.locator('.start-ask[data-variant="gold-mine"] .confirm-attempt').click()
    expect(daily_tab.locator("#daily-message")).to_have_text(refusal)
    assert daily_tab.url == site + "/daily/"
    assert set(django_user_model.objects.values_list("username", "email")) == {
        ("tabs", ""),
        ("other", ""),
    }
    assert list(Game.objects.values_list("owner__username", "daily")) == [("tabs", None)]
    release_connection()

    # "Sign in again" on the game page: the browser is other's now, which the sign-in page says.
    play_tab.locator("#sign-in-again").click()
    play_tab.wait_for_url(re.compile(rf"/signin/\?next=%2Fplay%2F{game_id}%2F$"))
    expect(play_tab.locator("#signed-in-as")).to_contain_text("You are signed in as other.")
    # Continuing as other does not lead to tabs' game (not found for other), but to the lobby.
    expect(play_tab.locator("#next-not-theirs")).to_contain_text(
        "The game you came from is not one of other's: continuing as other leads to the lobby."
    )
    play_tab.locator("#continue-signed-in").click()
    play_tab.wait_for_url(site + "/")
    expect(play_tab.locator("html")).to_have_attribute("data-user", "other")
    assert errors == {"play": [], "daily": [], "account": [], "new": []}


def test_the_headers_sign_out_on_a_page_of_an_account_signed_out_since_says_so_and_asks(
    site, new_context, django_user_model
):
    """Pages opened as tabs; the browser then signs in as other in a new tab. Each old page's
    "Sign out" signs nobody out: it says whose page it is and who is signed in now, and lets
    the player continue as other, sign other out too, or stay."""
    create_players(django_user_model, "tabs", "other")
    context = new_context()
    rules_tab, daily_tab, profile_tab, new_tab = (context.new_page() for _ in range(4))
    tabs = {"rules": rules_tab, "daily": daily_tab, "profile": profile_tab, "new": new_tab}
    errors = {name: watch_errors(tab) for name, tab in tabs.items()}
    sign_in(rules_tab, site, "tabs")
    for tab, path in (
        (rules_tab, "/rules/gold-mine/"),
        (daily_tab, "/daily/"),
        (profile_tab, "/profile/"),
    ):
        tab.goto(site + path)
        expect(tab.locator("html")).to_have_attribute("data-user", "tabs")
    new_tab.goto(site + "/signin/")
    sign_in(new_tab, site, "other")

    dialog = rules_tab.locator("#account-changed")
    rules_tab.locator("#sign-out").click()
    expect(dialog).to_be_visible()
    expect(dialog.locator("h2")).to_have_text("This browser is now signed in as other")
    expect(dialog.locator("#account-changed-message")).to_have_text(
        "This page belongs to tabs, who is no longer signed in on this browser: it has since "
        "signed in as other (in another tab or window). Nobody was signed out."
    )
    expect(rules_tab.locator("#account-changed-continue")).to_be_focused()
    expect(rules_tab.locator("nav.account-nav")).to_be_hidden()
    assert rules_tab.url == site + "/rules/gold-mine/"
    # Stay: the dialog closes, the page stays, other stays signed in.
    rules_tab.locator("#account-changed-stay").click()
    expect(dialog).to_be_hidden()
    assert rules_tab.url == site + "/rules/gold-mine/"

    # Continue as other: the lobby, as other.
    daily_tab.locator("#sign-out").click()
    daily_tab.locator("#account-changed-continue").click()
    daily_tab.wait_for_url(site + "/")
    expect(daily_tab.locator("html")).to_have_attribute("data-user", "other")

    # Sign other out as well: the lobby, signed out (in every tab).
    profile_tab.locator("#sign-out").click()
    expect(profile_tab.locator("#account-changed-sign-out")).to_have_text("Sign out other")
    profile_tab.locator("#account-changed-sign-out").click()
    profile_tab.wait_for_url(site + "/")
    expect(profile_tab.locator("html")).to_have_attribute("data-user", "")
    new_tab.reload()
    expect(new_tab.locator("html")).to_have_attribute("data-user", "")
    assert errors == {"rules": [], "daily": [], "profile": [], "new": []}


def test_an_email_address_another_account_has_is_refused_next_to_its_field(
    site, new_context, django_user_model
):
    django_user_model.objects.create_user("ada", email="ada@example.com", password=PASSWORD)
    create_players(django_user_model, "grace")
    page = new_context().new_page()
    errors = watch_errors(page)
    taken = "Another account already has this email address."

    # Sign-up says nothing of it (docs/api.md): the account is made without the address,
    # whose owner is emailed.
    page.goto(site + "/signup/")
    page.fill("#id_username", "hopper")
    page.fill("#id_email", " ADA@example.com ")
    page.fill("#id_password", PASSWORD)
    page.locator("#signup-form button[type=submit]").click()
    # The same note as for a free address: check the inbox (the owner's, here).
    expect(page.locator("#signup-confirm")).to_contain_text("Check your inbox")
    page.locator("#signup-confirm a", has_text="Continue").click()
    expect(page.locator("html")).to_have_attribute("data-user", "hopper")
    assert django_user_model.objects.get(username="hopper").email == ""
    release_connection()

    # The account page, asked for the password, does say it, next to the field.
    sign_in(page, site, "grace")
    page.goto(site + "/account/")
    page.fill("#id_email", "Ada@Example.com")
    page.fill("#id_email_password", PASSWORD)
    page.locator("#email-form button[type=submit]").click()
    expect(page.locator("#email-error")).to_have_text(taken)
    expect(page.locator("#email-form .form-status")).to_be_hidden()
    assert django_user_model.objects.get(username="grace").email == ""
    release_connection()
    assert errors == []


def test_signing_out_from_the_signin_page_then_in_as_another_account(
    site, new_context, django_user_model
):
    create_players(django_user_model, "tabs", "other")
    context = new_context()
    play_tab, signin_tab = context.new_page(), context.new_page()
    errors = watch_errors(play_tab) + watch_errors(signin_tab)
    sign_in(play_tab, site, "tabs")
    game_id = start_game(play_tab, "gold-mine", seed=11)
    release_connection()
    open_game(play_tab, site, game_id)

    signin_tab.goto(site + "/signin/?next=/daily/")
    expect(signin_tab.locator("#continue-signed-in")).to_have_attribute("href", "/daily/")
    signin_tab.locator("#switch-account").click()  # "Sign out": the form, with the same next
    expect(signin_tab.locator("#signin-form")).to_be_visible()
    expect(signin_tab.locator("html")).to_have_attribute("data-user", "")
    expect(play_tab.locator("#live")).to_have_text("Signed out")
    signin_tab.fill("#id_username", "other")
    signin_tab.fill("#id_password", PASSWORD)
    signin_tab.locator("#signin-form button[type=submit]").click()
    signin_tab.wait_for_url(site + "/daily/")
    expect(signin_tab.locator("html")).to_have_attribute("data-user", "other")
    assert errors == []


def test_sign_in_again_after_signing_back_in_elsewhere_brings_the_game_back_at_once(
    site, new_context, django_user_model
):
    create_players(django_user_model, "tabs")
    context = new_context()
    play_tab, other_tab = context.new_page(), context.new_page()
    errors = watch_errors(play_tab)
    sign_in(play_tab, site, "tabs")
    game_id = start_game(play_tab, "gold-mine", seed=11)
    release_connection()
    open_game(play_tab, site, game_id)

    other_tab.goto(site + "/")
    # The lobby again: wait for that navigation itself (the URL is the same before it), or
    # the sign-in below could run in the page it replaces.
    with other_tab.expect_navigation(url=site + "/"):
        other_tab.locator("#sign-out").click()
    expect(play_tab.locator("#live")).to_have_text("Signed out")
    sign_in(other_tab, site, "tabs")  # back in, in the other tab

    play_tab.locator("#sign-in-again").click()  # no second sign-in: the game, live again
    play_tab.wait_for_load_state()
    expect(play_tab.locator("#live")).to_have_attribute("data-state", "open")
    assert play_tab.url == f"{site}/play/{game_id}/"
    expect(play_tab.locator("html")).to_have_attribute("data-user", "tabs")
    assert errors == []


def test_the_account_pages_password_forms_name_the_account_and_send_once(
    site, new_context, django_user_model
):
    """Every form with a password on /account/ has the account's name for password managers
    (autocomplete="username"), and a second submit while the first is on its way sends
    nothing: the first answer is the one the player sees. The current password again is
    refused in words next to the new one."""
    create_players(django_user_model, "keeper")
    page = new_context().new_page()
    errors = watch_errors(page)
    sign_in(page, site, "keeper")
    page.goto(site + "/account/")
    for form in ("#password-form", "#close-form"):
        username = page.locator(f'{form} input[autocomplete="username"]')
        expect(username).to_have_value("keeper")

    page.fill("#id_old_password", PASSWORD)
    page.fill("#id_new_password", PASSWORD)
    page.fill("#id_new_password2", PASSWORD)
    page.locator("#password-form button[type=submit]").click()
    expect(page.locator("#new_password-error")).to_have_text(
        "The new password must differ from the current one."
    )

    sent: list[str] = []
    held: list = []

    def hold(route):
        sent.append(route.request.post_data or "")
        held.append(route)

    page.route("**/api/auth/password/", hold)
    page.fill("#id_new_password", "a-fresh-passphrase-9")
    page.fill("#id_new_password2", "a-fresh-passphrase-9")
    page.locator("#password-form button[type=submit]").click()
    expect(page.locator("#password-form button[type=submit]")).to_have_text("Changing…")
    page.press("#id_new_password2", "Enter")
    page.evaluate("() => document.getElementById('password-form').requestSubmit()")
    page.wait_for_timeout(300)  # room for a second request, were one sent
    assert len(sent) == 1
    held[0].continue_()
    expect(page.locator("#form-status")).to_contain_text("Your password has been changed")
    expect(page.locator("#form-error")).to_be_hidden()
    assert len(sent) == 1
    user = django_user_model.objects.get(username="keeper")
    assert user.check_password("a-fresh-passphrase-9")
    release_connection()
    assert errors == []


def test_new_deal_signed_out_deals_at_once_and_signing_in_keeps_the_game(
    site, new_context, django_user_model
):
    create_players(django_user_model, "hopper")
    page = new_context().new_page()
    errors = watch_errors(page)
    page.goto(site + "/")
    page.locator('.new-deal[data-variant="gold-mine"]').click()
    # No sign-in first: the visitor plays as a guest (accounts.guests).
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    expect(page.locator("html")).to_have_attribute("data-guest", "true")
    expect(page.locator("#board")).to_have_attribute("data-move-number", "0")
    game_url = page.url
    game = Game.objects.get(pk=int(game_url.rstrip("/").rsplit("/", 1)[1]))
    assert game.deal.variant == "gold-mine" and game.owner.username.startswith("guest-")
    release_connection()

    # Signing in from the game's page comes back to it, now the account's game.
    page.locator("#sign-in").click()
    page.fill("#id_username", "hopper")
    page.fill("#id_password", PASSWORD)
    page.locator("#signin-form button[type=submit]").click()
    expect(page).to_have_url(game_url)
    expect(page.locator("html")).to_have_attribute("data-user", "hopper")
    assert Game.objects.get(pk=game.pk).owner.username == "hopper"
    release_connection()
    assert errors == []


def test_a_numbered_deal_asked_for_signed_out_is_dealt_at_once_and_kept_on_signing_up(
    site, new_context
):
    page = new_context().new_page()
    page.goto(site + "/")
    page.select_option("#seed-variant", "selective-castle")
    page.fill("#seed-number", "4242")
    page.locator("#seed-form button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    game_url = page.url
    page.locator("#sign-up").click()

    page.fill("#id_username", "lovelace")
    page.fill("#id_password", PASSWORD)
    page.locator("#signup-form button[type=submit]").click()

    expect(page).to_have_url(game_url)
    game = Game.objects.get(owner__username="lovelace")
    assert (game.deal.variant, game.deal.seed, game.seed_chosen) == ("selective-castle", 4242, True)
    release_connection()


def test_sign_in_to_play_a_daily_challenge_comes_back_to_its_board(site, new_context):
    page = new_context().new_page()
    page.goto(site + "/")
    link = page.locator('.daily-item[data-variant="gold-mine"] .standing a')
    expect(link).to_have_text("Sign in to play")
    href = link.get_attribute("href")
    assert href is not None and "next=%2Fdaily%2F" in href and "gold-mine" in href
