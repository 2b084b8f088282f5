"""The daily challenge's leaderboard page follows other players' attempts live; an attempt
open when its day closes says so at once."""

from __future__ import annotations

import datetime as dt
import os
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.frontend.browser_helpers import (
    board_ready,
    call_api,
    create_players,
    expect_move_number,
    open_game,
    release_connection,
    sign_in,
    tap_move,
    wait_for_new_game,
    watch_errors,
)
from tests.frontend.conftest import screenshot
from tests.games.helpers import daily_game
from tests.support.threads import run_in_threads

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_daily_leaderboard_shows_another_players_attempt_move_by_move_without_reload(
    site, new_context, django_user_model
):
    create_players(django_user_model, "ada", "bea")
    watcher = new_context().new_page()  # player B
    watcher_errors = watch_errors(watcher)
    sign_in(watcher, site, "bea")
    today = call_api(watcher, "GET", "/api/daily/")["body"]["date"]
    board_url = f"{site}/daily/{today}/gold-mine/"
    watcher.goto(board_url)
    expect(watcher.locator("#live-status")).to_have_attribute("data-state", "live")
    expect(watcher.locator("#leaderboard-empty")).to_be_visible()
    watcher.evaluate("window.stillThisPage = true")  # gone if the page reloads

    player = new_context().new_page()  # player A, another session
    player_errors = watch_errors(player)
    sign_in(player, site, "ada")
    player.goto(board_url)
    player.locator("#start-attempt").click()
    player.locator("#confirm-attempt").click()  # it asks first: one try only
    player.wait_for_url(re.compile(r"/play/\d+/$"))
    board_ready(player)
    expect(player.locator("#badges .badge.ranked")).to_be_visible()
    # The day as the daily pages write it, e.g. "Sunday 22 November 2026".
    day = dt.date.fromisoformat(today).strftime("%A %-d %B %Y")
    expect(player.locator("#badges .badge.daily")).to_have_text(f"Daily · {day}")
    expect(player.locator("#undo")).to_be_hidden()

    row = watcher.locator('#leaderboard tr[data-user="ada"]')
    moves_cell = row.locator("td.num").nth(1)  # rank, moves, time
    expect(row).to_be_visible()
    expect(moves_cell).to_have_text("0")
    expect(row).to_contain_text("in play")
    expect(watcher.locator("#leaderboard-count")).to_have_text("1 ranked attempt")

    tap_move(player, {"type": "deal"})  # Gold Mine opens with a deal: tap the stock
    expect_move_number(player, 1)
    expect(moves_cell).to_have_text("1")

    game_id = int(re.search(r"/play/(\d+)/", player.url).group(1))
    game = call_api(player, "GET", f"/api/games/{game_id}/")["body"]
    move = next(m for m in game["legal_moves"] if m["type"] == "move" and m["count"] == 1)
    tap_move(player, move)
    expect_move_number(player, 2)
    expect(moves_cell).to_have_text("2")

    assert watcher.evaluate("window.stillThisPage") is True
    expect(watcher.locator("#leaderboard tbody tr")).to_have_count(1)
    assert watcher_errors == [] and player_errors == []


def deal_once(game) -> None:
    """Record a deal as the game's first move, through the ORM (the day is over: the service
    would refuse it), with its history entry, as the service writes them."""
    from games.models import Move
    from games.rules import get_variant

    variant = get_variant(game.deal.variant)
    after, events = variant.play(
        variant.state_from_json(game.state), variant.move_from_json({"type": "deal"})
    )
    game.state = variant.state_to_json(after)
    game.move_number, game.board_moves = 1, after.move_number
    game.save(update_fields=["state", "move_number", "board_moves"])
    Move.objects.create(game=game, number=1, payload={"type": "deal"}, events=events)


def test_an_attempt_open_when_its_day_closes_shows_the_day_closed_at_once(site, page):
    """The page of an attempt still in play (of a day that has just ended, so moves are
    already refused) turns into the result as the service closes the attempt."""
    if not os.environ.get("REDIS_URL"):
        pytest.skip("the close is made in this process and reaches the server through Redis")
    from games.daily import day_closer

    yesterday = dt.datetime.now(dt.UTC).date() - dt.timedelta(days=1)
    ada = get_user_model().objects.get(username="ada")
    attempt = daily_game(ada, yesterday, "gold-mine", status="playing")
    deal_once(attempt)  # a move made: closed, it counts (one with none would count nowhere)
    release_connection()
    open_game(page, site, attempt.pk)
    expect(page.locator("#badges")).not_to_contain_text("Day closed")

    # The closer's pass, in a thread of its own as in a server (it closes its connection
    # after): the live update is published after the commit with async_to_sync, which cannot
    # run in this thread (Playwright's event loop is running in it).
    run_in_threads(lambda _index: day_closer.close_days_once(), 1)
    release_connection()
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#result-outcome")).to_have_text("Day closed")
    expect(page.locator("#badges")).to_contain_text("Day closed")
    expect(page.locator("#message")).to_have_text(
        "The day closed at midnight UTC: your attempt stands as it was left."
    )
    expect(page.locator("#resign")).to_be_disabled()

    page.goto(site + "/profile/")
    page.locator('.segmented [data-status="closed"]').click()
    expect(page.locator("#finished .game-row")).to_have_count(1)
    expect(page.locator("#finished .game-row")).to_contain_text("day closed")
    expect(page.locator("#in-progress .game-row")).to_have_count(0)


def test_a_future_days_board_says_when_it_opens_and_a_past_days_that_it_is_final(site, page):
    today = dt.date.fromisoformat(call_api(page, "GET", "/api/daily/")["body"]["date"])
    tomorrow, yesterday = today + dt.timedelta(days=1), today - dt.timedelta(days=1)

    page.goto(f"{site}/daily/{tomorrow}/gold-mine/")
    live = page.locator("#live-status")
    expect(live).to_have_attribute("data-state", "upcoming")  # the websocket has answered
    expect(live).to_have_text("Not started")
    opens = r"^Not started yet: this day's challenge opens at midnight UTC on \w+ \d+ \w+ \d{4}\.$"
    expect(page.locator("#day-notice")).to_have_text(re.compile(opens))
    expect(page.locator("#day-notice time")).to_have_attribute("datetime", f"{tomorrow}T00:00:00Z")
    expect(page.locator("#leaderboard-empty")).to_be_visible()
    expect(page.locator("#start-attempt, #replay-daily")).to_have_count(0)
    expect(page.get_by_text("Live", exact=True)).to_have_count(0)

    page.goto(f"{site}/daily/{yesterday}/gold-mine/")
    expect(live).to_have_attribute("data-state", "final")
    expect(live).to_have_text("Final")
    expect(page.locator("#day-notice")).to_have_text("This day has closed: the ranking is final.")
    expect(page.locator("#replay-daily")).to_be_visible()  # the loaded day agrees: notice kept
    expect(page.locator("#day-notice")).to_have_count(1)

    # A page drawn while its day was open, the day closed since (midnight UTC passed), or
    # drawn before its day came and opened since: the API's answer puts the page right (and
    # whatever the page was drawn with, the API decides). (Chromium keeps a page made up here
    # from opening a websocket to 127.0.0.1: the badge is left out.)
    opens = (
        "Not started yet: this day's challenge opens at midnight UTC on "
        f"{tomorrow:%A} {tomorrow.day} {tomorrow:%B %Y}."
    )
    for drawn, real, words, day in (
        ("open", yesterday, "This day has closed: the ranking is final.", "closed"),
        ("upcoming", today, None, "open"),
        ("open", tomorrow, opens, "upcoming"),
    ):
        url = f"{site}/daily/{real}/gold-mine/"

        def drawn_earlier(route, drawn=drawn):
            response = route.fetch()
            html = re.sub(r'data-day="\w+"', f'data-day="{drawn}"', response.text())
            html = re.sub(r'<p id="day-notice".*?</p>', "", html, flags=re.S)
            if drawn == "upcoming":
                html = html.replace(
                    '<div id="board-actions"',
                    '<p id="day-notice">Not yet</p>\n<div id="board-actions"',
                )
            route.fulfill(response=response, body=html)

        page.route(url, drawn_earlier)
        page.goto(url)
        expect(page.locator("#daily-board")).to_have_attribute("data-day", day)
        if words is None:
            expect(page.locator("#day-notice")).to_have_count(0)
        else:
            expect(page.locator("#day-notice")).to_have_text(words)
            expect(page.locator("#day-notice")).to_have_count(1)
        page.unroute(url)


def test_a_board_whose_socket_the_server_ends_for_good_says_so_instead_of_reconnecting(site, page):
    errors = watch_errors(page)
    opened: list[str] = []

    def flooded(ws) -> None:  # stands in for the server closing a flooding socket (4429)
        opened.append(ws.url)
        ws.close(code=4429, reason="")

    page.route_web_socket(re.compile(r"/ws/leaderboards/daily/"), flooded)
    page.goto(f"{site}/daily/")
    page.locator("a", has_text="Live leaderboard").first.click()
    live = page.locator("#live-status")
    expect(live).to_have_text("Live updates stopped: reload the page.")
    page.wait_for_timeout(3000)  # the usual backoff would have tried twice by now
    expect(live).to_have_text("Live updates stopped: reload the page.")
    assert len(opened) == 1
    assert errors == []


def test_a_games_time_reads_the_same_in_its_result_and_on_its_days_board(
    site, new_context, django_user_model
):
    """11.896 s is "0:11" in the result, as the clock showed it, and on the board too (which
    once rounded it to "0:12")."""
    from django.utils import timezone

    create_players(django_user_model, "ada")
    started = timezone.now() - dt.timedelta(minutes=5)
    attempt = daily_game(
        get_user_model().objects.get(username="ada"),
        timezone.now().date(),
        "gold-mine",
        status="resigned",
        created_at=started,
        last_move_at=started + dt.timedelta(seconds=11.896),  # resigning is the last move
        finished_at=started + dt.timedelta(seconds=11.896),
    )
    page = new_context().new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    open_game(page, site, attempt.pk, live=False)
    expect(page.locator("#result-time")).to_have_text("0:11")
    expect(page.locator("#timer")).to_have_text("0:11")
    page.goto(f"{site}/daily/{attempt.daily.date.isoformat()}/gold-mine/")
    row = page.locator('#leaderboard tr[data-user="ada"]')
    expect(row.locator("td.num").nth(2)).to_have_text("0:11")
    assert errors == []


def test_a_ranked_attempts_result_says_its_rank_and_leads_to_its_days_board(
    site, new_context, django_user_model
):
    from django.utils import timezone

    create_players(django_user_model, "ada", "bea")
    users = get_user_model().objects
    today = timezone.now().date()
    daily_game(users.get(username="bea"), today, "gold-mine", status="won", cards_home=52)
    attempt = daily_game(users.get(username="ada"), today, "gold-mine", status="resigned")
    page = new_context().new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    open_game(page, site, attempt.pk, live=False)
    result = page.locator("dialog#result")
    expect(result.locator("#result-rank")).to_have_text(
        "Rank 2 of 2 on the day's leaderboard so far."
    )
    board = result.locator("#result-board")
    expect(board).to_have_class(re.compile(r"\bprimary\b"))
    expect(result.locator("#result-new")).not_to_have_class(re.compile(r"\bprimary\b"))
    # The day is open: its deal's number stays hidden, and its deal is played again only once
    # the day has closed (the replay would show others the deal they are playing).
    expect(result.locator("#result-seed")).to_be_hidden()
    expect(result.locator("#result-again")).to_be_hidden()
    board.click()
    page.wait_for_url(f"{site}/daily/{today.isoformat()}/gold-mine/")
    expect(page.locator('#leaderboard tr[data-user="ada"]')).to_be_visible()
    assert errors == []


def test_a_ranked_attempt_over_is_played_again_for_fun_once_its_day_has_closed(
    site, new_context, django_user_model
):
    """Not while the day is open: the replay would show the deal others are still playing."""
    import datetime as dt

    from django.utils import timezone

    from games.models import Game

    create_players(django_user_model, "ada")
    today = timezone.now().date()
    ada = get_user_model().objects.get(username="ada")
    todays = daily_game(ada, today, "selective-castle", status="resigned")
    attempt = daily_game(ada, today - dt.timedelta(days=1), "selective-castle", status="resigned")
    page = new_context().new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    open_game(page, site, todays.pk, live=False)
    expect(page.locator("dialog#result #result-new")).to_be_visible()
    expect(page.locator("dialog#result #result-again")).to_be_hidden()
    assert str(todays.deal.seed) not in page.content()  # the day is open: still hidden
    page.goto(f"{site}/daily/{today.isoformat()}/selective-castle/")
    expect(page.locator("#replay-after-day")).to_contain_text("once the day closes")
    expect(page.locator("#replay-daily")).to_have_count(0)

    open_game(page, site, attempt.pk, live=False)
    page.locator("dialog#result #result-again").click()
    again = Game.objects.get(pk=wait_for_new_game(page, attempt.pk))
    same_deal_for_fun = (attempt.daily_id, attempt.deal_id, False)
    assert (again.daily_id, again.deal_id, again.ranked) == same_deal_for_fun
    expect(page.locator("#badges")).to_contain_text("Daily")

    # The attempt's replay offers the same, with its number: the day has closed.
    page.goto(f"{site}/replay/{attempt.pk}/")
    expect(page.locator("#play-deal")).to_be_visible()
    expect(page.locator("#replay-seed")).to_have_text(str(attempt.deal.seed))
    page.locator("#play-deal").click()
    third = Game.objects.get(pk=wait_for_new_game(page, attempt.pk, again.pk))
    assert (third.daily_id, third.deal_id, third.ranked) == same_deal_for_fun
    assert errors == []


def test_a_casual_games_result_offers_a_new_deal_first_and_no_board(
    site, new_context, django_user_model
):
    create_players(django_user_model, "ada")
    page = new_context().new_page()
    sign_in(page, site, "ada")
    game = call_api(page, "POST", "/api/games/", {"variant": "gold-mine"})["body"]
    call_api(page, "POST", f"/api/games/{game['id']}/resign/", {})
    open_game(page, site, game["id"], live=False)
    result = page.locator("dialog#result")
    expect(result).to_be_visible()
    expect(result.locator("#result-board")).to_be_hidden()
    expect(result.locator("#result-rank")).to_be_hidden()
    expect(result.locator("#result-new")).to_have_class(re.compile(r"\bprimary\b"))


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        ("2020-02-30", "A day is a date of the calendar, written YYYY-MM-DD."),
        ("garbage", '"garbage" is not a day: pick one, or write it as YYYY-MM-DD.'),
    ],
)
def test_a_day_the_daily_page_cannot_show_is_said_so_not_shown_as_today(
    site, new_context, asked, said
):
    """?date=2020-02-30 once showed today's name over the API's raw "date: …" refusal, and
    ?date=garbage quietly showed today."""
    page = new_context().new_page()
    errors = watch_errors(page)
    page.goto(f"{site}/daily/?date={asked}")
    expect(page.locator("#daily-message")).to_have_text(said)
    expect(page.locator("#daily-day")).to_have_text("No such day")
    expect(page.locator("#challenges li")).to_have_count(0)
    expect(page.locator("#daily-date")).to_have_value("")
    page.locator("#daily-today").click()
    expect(page.locator("#daily-day")).to_have_text(re.compile(r"^Today, "))
    expect(page.locator("#challenges li")).to_have_count(5)
    expect(page.locator("#daily-message")).to_be_hidden()
    assert [e for e in errors if "400" not in e] == []


def test_a_new_player_sees_every_deal_proven_and_after_the_day_how_it_could_be_won(site, page):
    """Today: each prepared challenge says how hard it is and that it can be won, and nothing
    of its line; after the day: "See how it could be won" steps through the solver's line
    from the deal to the last card home."""
    from games.core import days
    from games.models import DailyChallenge

    today = days.today()
    page.goto(f"{site}/daily/")
    clock = page.locator('li.challenge[data-variant="grandfathers-clock"]')
    expect(clock.locator(".difficulty")).to_have_text(
        re.compile(r"^Difficulty: (easy|medium|hard|expert)$")
    )
    expect(clock.locator(".proven")).to_have_text("proven winnable")
    expect(clock.locator(".solution-link")).to_have_count(0)
    assert "solution" not in page.content()

    yesterday = today - dt.timedelta(days=1)
    challenge = DailyChallenge.objects.get(date=yesterday, variant="grandfathers-clock")
    page.goto(f"{site}/daily/?date={yesterday}")
    link = page.locator('li.challenge[data-variant="grandfathers-clock"] .solution-link')
    expect(link).to_have_text("See how it could be won")
    link.click()
    page.wait_for_url(f"{site}/daily/{yesterday}/grandfathers-clock/solution/")
    length = len(challenge.solution)
    expect(page.locator("#step")).to_have_text(f"Step 0 of {length}")
    page.get_by_role("button", name="Forward").click()
    expect(page.locator("#step")).to_have_text(f"Step 1 of {length}")
    page.get_by_role("button", name="Last").click()
    expect(page.locator("#step")).to_have_text(f"Step {length} of {length}")
    # Every card home: each of the twelve foundations shows its top card, the tableau nothing.
    expect(page.locator('#board .pile[data-pile^="foundation:"] > .card')).to_have_count(12)
    expect(page.locator('#board .pile[data-pile^="tableau:"] > .card')).to_have_count(0)


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)])
def test_a_day_that_had_no_challenge_says_so_on_each_of_its_pages_with_no_dead_controls(
    site, new_context, viewport
):
    width, height = viewport
    page = new_context(viewport={"width": width, "height": height}).new_page()
    errors = watch_errors(page)
    page.goto(site + "/daily/")
    today = dt.date.fromisoformat(call_api(page, "GET", "/api/daily/")["body"]["date"])
    empty_day = today - dt.timedelta(days=40)  # nothing was ever prepared for it

    # The day's page: no promise of deals it does not have.
    page.goto(f"{site}/daily/?date={empty_day}")
    expect(page.locator("#daily-countdown")).to_have_text(
        "There were no daily challenges on this day: nothing was played or ranked."
    )
    expect(page.get_by_text("its deals are shown")).to_have_count(0)
    expect(page.get_by_text("There was no Gold Mine challenge on this day.")).to_be_visible()
    screenshot(page, f"daily-no-challenge-day-{width}x{height}")

    # Its board: the notice says it, and no empty ranking, badge or count under it.
    page.goto(f"{site}/daily/{empty_day}/gold-mine/")
    notice = page.locator("#day-notice")
    expect(notice).to_have_text(
        "There was no Gold Mine challenge on this day: nothing was played, and there is no ranking."
    )
    for gone in ("#live-status", "#leaderboard", "#leaderboard-empty", "#leaderboard-count"):
        expect(page.locator(gone)).to_be_hidden()
    expect(page.locator("#board-actions")).to_be_empty()
    screenshot(page, f"daily-no-challenge-board-{width}x{height}")

    # Its solution page: said plainly, without the replay's controls or board.
    page.goto(f"{site}/daily/{empty_day}/gold-mine/solution/")
    expect(page.locator("#replay-summary")).to_have_text(
        f"There was no Gold Mine challenge on {empty_day}."
    )
    expect(page.get_by_text("did not prove")).to_have_count(0)
    for gone in ("#play", "#forward", "#scrubber", "#history", "#board", "#replay-keys"):
        expect(page.locator(gone)).to_be_hidden()
    expect(page.locator("#replay-message")).to_be_hidden()
    screenshot(page, f"daily-no-challenge-solution-{width}x{height}")
    assert errors == []
