"""The table on a phone (issue 46, "phone-first table"): at 390 x 844 and 360 x 740, held upright
and by touch, in every game, at the deal and after 30 moves, the felt takes 80 % of the window's
height at least, the page never scrolls, the cards stay 44 px wide at least, and the counters
and the actions are one tap away: a compact bar on top (the game's name, the counts, the clock,
the live dot and a ☰ menu for the rest) and an action bar at the bottom (Hint, Undo, Finish).
A desktop window (1280 x 800) keeps its layout: no menu button, its actions in the bar."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from games.rules import get_variant, move_from_json
from tests.frontend.browser_helpers import (
    call_api,
    create_players,
    expect_move_number,
    make_a_move,
    open_game,
    release_connection,
    sign_in,
    start_game,
    watch_errors,
)
from tests.frontend.conftest import screenshot
from tests.frontend.test_browser_phone import SLUGS

pytestmark = pytest.mark.django_db(transaction=True)

PHONES = [(390, 844), (360, 740)]
DESKTOP = (1280, 800)
TOUCH = 44  # px: a comfortable touch target
FELT_SHARE = 0.8
MOVES = 30

# Where the felt and its cards lie, and whether the page scrolls.
_MEASURE = """
() => {
  const board = document.querySelector("#board");
  const felt = board.getBoundingClientRect();
  const cards = [...board.querySelectorAll(".card")].map((c) => c.getBoundingClientRect());
  const scroller = document.scrollingElement;
  return {
    feltTop: felt.top, feltBottom: felt.bottom, feltHeight: felt.height,
    cardWidth: Math.min(...cards.map((c) => c.width)),
    cardsBottom: Math.max(...cards.map((c) => c.bottom)),
    scrollHeight: scroller.scrollHeight, scrollWidth: scroller.scrollWidth,
    innerHeight: window.innerHeight, innerWidth: window.innerWidth,
  };
}
"""


def measure(page: Page) -> dict[str, Any]:
    found = page.evaluate(_MEASURE)
    found["share"] = round(found["feltHeight"] / found["innerHeight"], 3)
    return found


def phone_problems(found: dict[str, Any]) -> list[str]:
    wrong = []
    if found["share"] < FELT_SHARE:
        wrong.append(f"the felt is {found['share']:.0%} of the height")
    if found["scrollHeight"] > found["innerHeight"] or found["scrollWidth"] > found["innerWidth"]:
        wrong.append(f"the page scrolls: {found['scrollWidth']}x{found['scrollHeight']}")
    if found["cardWidth"] < TOUCH:
        wrong.append(f"cards {found['cardWidth']:.1f} px wide")
    if found["cardsBottom"] > min(found["feltBottom"], found["innerHeight"]) + 0.5:
        wrong.append(f"cards reach {found['cardsBottom']:.0f} px, below the felt or the window")
    return wrong


def play_moves(page: Page, game_id: int, count: int, seed: int) -> int:
    """Up to ``count`` legal moves (the API's list), chosen at random among those that keep the
    game in play, each through the API from the page and drawn by the page from the game's
    websocket; returns the version reached. Stops early at a dead end."""
    chooser = random.Random(seed)
    game = Game.objects.select_related("deal").get(pk=game_id)
    release_connection()
    variant = get_variant(game.deal.variant)
    for _ in range(count):
        shown = call_api(page, "GET", f"/api/games/{game_id}/")["body"]
        state = variant.state_from_json(Game.objects.get(pk=game_id).state)
        release_connection()
        moves = list(shown["legal_moves"])
        chooser.shuffle(moves)
        # Moves that add to the table first: the fans grow, as they do in a real game.
        moves.sort(key=lambda m: m["type"] != "deal" and str(m.get("to", "")).startswith("found"))
        keeping = [
            m for m in moves if variant.status(variant.apply(state, move_from_json(m))) == "playing"
        ]
        if not keeping:
            break
        answer = call_api(
            page,
            "POST",
            f"/api/games/{game_id}/moves/",
            {"move": keeping[0], "expected_move_number": shown["move_number"]},
        )
        assert answer["status"] == 201, answer
        expect_move_number(page, answer["body"]["move_number"])
    return int(page.locator("#board").get_attribute("data-move-number"))


def test_on_a_phone_the_felt_fills_the_screen_at_the_deal_and_after_thirty_moves(
    site, new_context, django_user_model
):
    create_players(django_user_model, "ada")
    shares: dict[str, float] = {}
    problems: dict[str, list[str]] = {}
    for width, height in PHONES:
        page = new_context(viewport={"width": width, "height": height}, has_touch=True).new_page()
        errors = watch_errors(page)
        sign_in(page, site, "ada")
        for slug in SLUGS:
            game_id = start_game(page, slug, 7)
            open_game(page, site, game_id)
            found = measure(page)
            shares[f"{slug} {width}x{height} deal"] = found["share"]
            screenshot(page, f"phone-table-{slug}-{width}x{height}-deal")
            if wrong := phone_problems(found):
                problems[f"{slug} {width}x{height} deal"] = wrong
            play_moves(page, game_id, MOVES, seed=width)
            found = measure(page)
            shares[f"{slug} {width}x{height} mid"] = found["share"]
            screenshot(page, f"phone-table-{slug}-{width}x{height}-mid")
            if wrong := phone_problems(found):
                problems[f"{slug} {width}x{height} mid"] = wrong
        assert errors == []
    print(shares)
    assert problems == {}, (problems, shares)


# The bars: where the top bar's parts, the action bar and its shown buttons lie.
_BARS = """
() => {
  const box = (node) => node.getBoundingClientRect().toJSON();
  const shown = (node) =>
    node.offsetParent !== null && getComputedStyle(node).visibility !== "hidden";
  const menu = document.querySelector("#menu-button");
  const actions = document.querySelector(".play-actions");
  return {
    title: box(document.querySelector("#game-title")),
    moves: box(document.querySelector("#move-count")),
    timer: box(document.querySelector("#timer")),
    live: box(document.querySelector("#live")),
    menuButton: shown(menu) ? box(menu) : null,
    board: box(document.querySelector("#board")),
    bar: box(actions),
    buttons: [...actions.querySelectorAll(":scope > .button")].filter(shown)
      .map((b) => [b.id, box(b)]),
  };
}
"""


@pytest.mark.parametrize("size", PHONES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_on_a_phone_the_counts_are_on_top_and_the_actions_in_a_bar_at_the_bottom(
    site, new_context, django_user_model, size
):
    width, height = size
    create_players(django_user_model, "ada")
    page = new_context(viewport={"width": width, "height": height}, has_touch=True).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    game_id = start_game(page, "blondes-and-brunettes", 3)
    open_game(page, site, game_id)
    expect(page.locator(".site-header")).to_be_hidden()  # its links are in the menu
    found = page.evaluate(_BARS)
    # One bar on top: the name, the counts, the clock, the live dot and ☰, above the felt.
    for part in ("title", "moves", "timer", "live", "menuButton"):
        assert found[part]["bottom"] <= found["board"]["top"] + 0.5, (part, found)
    assert found["menuButton"]["right"] <= width and found["menuButton"]["width"] >= TOUCH
    # The actions of every move at the bottom, in one row, each a finger's target.
    assert [name for name, _ in found["buttons"]][:2] == ["hint", "undo"], found["buttons"]
    assert found["bar"]["top"] >= found["board"]["bottom"] - 0.5
    assert found["bar"]["bottom"] <= height + 0.5
    assert len({round(b["top"]) for _, b in found["buttons"]}) == 1, found["buttons"]
    assert all(b["height"] >= TOUCH and b["width"] >= TOUCH for _, b in found["buttons"])
    # The bar's buttons work: a hint is shown as a toast over the felt; Undo takes a move back.
    page.locator("#hint").click()
    message = page.locator("#message")
    expect(message).to_have_text(re.compile(r"^Hint: "))
    toast = message.bounding_box()
    assert toast["y"] >= found["board"]["top"] - 0.5
    assert toast["y"] + toast["height"] <= found["bar"]["top"] + 0.5
    expect(page.locator("#board")).to_have_attribute("data-move-number", "0")
    play_moves(page, game_id, 1, seed=1)
    page.locator("#undo").click()
    expect(message).to_have_text("Move taken back.")
    expect(page.locator("#move-count")).to_have_text("0")
    assert page.evaluate(_BARS)["board"] == found["board"]  # nothing moved the felt
    screenshot(page, f"phone-table-bars-{width}x{height}")
    assert errors == []


def test_the_menu_holds_the_rest_and_its_items_work(site, new_context, django_user_model):
    create_players(django_user_model, "ada")
    page = new_context(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    game_id = start_game(page, "gold-mine", 3)
    open_game(page, site, game_id)
    menu = page.locator("#play-menu")
    button = page.locator("#menu-button")
    expect(menu).to_be_hidden()
    expect(button).to_have_attribute("aria-expanded", "false")

    button.click()
    expect(menu).to_be_visible()
    expect(button).to_have_attribute("aria-expanded", "true")
    items = [t.strip() for t in menu.locator(":scope > .button:visible").all_inner_texts()]
    # The game's own items, then the site's header links (the phone's play page has no header).
    assert items == [
        "Resign",
        "New game",
        "Rules",
        "⚙︎ Settings",
        "Copy link to this game",
        "Lobby",
        "Daily",
        "Leaderboards",
        "Profile (ada)",
    ]
    for item in menu.locator(":scope > .button:visible").all():
        assert item.bounding_box()["height"] >= TOUCH
    screenshot(page, "phone-table-menu-390x844")
    # Escape closes it, and the focus goes back to its button; a press elsewhere closes it too.
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    expect(button).to_be_focused()
    button.click()
    page.mouse.click(20, 400)  # the felt, left of the menu (which lies on the right)
    expect(menu).to_be_hidden()

    # Settings: the dialog opens, and the menu has gone.
    button.click()
    menu.locator("#menu-settings").click()
    expect(page.locator("#settings-dialog")).to_be_visible()
    expect(menu).to_be_hidden()
    page.locator("#settings-close").click()
    # Rules: the game's rules, in a tab of their own.
    button.click()
    with page.context.expect_page() as rules:
        menu.locator("#rules-link").click()
    rules.value.wait_for_load_state()
    assert rules.value.url.endswith("/rules/gold-mine/")
    rules.value.close()
    # Resign asks first; kept playing, the game goes on.
    button.click()
    menu.locator("#resign").click()
    expect(page.locator("#resign-dialog")).to_be_visible()
    page.locator("#resign-dialog button[value=cancel]").click()
    expect(page.locator("#board")).to_have_attribute("data-status", "playing")
    # New game: no move was made, so a new deal at once.
    button.click()
    menu.locator("#new-game").click()
    page.wait_for_url(re.compile(rf"/play/(?!{game_id}/)\d+/$"))
    expect(page.locator("#board .pile[data-pile]").first).to_be_visible()
    # The lobby.
    page.locator("#menu-button").click()
    page.locator("#menu-lobby").click()
    page.wait_for_url(re.compile(r"/$"))
    assert errors == []


def test_a_desktop_keeps_its_bar_with_no_menu_button(site, new_context, django_user_model):
    create_players(django_user_model, "ada")
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    for slug in SLUGS:
        game_id = start_game(page, slug, 7)
        open_game(page, site, game_id)
        expect(page.locator(".site-header")).to_be_visible()
        expect(page.locator("#menu-button")).to_be_hidden()
        expect(page.locator("#menu-lobby")).to_be_hidden()
        found = page.evaluate(_BARS)
        names = [name for name, _ in found["buttons"]]
        assert names[:2] == ["hint", "undo"], names
        # The bar's buttons, the menu's among them, in one row above the felt, as before.
        bar = page.locator(".play-actions .button:visible")
        tops = {round(b.bounding_box()["y"]) for b in bar.all()}
        assert len(tops) == 1, tops
        assert found["bar"]["bottom"] <= found["board"]["top"]
        for button in ("#resign", "#new-game", "#rules-link"):
            expect(page.locator(f".play-actions {button}")).to_be_visible()
        assert measure(page)["cardsBottom"] <= 800
        screenshot(page, f"phone-table-{slug}-1280x800-deal")
    assert errors == []


def test_a_dead_end_on_a_phone_offers_undo_and_end_game_in_the_bottom_bar(
    site, new_context, django_user_model
):
    from tests.frontend.test_browser_play import one_move_dead_end

    create_players(django_user_model, "ada")
    page = new_context(viewport={"width": 360, "height": 740}, has_touch=True).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    seed, losing = one_move_dead_end("grandfathers-clock")
    game_id = start_game(page, "grandfathers-clock", seed)
    open_game(page, site, game_id)
    answer = call_api(
        page, "POST", f"/api/games/{game_id}/moves/", {"move": losing, "expected_move_number": 0}
    )
    assert answer["status"] == 201, answer
    expect_move_number(page, 1)
    bar = page.locator(".play-actions")
    expect(bar.locator("#end-game")).to_be_visible()
    expect(bar.locator("#undo")).to_be_enabled()
    found = page.evaluate(_BARS)
    assert [name for name, _ in found["buttons"]] == ["hint", "undo", "end-game"], found
    assert len({round(b["top"]) for _, b in found["buttons"]}) == 1
    assert not phone_problems(measure(page))
    screenshot(page, "phone-table-dead-end-360x740")
    page.locator("#undo").click()
    expect_move_number(page, 2)
    expect(bar.locator("#end-game")).to_be_hidden()
    answer = call_api(
        page, "POST", f"/api/games/{game_id}/moves/", {"move": losing, "expected_move_number": 2}
    )
    assert answer["status"] == 201, answer
    expect_move_number(page, 3)
    page.locator("#end-game").click()
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#result-outcome")).to_have_text("No moves left")
    assert errors == []


@pytest.mark.parametrize("size", PHONES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_the_lobbys_first_screen_on_a_phone_deals_each_game(
    site, new_context, django_user_model, size
):
    width, height = size
    create_players(django_user_model, "ada")
    page = new_context(viewport={"width": width, "height": height}, has_touch=True).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    make_a_move(page, start_game(page, "gold-mine", 3))  # a game in progress, listed too
    page.goto(f"{site}/")
    expect(page.locator("#saved-games > li").first).to_be_visible()
    screenshot(page, f"phone-table-lobby-{width}x{height}")
    for slug in SLUGS:
        button = page.locator(f'button.new-deal[data-variant="{slug}"]')
        expect(button).to_be_visible()
        box = button.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (slug, box)
        assert box["height"] >= TOUCH and box["width"] >= TOUCH, (slug, box)
    assert page.evaluate("scrollY") == 0
    page.locator('button.new-deal[data-variant="grandfathers-clock"]').click()
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    expect(page.locator("#board")).to_have_attribute("data-variant", "grandfathers-clock")
    assert errors == []
