"""Friends and Share in the browser, at desktop and phone sizes: a player follows another from
the profile page, sees them on the day's friends' board (and not a player they do not follow),
on the Leaderboards page's friends' view of today's boards and in their Friends list, and
Share copies the day's spoiler-free text (the API's, with the day's link)."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect

from accounts.models import Follow
from games.core import days
from tests.frontend.browser_helpers import (
    call_api,
    create_players,
    release_connection,
    sign_in,
    watch_errors,
)
from tests.frontend.conftest import screenshot
from tests.games.helpers import daily_game

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def finished_attempt(user, slug: str, status: str, moves: int, seconds: int, **fields) -> None:
    start = dt.datetime.now(dt.UTC) - dt.timedelta(hours=1)
    end = start + dt.timedelta(seconds=seconds)
    daily_game(
        user, days.today(), slug, status=status, board_moves=moves, created_at=start,
        last_move_at=end, finished_at=end, **fields,
    )  # fmt: skip


@pytest.mark.parametrize("size", SIZES)
def test_follow_from_a_profile_see_the_friends_board_and_share_the_day(
    site, new_context, django_user_model, size
):
    create_players(django_user_model, "ada", "bea", "cyd")
    users = {u.username: u for u in django_user_model.objects.all()}
    finished_attempt(users["bea"], "gold-mine", "won", 90, 200, cards_home=52)
    finished_attempt(users["cyd"], "gold-mine", "won", 80, 150, cards_home=52)
    finished_attempt(users["ada"], "gold-mine", "resigned", 40, 400, cards_home=21)
    release_connection()
    context = new_context(viewport=SIZES[size], permissions=["clipboard-read", "clipboard-write"])
    # The clipboard path of Share (a phone's share sheet cannot be driven from a test).
    context.add_init_script("delete Navigator.prototype.share;")
    page = context.new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    today = call_api(page, "GET", "/api/daily/")["body"]["date"]

    # Follow bea from her profile.
    page.goto(f"{site}/players/bea/")
    follow = page.locator('#player-follow button[data-follow="bea"]')
    expect(follow).to_have_text("Follow")
    follow.click()
    expect(follow).to_have_text("Following")
    expect(follow).to_have_attribute("aria-pressed", "true")
    screenshot(page, f"friends-profile-{size}")
    assert Follow.objects.filter(follower=users["ada"], followed=users["bea"]).exists()
    release_connection()

    # The day's board: everyone, then friends (bea and ada, ranked on the whole board).
    page.goto(f"{site}/daily/{today}/gold-mine/")
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
    expect(page.locator("#leaderboard tbody tr")).to_have_count(3)
    expect(page.locator('#leaderboard tr[data-user="cyd"] button.star')).to_have_attribute(
        "aria-pressed", "false"
    )
    expect(page.locator('#leaderboard tr[data-user="bea"] button.star')).to_have_attribute(
        "aria-pressed", "true"
    )
    page.locator('#board-view [data-view="friends"]').click()
    rows = page.locator("#leaderboard tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_have_attribute("data-user", "bea")
    expect(rows.nth(0).locator("td").first).to_have_text("2")  # cyd, not shown, is 1st
    expect(rows.nth(1)).to_have_attribute("data-user", "ada")
    expect(rows.nth(1).locator("td").first).to_have_text("3")
    screenshot(page, f"friends-board-{size}")

    # Share, on the board once the attempt is over: the API's text, copied.
    page.locator("#board-share .share-button").click()
    expect(page.locator("#board-share .share-status")).to_contain_text("Copied")
    copied = page.evaluate("navigator.clipboard.readText()")
    expected = call_api(page, "GET", f"/api/daily/{today}/share/")["body"]["text"]
    assert copied == expected
    lines = copied.splitlines()
    assert lines[0].startswith("Patience · ")
    assert lines[1] == "\u274c Gold Mine · 40 moves · 6:40 · 3rd of 3 · 21/52 home"
    assert lines[-1] == f"{site}/daily/?date={today}"
    screenshot(page, f"friends-share-{size}")

    # The Leaderboards page: today's boards for friends.
    page.goto(f"{site}/leaderboards/")
    page.locator('#today-view [data-view="friends"]').click()
    gold = page.locator('#today-list li[data-variant="gold-mine"] .friends-board li')
    expect(gold).to_have_count(2)
    expect(gold.nth(0)).to_have_attribute("data-user", "bea")
    screenshot(page, f"friends-leaderboards-{size}")

    # The day's page has Share too, and the Friends list is on the profile page.
    page.goto(f"{site}/daily/?date={today}")
    expect(page.locator("#daily-share .share-button")).to_be_visible()
    page.goto(f"{site}/profile/")
    expect(page.locator('#friends-list li[data-user="bea"]')).to_be_visible()
    screenshot(page, f"friends-list-{size}")
    assert errors == []
