"""The other pages in a real browser: a finished game's replay, double-click to a foundation,
dark mode, screen-reader labels on the board, the rules pages, the leaderboards and profile,
changing the password, and the lobby's deal-number field. Deals are chosen by seed and checked
against the rules engine."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from playwright.sync_api import Page, expect

from games.rules import MAX_SEED, VARIANTS
from games.rules.cards import card_name, parse_card
from tests.frontend.browser_helpers import (
    PASSWORD,
    Line,
    assert_the_board_is_one_tab_stop,
    call_api,
    cards,
    create_players,
    expect_move_number,
    focused_pile,
    make_a_move,
    navigate_to,
    open_game,
    pile,
    post_move,
    release_connection,
    sign_in,
    snapshot,
    start_game,
    tab_stops,
    tops,
    wait_for_new_game,
    watch_errors,
)
from tests.games.helpers import daily_game

pytestmark = pytest.mark.django_db(transaction=True)


def play_via_api(page: Page, game_id: int, line: Line, move: dict) -> None:
    """POST a move from the page (checked legal by the engine first) and follow it in ``line``."""
    number = line.state.move_number
    line.play(move)
    post_move(page, game_id, move, number)


def resign_via_api(page: Page, game_id: int) -> dict:
    answer = call_api(page, "POST", f"/api/games/{game_id}/resign/", {})
    assert answer["status"] == 200, answer
    assert answer["body"]["status"] == "resigned", answer
    return answer["body"]


def luminance(css_colour: str) -> float:
    """Relative luminance (0 black … 1 white) of an ``rgb(…)``/``rgba(…)`` computed colour."""
    red, green, blue = (int(x) for x in re.findall(r"\d+", css_colour)[:3])

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)


def test_the_replay_page_steps_through_a_finished_game(site, page):
    line = Line("selective-castle", 1)
    game_id = start_game(page, "selective-castle", 1)
    play_via_api(page, game_id, line, {"type": "move", "from": "tableau:2", "to": "tableau:1",
                                       "count": 1})  # fmt: skip
    play_via_api(page, game_id, line, {"type": "move", "from": "tableau:4", "to": "foundation:0",
                                       "count": 1})  # fmt: skip
    third = next(m for m in line.legal() if m["type"] == "move")
    play_via_api(page, game_id, line, third)
    last = resign_via_api(page, game_id)["move_number"]
    assert last >= 4  # three moves and the resignation

    page.goto(f"{site}/replay/{game_id}/")
    step = page.locator("#step")
    expect(step).to_have_text(f"Step 0 of {last}")
    expect(page.locator("#board .pile[data-pile]").first).to_be_visible()
    expect(page.locator("#first")).to_be_disabled()
    expect(page.locator("#back")).to_be_disabled()
    expect(page.locator("#step-entry")).to_have_text("The deal")
    at_start = snapshot(page)

    page.locator("#forward").click()
    expect(step).to_have_text(f"Step 1 of {last}")
    expect(page.locator("#step-entry")).to_contain_text("Move 1:")
    expect(page.locator("#first")).to_be_enabled()

    page.locator("#last").click()
    expect(step).to_have_text(f"Step {last} of {last}")
    expect(page.locator("#step-entry")).to_contain_text(f"Move {last}: Resigned")
    expect(page.locator("#forward")).to_be_disabled()
    expect(page.locator("#last")).to_be_disabled()
    at_end = snapshot(page)
    assert at_end != at_start  # the cards moved between the deal and the end

    page.locator("#back").click()
    expect(step).to_have_text(f"Step {last - 1} of {last}")
    expect(page.locator("#step-entry")).to_contain_text(f"Move {last - 1}:")

    page.locator("#first").click()
    expect(step).to_have_text(f"Step 0 of {last}")
    expect(page.locator("#step-entry")).to_have_text("The deal")
    assert snapshot(page) == at_start

    # Play advances by itself to the end, then stops.
    page.locator("#play").click()
    expect(page.locator("#play")).to_have_attribute("aria-pressed", "true")
    expect(step).to_have_text(f"Step 1 of {last}")
    expect(step).to_have_text(f"Step {last} of {last}")
    expect(page.locator("#play")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#step-entry")).to_contain_text(f"Move {last}: Resigned")
    assert snapshot(page) == at_end

    # With the history list just opened (its summary has focus), the keys still step.
    page.locator("#history summary").click()
    expect(page.locator("#history-list li")).to_have_count(last)
    page.keyboard.press("Home")
    expect(step).to_have_text(f"Step 0 of {last}")
    page.keyboard.press("ArrowRight")
    expect(step).to_have_text(f"Step 1 of {last}")
    page.keyboard.press(" ")  # Space on the summary closes the list again
    expect(page.locator("#history")).not_to_have_attribute("open", "")


def test_the_replay_summary_counts_one_step_in_the_singular(site, page):
    game_id = start_game(page, "gold-mine", 2)
    resign_via_api(page, game_id)  # the resignation is the one entry
    page.goto(f"{site}/replay/{game_id}/")
    expect(page.locator("#replay-summary")).to_contain_text("resigned · 1 step · started")
    # In the site's day format, whatever the browser's locale ("Nov 22, 2026, 9:56 AM" before).
    moment = r"\d{1,2} [A-Z][a-z]+ \d{4}, \d\d:\d\d"
    expect(page.locator("#replay-summary")).to_have_text(
        re.compile(rf"started {moment}, finished {moment}$")
    )


def test_a_finished_random_deals_replay_names_the_deal_and_plays_it_again(site, page):
    from games.models import Game

    game_id = start_game(page, "gold-mine")
    seed = Game.objects.select_related("deal").get(pk=game_id).deal.seed
    page.goto(f"{site}/replay/{game_id}/")  # in play: the deal's number stays hidden
    expect(page.locator("#step")).to_have_text("Step 0 of 0")
    expect(page.locator("#replay-deal")).to_be_hidden()
    assert str(seed) not in page.content()

    resign_via_api(page, game_id)
    page.reload()
    expect(page.locator("#replay-deal")).to_have_text(
        f"Deal number {seed} Copy link Play this deal"
    )
    # Where the browser will not write to the clipboard, the link is shown to copy by hand.
    page.evaluate(
        "() => { navigator.clipboard.writeText = () => Promise.reject(new Error('denied')); }"
    )
    page.locator("#copy-deal-link").click()
    expect(page.locator("#deal-link")).to_have_text(f"{site}/?deal=gold-mine&seed={seed}")
    page.keyboard.press("ArrowRight")  # the step keys still step beside the button
    expect(page.locator("#step")).to_have_text("Step 1 of 1")
    page.locator("#play-deal").focus()
    page.keyboard.press(" ")  # Space presses the focused button, as anywhere
    again = Game.objects.select_related("deal").get(pk=wait_for_new_game(page, game_id))
    assert (again.deal.variant, again.deal.seed, again.seed_chosen) == ("gold-mine", seed, True)


def test_the_replay_board_is_one_tab_stop_and_the_step_keys_work_around_it(site, page):
    """The replay's board is one Tab stop, as the play page's: Tab enters it once and leaves it
    at the next Tab. On it the arrows, Home and End move between piles (each named with its
    cards) and Page Up/Page Down step, the focused pile keeping the focus; everywhere else the
    arrows, Home and End step, and Space plays or pauses anywhere."""
    errors = watch_errors(page)
    line = Line("selective-castle", 1)
    game_id = start_game(page, "selective-castle", 1)
    for _ in range(3):
        play_via_api(page, game_id, line, next(m for m in line.legal() if m["type"] == "move"))
    last = resign_via_api(page, game_id)["move_number"]
    page.goto(f"{site}/replay/{game_id}/")
    step = page.locator("#step")
    expect(step).to_have_text(f"Step 0 of {last}")
    expect(page.locator("#board .pile[data-pile]")).to_have_count(12)
    assert tab_stops(page) == ["foundation:0"]  # one stop: the first pile, until one is chosen
    expect(page.locator("#replay-keys")).to_contain_text("Page Up and Page Down step")

    # The scrubber is the last control before the board; after it, the history.
    # On the board the arrows, Home and End move between piles and step nothing.
    assert_the_board_is_one_tab_stop(page, page.locator("#scrubber"))
    page.keyboard.press("Tab")
    expect(page.locator("#history summary")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    assert focused_pile(page) == "foundation:0"
    navigate_to(page, "tableau:2")
    page.keyboard.press("ArrowLeft")
    assert focused_pile(page) == "tableau:1"
    expect(step).to_have_text(f"Step 0 of {last}")
    # A screen reader hears the pile and its cards, as on the play page.
    tableau = pile(page, "tableau:1")
    expect(tableau).to_have_attribute("role", "group")
    expect(tableau).to_have_attribute("aria-label", re.compile(r"^Tableau pile 2, \d+ cards?"))
    expect(tableau).to_have_attribute("aria-description", re.compile(r"^Face up: "))

    # Page Down and Page Up step from the board; the focus stays on its pile, the only stop.
    page.keyboard.press("PageDown")
    expect(step).to_have_text(f"Step 1 of {last}")
    expect(page.locator("#board")).to_have_attribute("data-move-number", "1")
    expect(pile(page, "tableau:1")).to_be_focused()
    assert tab_stops(page) == ["tableau:1"]
    page.keyboard.press("PageUp")
    expect(step).to_have_text(f"Step 0 of {last}")
    expect(page.locator("#board")).to_have_attribute("data-move-number", "0")
    expect(pile(page, "tableau:1")).to_be_focused()
    page.keyboard.press(" ")  # Space plays, on the board too, and pauses again
    expect(page.locator("#play")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press(" ")
    expect(page.locator("#play")).to_have_attribute("aria-pressed", "false")
    expect(pile(page, "tableau:1")).to_be_focused()

    # Off the board, the step keys step; Tab comes back to the pile last focused.
    page.locator("#scrubber").focus()
    page.keyboard.press("Tab")
    assert focused_pile(page) == "tableau:1"
    page.keyboard.press("Tab")
    page.keyboard.press("End")
    expect(step).to_have_text(f"Step {last} of {last}")
    page.keyboard.press("Home")
    expect(step).to_have_text(f"Step 0 of {last}")
    page.keyboard.press("ArrowRight")
    expect(step).to_have_text(f"Step 1 of {last}")
    page.keyboard.press("ArrowLeft")
    expect(step).to_have_text(f"Step 0 of {last}")

    # A click on the cards takes no focus: the arrows still step afterwards.
    cards(page, "tableau:4").last.click()
    assert focused_pile(page) is None
    page.keyboard.press("ArrowRight")
    expect(step).to_have_text(f"Step 1 of {last}")
    assert errors == []


def test_double_clicking_a_card_sends_it_to_a_foundation(site, page):
    line = Line("grandfathers-clock", 1)
    # The first tableau card with a legal move to a foundation (the page sends the first such
    # move of the double-clicked pile's top card).
    move = next(
        m
        for m in line.legal()
        if m["type"] == "move"
        and m["from"].startswith("tableau:")
        and m["to"].startswith("foundation:")
        and m["count"] == 1
    )
    moved = line.top(move["from"])
    open_game(page, site, start_game(page, "grandfathers-clock", 1))
    expect_move_number(page, 0)

    cards(page, move["from"]).last.dblclick()
    line.play(move)
    expect_move_number(page, 1)
    expect(cards(page, move["to"]).last).to_have_attribute("data-card", moved)
    expect(page.locator("#message")).not_to_have_attribute("data-kind", "error")
    expect(page.locator("#board .selected")).to_have_count(0)
    assert tops(page) == line.tops()


def test_dark_mode_follows_the_system_colour_scheme(site, new_context):
    colours = {}
    for scheme in ("light", "dark"):
        page = new_context(color_scheme=scheme).new_page()
        errors = watch_errors(page)
        page.goto(site + "/rules/gold-mine/")
        expect(page.locator("#rules")).to_be_visible()
        colours[scheme] = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert errors == []
    assert colours["dark"] != colours["light"], colours
    assert luminance(colours["dark"]) < 0.1, colours
    assert luminance(colours["light"]) > 0.5, colours


def test_cards_and_piles_are_labelled_for_screen_readers(site, page):
    line = Line("grounds-for-divorce", 1)
    open_game(page, site, start_game(page, "grounds-for-divorce", 1))
    view = line.view()["piles"]

    tableau = pile(page, "tableau:0")
    expect(tableau).to_have_attribute(
        "aria-label", re.compile(r"^Tableau pile \d+, \d+ cards?, \d+ face down$")
    )
    count = len(view["tableau:0"]["cards"])
    down = view["tableau:0"]["face_down"]
    expect(tableau).to_have_attribute(
        "aria-label", f"Tableau pile 1, {count} card{'s' if count != 1 else ''}, {down} face down"
    )

    # Every face-up card is named as the engine names it, Two to Ten in words too ("Ten of
    # diamonds", not "10 of diamonds"), while its face shows the short rank ("10").
    pile_id, code = next(
        (pile_id, entry["cards"][-1])
        for pile_id, entry in view.items()
        if pile_id.startswith("tableau:") and entry["cards"] and entry["cards"][-1]
    )
    face_up = cards(page, pile_id).last
    expect(face_up).to_have_attribute("data-card", code)
    expect(face_up).to_have_attribute("role", "img")
    shown = page.evaluate(
        """() => [...document.querySelectorAll("#board .card.face-up")].map((card) => [
             card.dataset.card,
             card.getAttribute("aria-label"),
             card.querySelector(".rank").textContent,
           ])"""
    )
    assert {code[0] for code, _, _ in shown} & set("23456789T"), shown  # numbers are named too
    for code, label, rank in shown:
        assert label == card_name(parse_card(code)), (code, label)
        assert rank == ("10" if code[0] == "T" else code[0]), (code, rank)
    tableau_top = view["tableau:0"]["cards"][-1]
    expect(pile(page, "tableau:0")).to_have_attribute(
        "aria-description", f"Face up: {card_name(parse_card(tableau_top))}"
    )

    face_down = page.locator("#board .card.face-down")
    assert face_down.count() > 0
    expect(face_down.first).to_have_attribute("aria-label", "Face-down card")
    assert page.locator("#board .card.face-down[data-card]").count() == 0
    assert page.locator("#board .card.face-down:not([aria-label='Face-down card'])").count() == 0


def test_an_empty_foundation_says_in_words_what_starts_it(site, page):
    open_game(page, site, start_game(page, "gold-mine", 1))
    expect(pile(page, "foundation:0")).to_have_attribute("data-hint", "A")
    expect(pile(page, "foundation:0")).to_have_attribute(
        "aria-description", "Takes an Ace to start"
    )

    line = Line("blondes-and-brunettes", 1)
    open_game(page, site, start_game(page, "blondes-and-brunettes", 1))
    base = line.view()["base_rank"]
    empty = next(
        p for p, e in line.view()["piles"].items() if p.startswith("foundation:") and not e["cards"]
    )
    name = card_name(parse_card(base + "S")).split(" of ")[0]
    article = "an" if name[0] in "AE" else "a"
    expect(pile(page, empty)).to_have_attribute("data-hint", "10" if base == "T" else base)
    expect(pile(page, empty)).to_have_attribute(
        "aria-description", f"Takes {article} {name} to start"
    )


def test_the_rules_page_of_each_game_names_it_and_links_its_document_and_play(site, page):
    for slug, variant in VARIANTS.items():
        page.goto(f"{site}/rules/{slug}/")
        rules = page.locator("article#rules")
        expect(rules).to_have_attribute("data-variant", slug)
        expect(page.locator("#rules-title")).to_have_text(variant.name)
        expect(rules.locator(f'a[href="/rules/{slug}.txt"]')).to_have_count(1)
        play = page.locator("#play-link")
        expect(play).to_be_visible()
        expect(play).to_have_text(f"Play {variant.name}")
        response = page.request.get(f"{site}/rules/{slug}.txt")
        assert response.ok, slug

    # "Play" starts a game of it at once for a signed-in player.
    page.locator("#play-link").click()
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    expect(page.locator("#board")).to_have_attribute("data-variant", slug)


def test_the_leaderboards_and_profile_pages_render_their_tables(site, page):
    page.goto(site + "/leaderboards/")
    table = page.locator("table#alltime-leaderboard")
    expect(table).to_be_visible()
    expect(table.locator("thead th")).to_have_count(6)
    expect(page.locator("#min-games")).to_contain_text("Players appear once")
    first, second = list(VARIANTS)[:2]
    expect(page.locator(f"#tab-{first}")).to_have_attribute("aria-selected", "true")
    page.locator(f"#tab-{second}").click()
    expect(page.locator(f"#tab-{second}")).to_have_attribute("aria-selected", "true")
    expect(page.locator(f"#tab-{first}")).to_have_attribute("aria-selected", "false")
    expect(page).to_have_url(re.compile(rf"\?game={second}$"))

    game_id = start_game(page, "selective-castle", 1)
    make_a_move(page, game_id)  # an untouched game counts as neither played nor lost
    resign_via_api(page, game_id)

    page.goto(site + "/profile/")
    row = page.locator('#stats-table tr[data-variant="selective-castle"]')
    expect(row).to_be_visible()
    expect(row.locator('td[data-label="Played"]')).to_have_text("1")
    expect(page.locator("#daily-streaks-table tr[data-variant]").first).to_have_attribute(
        "data-variant", "overall"
    )
    page.locator('.segmented [data-status="resigned"]').click()
    expect(page.locator('.segmented [data-status="resigned"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    item = page.locator(f'#finished li[data-game-id="{game_id}"]')
    expect(item).to_have_attribute("data-status", "resigned")
    link = item.locator(f'a[href="/replay/{game_id}/"]')
    expect(link).to_be_visible()
    link.click()
    page.wait_for_url(f"{site}/replay/{game_id}/")
    expect(page.locator("#step")).to_have_text(re.compile(r"^Step 0 of \d+$"))


def test_the_profiles_finished_games_start_on_all_of_them(site, page):
    """A new player whose one finished game is resigned sees it at once (the "All" tab is
    the default), and each outcome's tab narrows the list."""
    resigned = start_game(page, "gold-mine", 3)
    make_a_move(page, resigned)  # an untouched game is in no list
    resign_via_api(page, resigned)
    in_play = start_game(page, "gold-mine", 4)  # in play: never among the finished games
    make_a_move(page, in_play)

    page.goto(site + "/profile/")
    tabs = page.locator(".segmented [data-status]")
    expect(tabs).to_have_text(["All", "Won", "No moves left", "Resigned", "Day closed"])
    expect(page.locator('.segmented [data-status="finished"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(page.locator("#finished .game-row")).to_have_count(1)
    expect(page.locator(f'#finished li[data-game-id="{resigned}"]')).to_have_attribute(
        "data-status", "resigned"
    )
    expect(page.locator("#finished-empty")).to_be_hidden()

    page.locator('.segmented [data-status="won"]').click()
    expect(page.locator("#finished-empty")).to_be_visible()
    expect(page.locator("#finished .game-row")).to_have_count(0)
    page.locator('.segmented [data-status="finished"]').click()
    expect(page.locator("#finished .game-row")).to_have_count(1)
    expect(page.locator("#finished-empty")).to_be_hidden()


def test_a_game_in_play_reads_alike_in_the_lobby_and_the_profile_in_any_browser_language(
    site, new_context, django_user_model
):
    """Both say "Resume" and how long ago it was played, in the site's English (a French
    browser once got "il y a 2 minutes" in the lobby); the profile said "Continue" with a
    date. A game never played is in neither: it is not in progress."""
    create_players(django_user_model, "ada")
    page = new_context(locale="fr-FR").new_page()
    sign_in(page, site, "ada")
    played = start_game(page, "gold-mine", 3)
    call_api(page, "POST", f"/api/games/{played}/moves/", {"move": {"type": "deal"}})
    untouched = start_game(page, "gold-mine", 4)
    rows = {
        "/": lambda game_id: page.locator(f'#saved-games li[data-game-id="{game_id}"]'),
        "/profile/": lambda game_id: page.locator(f'#in-progress li[data-game-id="{game_id}"]'),
    }
    for path, row in rows.items():
        page.goto(site + path)
        expect(row(played)).to_contain_text(re.compile(r"last played (now|\d+ seconds? ago)"))
        expect(row(untouched)).to_have_count(0)
        expect(row(played).locator("time")).to_have_attribute(
            "title", re.compile(r"\d{4}, \d\d:\d\d$")
        )
        expect(row(played).get_by_role("link")).to_have_text("Resume")


def test_a_name_on_the_leaderboards_leads_to_the_players_public_profile(
    site, page, new_context, django_user_model
):
    # Four earlier days' ranked attempts and today's, resigned: five finished games, enough
    # for the all-time board too (LEADERBOARD_MIN_GAMES).
    ada = django_user_model.objects.get(username="ada")
    ada.email = "ada@example.org"
    ada.save(update_fields=["email"])
    today = dt.date.fromisoformat(call_api(page, "GET", "/api/daily/")["body"]["date"])
    for days_ago in range(1, 5):
        daily_game(ada, today - dt.timedelta(days=days_ago), "gold-mine", status="lost")
    release_connection()
    attempt = call_api(page, "POST", f"/api/daily/{today}/gold-mine/attempt/")
    assert attempt["status"] == 201, attempt
    make_a_move(page, attempt["body"]["id"])  # an attempt with no move is on no board
    resign_via_api(page, attempt["body"]["id"])

    board_url = f"{site}/daily/{today}/gold-mine/"
    page.goto(board_url)
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
    ada_row = page.locator('#leaderboard tr[data-user="ada"]')
    expect(ada_row.locator('th a[href="/players/ada/"]')).to_have_text("ada")

    # Another player's attempt arrives over the websocket: the redrawn rows keep their links.
    create_players(django_user_model, "bea")
    other = new_context().new_page()
    sign_in(other, site, "bea")
    assert call_api(other, "POST", f"/api/daily/{today}/gold-mine/attempt/")["status"] == 201
    expect(page.locator("#leaderboard-count")).to_have_text("2 ranked attempts")
    expect(page.locator('#leaderboard tr[data-user="bea"] th a')).to_have_attribute(
        "href", "/players/bea/"
    )
    rank = ada_row.locator("td.num").first.inner_text()

    ada_row.locator("th a").click()
    page.wait_for_url(f"{site}/players/ada/")
    expect(page.locator("#player-title")).to_have_text("ada")
    result = page.locator(f'#recent-results tr[data-date="{today}"][data-variant="gold-mine"]')
    expect(result).to_have_attribute("data-status", "resigned")
    expect(result.locator("td.num").first).to_have_text(rank)
    expect(result).to_contain_text("Gold Mine")
    expect(result.locator("time")).to_have_text(re.compile(r"^\d{1,2} [A-Z][a-z]{2,3} \d{4}$"))
    expect(page.locator("#recent-results tbody tr")).to_have_count(5)
    played = page.locator(
        '#player-daily-table tr[data-variant="gold-mine"] td[data-label="Played"]'
    )
    expect(played).to_have_text("5")
    expect(page.locator('#player-streaks-table tr[data-variant="overall"]')).to_be_visible()
    assert "ada@example.org" not in page.content()

    result.locator("a.board-link").click()
    page.wait_for_url(board_url)
    page.goto(f"{site}/leaderboards/?game=gold-mine")
    link = page.locator('#alltime-leaderboard tr[data-user="ada"] th a')
    expect(link).to_have_attribute("href", "/players/ada/")


def test_a_page_after_the_last_one_shows_the_last_one_instead(site, page):
    """An old link to a leaderboard page, or a list of games that shrank since it was drawn:
    the API answers 404 with the last page's number, and the page shows that one."""
    page.goto(f"{site}/leaderboards/?game=gold-mine&page=999")
    expect(page).to_have_url(re.compile(r"/leaderboards/\?game=gold-mine$"))
    expect(page.locator("#leaderboard-panel")).not_to_have_attribute("aria-busy", "true")
    expect(page.locator("#leaderboard-empty")).to_be_visible()
    expect(page.locator("#leaderboard-message")).to_be_hidden()
    expect(page.locator("#prev-page")).to_be_hidden()

    ids = [start_game(page, "selective-castle", seed) for seed in range(21)]
    for game_id in ids:
        make_a_move(page, game_id)  # in progress: a game with no move is in no list
    page.goto(site + "/profile/")
    expect(page.locator("#in-progress-page")).to_have_text("Page 1 of 2")
    for game_id in ids[:2]:  # in another tab, say: 19 games in progress, one page
        resign_via_api(page, game_id)
    page.locator("#in-progress-next").click()
    expect(page.locator("#in-progress li[data-game-id]")).to_have_count(19)
    expect(page.locator("#in-progress-page")).to_have_text("")
    expect(page.locator("#in-progress-next")).to_be_hidden()
    expect(page.locator("#profile-message")).to_be_hidden()


def test_changing_the_password_shows_a_wrong_old_password_then_succeeds(
    site, page, django_user_model
):
    new_password = "another-horse-battery-staple"
    page.goto(site + "/account/")
    expect(page.locator("#account-username")).to_have_text("ada")

    def change_password(old: str) -> None:
        page.fill("#id_old_password", old)
        page.fill("#id_new_password", new_password)
        page.fill("#id_new_password2", new_password)
        page.locator("#password-form button[type=submit]").click()

    change_password("not-the-password")
    error = page.locator("#old_password-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("old password was entered incorrectly")
    expect(page.locator("#id_old_password")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#form-status")).to_be_hidden()
    assert django_user_model.objects.get(username="ada").check_password(PASSWORD)
    release_connection()

    change_password(PASSWORD)
    status = page.locator("#form-status")
    expect(status).to_be_visible()
    expect(status).to_contain_text("Your password has been changed")
    expect(error).to_be_hidden()
    expect(page.locator("#id_old_password")).not_to_have_attribute("aria-invalid", "true")
    assert django_user_model.objects.get(username="ada").check_password(new_password)
    release_connection()

    # This session is kept: still signed in after a reload.
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-user", "ada")


# How much wider than its room the field's text is: the value, and the placeholder when empty.
_OVERFLOW = """
(field) => {
  const style = getComputedStyle(field);
  const context = document.createElement("canvas").getContext("2d");
  context.font = style.font;
  const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const text = field.value || field.placeholder;
  return Math.max(0, context.measureText(text).width - room, field.scrollWidth - field.clientWidth);
}
"""


def test_the_deal_number_field_gives_the_range_and_shows_16_digits_in_full(site, new_context):
    for width, height in ((1280, 900), (390, 844), (360, 740)):
        page = new_context(viewport={"width": width, "height": height}).new_page()
        page.goto(site + "/")
        field = page.locator("#seed-number")
        example = re.fullmatch(r"e\.g\. (\d{16})", field.get_attribute("placeholder"))
        assert example and int(example[1]) <= MAX_SEED, field.get_attribute("placeholder")
        expect(page.locator("#seed-hint")).to_contain_text(f"from 0 to {MAX_SEED}")
        assert field.evaluate(_OVERFLOW) == 0, f"the placeholder is cut off at {width} px"
        field.fill(str(MAX_SEED))
        assert field.evaluate(_OVERFLOW) == 0, f"a 16-digit deal number is cut off at {width} px"


def test_the_page_and_the_server_refuse_a_deal_number_in_the_same_words(site, page):
    page.goto(site + "/")
    field, error = page.locator("#seed-number"), page.locator("#seed-error")
    submit = page.locator("#seed-form button[type=submit]")
    field.fill("12a")  # refused by the page
    submit.click()
    expect(error).to_have_text(f"A deal number is a whole number from 0 to {MAX_SEED}.")
    field.fill("")
    submit.click()
    expect(error).to_have_text("Enter a deal number.")
    field.fill(str(MAX_SEED + 1))  # refused by the server
    submit.click()
    expect(error).to_have_text(f"A deal number is a whole number from 0 to {MAX_SEED}.")
