"""The month of dailies on the daily page (its calendar, badge and forgiving streak) and the
profile's charts of progress, at desktop and phone sizes, as a player who came back each day
of a month sees them."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.frontend.browser_helpers import (
    PASSWORD,
    release_connection,
    scroll_width,
    sign_in,
    watch_errors,
)
from tests.frontend.conftest import ARTIFACTS, screenshot
from tests.games.helpers import SLUGS, daily_game

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def challenge(date: dt.date, slug: str) -> None:
    """A past day's challenge, with a seed of staff's choosing (no solver run) unless the site
    prepared it already."""
    from games.models import DailyChallenge, Deal

    if DailyChallenge.objects.filter(date=date, variant=slug).exists():
        return
    deal, _ = Deal.objects.get_or_create(variant=slug, seed=4000 + date.toordinal() % 500)
    DailyChallenge.objects.create(date=date, variant=slug, deal=deal, seed_set_by_staff=True)


def came_back_every_day(user: Any, today: dt.date) -> None:
    """All five of the last month's first 20 days (silver), then one game a day, a day missed
    (28 days before that: two freezes, one spent), then one game a day to yesterday."""
    last_month = (today.replace(day=1) - dt.timedelta(days=1)).replace(day=1)
    day = last_month
    missed = today - dt.timedelta(days=4)
    n = 0
    while day < today:
        full = day < last_month + dt.timedelta(days=20)
        for slug in SLUGS if full else SLUGS[: 1 + n % 2]:
            if day == missed:
                break
            challenge(day, slug)
            n += 1
            won = n % 3 != 0
            start = dt.datetime.combine(day, dt.time(9), tzinfo=dt.UTC)
            taken = dt.timedelta(seconds=120 + (n * 37) % 400)
            daily_game(
                user,
                day,
                slug,
                status="won" if won else "lost",
                board_moves=80 + (n * 13) % 60,
                cards_home=52 if won else 10 + (n * 7) % 30,
                created_at=start,
                last_move_at=start + taken,
                finished_at=start + taken,
            )
        day += dt.timedelta(days=1)
    release_connection()


@pytest.fixture
def player(site: str, new_context: Any, django_user_model: Any) -> Any:
    from games.core import days

    ada = django_user_model.objects.create_user("ada", password=PASSWORD)
    came_back_every_day(ada, days.today())

    def open_page(viewport: dict[str, int]) -> Page:
        page = new_context(viewport=viewport).new_page()
        page.errors = watch_errors(page)
        sign_in(page, site, "ada")
        return page

    return open_page


def test_the_daily_page_shows_the_month_its_badge_and_the_streak_a_freeze_saved(
    site: str, player: Any
) -> None:
    from games.core import days

    today = days.today()
    missed = today - dt.timedelta(days=4)
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = player(viewport)
        page.goto(f"{site}/daily/")
        box = page.locator("#daily-month")
        expect(box).to_be_visible()
        expect(box).to_have_attribute("data-month", today.strftime("%Y-%m"))
        streak = page.locator("#habit-streak")
        saved = f"{missed.day} {missed.strftime('%b')}"
        expect(streak).to_contain_text(f"a freeze saved your streak on {saved}")
        expect(streak).to_contain_text("Streak ")
        open_day = page.locator(f'#month-calendar td[data-date="{today.isoformat()}"]')
        expect(open_day).to_have_class(re.compile("day-open"))
        page.locator("#month-prev").click()
        last = (today.replace(day=1) - dt.timedelta(days=1)).replace(day=1)
        expect(box).to_have_attribute("data-month", last.strftime("%Y-%m"))
        expect(page.locator("#month-badge")).to_have_attribute("data-badge", "silver")
        expect(page.locator("#month-calendar td.all-played")).to_have_count(20)
        if missed.month == last.month:
            frozen = page.locator(f'#month-calendar td[data-date="{missed.isoformat()}"]')
            expect(frozen).to_have_class(re.compile("saved"))
            expect(frozen.locator("[aria-label]")).to_have_attribute(
                "aria-label", re.compile("a freeze saved your streak")
            )
        first = page.locator(f'#month-calendar td[data-date="{last.isoformat()}"] a')
        expect(first).to_have_attribute("aria-label", re.compile("5 of 5 played"))
        assert scroll_width(page) <= viewport["width"]
        screenshot(page, f"daily-month-{name}")
        box.screenshot(path=str(ARTIFACTS / f"daily-month-{name}-calendar.png"))
        # A closed day of the month: shown above, where its deals can be replayed for fun.
        first.click()
        expect(page.locator("#daily")).to_have_attribute("data-date", last.isoformat())
        expect(page.locator(".challenge .replay-daily").first).to_be_visible()
        assert "date=" + last.isoformat() in page.url
        assert page.errors == []


def test_the_header_counts_todays_dailies_and_follows_an_attempt_that_ends(
    site: str, new_context: Any, django_user_model: Any
) -> None:
    from tests.frontend.browser_helpers import board_ready, call_api, make_a_move

    django_user_model.objects.create_user("bea", password=PASSWORD)
    release_connection()
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = new_context(viewport=viewport).new_page()
        errors = watch_errors(page)
        sign_in(page, site, "bea")
        page.goto(f"{site}/")
        header = page.locator("#dailies-today")
        played = 0 if name == "desktop" else 1
        expect(header).to_contain_text(f"{played} of 5")
        expect(page.locator("#lobby-dailies-today")).to_have_text(f"{played} of 5 dailies today")
        screenshot(page, f"header-dailies-{name}")
        header_box = page.locator(".site-header").bounding_box()
        assert header_box and header_box["height"] < (80 if name == "desktop" else 110)
        if name == "desktop":
            today = call_api(page, "GET", "/api/daily/")["body"]["date"]
            started = call_api(page, "POST", f"/api/daily/{today}/gold-mine/attempt/")
            game_id = started["body"]["id"]
            page.goto(f"{site}/play/{game_id}/")
            board_ready(page)
            expect(header).to_contain_text("0 of 5")
            make_a_move(page, game_id)
            # Resigned from elsewhere (another tab): the board hears it, and so does the header.
            call_api(page, "POST", f"/api/games/{game_id}/resign/")
            expect(page.locator("#board")).to_have_attribute("data-status", "resigned")
            expect(header).to_contain_text("1 of 5")
            expect(header).to_have_attribute("data-played", "1")
        assert errors == []


def test_the_profiles_draw_progress_as_charts_with_tables_and_the_months_badge(
    site: str, player: Any
) -> None:
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = player(viewport)
        for path in ("/profile/", "/players/ada/"):
            page.goto(site + path)
            panel = page.locator('#progress-games .progress-game[data-variant="gold-mine"]')
            expect(panel).to_be_visible()
            for chart in ("win-rate", "moves", "time", "losses"):
                figure = panel.locator(f'figure[data-chart="{chart}"]')
                expect(figure).to_be_visible()
                # Each picture is named by a sentence and has its table for a screen reader.
                label = figure.locator("svg[role=img]").get_attribute("aria-labelledby")
                assert page.locator(f"#{label}").text_content()
                assert figure.locator("details table tbody tr").count() >= 1
            week_bars = panel.locator('figure[data-chart="win-rate"] rect.bar')
            assert week_bars.count() >= 4
            days = page.locator('#daily-days figure[data-chart="days"]')
            expect(
                days.locator("rect.day-cell.won-all, rect.day-cell.won-some").first
            ).to_be_attached()
            expect(page.locator('#badges-list li[data-badge="silver"]')).to_have_count(1)
            # Opened, a chart's table reads its figures.
            panel.locator('figure[data-chart="moves"] details summary').click()
            expect(panel.locator('figure[data-chart="moves"] details table')).to_contain_text(
                "Median"
            )
            assert scroll_width(page) <= viewport["width"]
            which = "own" if path == "/profile/" else "public"
            screenshot(page, f"progress-{name}-{which}")
            # The charts up close, to look at (the whole page is long).
            panel.screenshot(path=str(ARTIFACTS / f"progress-{name}-{which}-gold-mine.png"))
            page.locator("#daily-days-section").screenshot(
                path=str(ARTIFACTS / f"progress-{name}-{which}-days.png")
            )
        assert page.errors == []
