"""Cards that move (frontend/static/frontend/js/motion.js): after the server's answer each card
slides from where it was to where it is drawn, for taps, drags, deals, undo, replays and the
opening deal; nothing moves under prefers-reduced-motion: reduce or with the speed set to off;
a second move made while cards are still moving is taken at once.

Every animation a page starts is logged by an init script (Element.animate wrapped), so the
tests see which cards moved and from where, without timing screenshots."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.frontend.browser_helpers import (
    Line,
    board_still,
    call_api,
    cards,
    create_players,
    drag_move,
    expect_move_number,
    open_game,
    pile,
    sign_in,
    start_game,
    tap_move,
    watch_errors,
)
from tests.frontend.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)

# Log every Web Animation the page starts: the element's card code (or its class) and the
# first keyframe's transform.
LOG_ANIMATIONS = """
window.__moved = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (keyframes, options) {
  const first = Array.isArray(keyframes) ? keyframes[0] : null;
  window.__moved.push({
    card: this.dataset?.card ?? null,
    className: String(this.className),
    transform: first?.transform ?? null,
  });
  return animate.call(this, keyframes, options);
};
"""


def player_page(new_context, site: str, *, motion: bool, speed: str | None = None) -> Page:
    context = new_context(reduced_motion="no-preference" if motion else "reduce")
    context.add_init_script(LOG_ANIMATIONS)
    if speed:
        context.add_init_script(
            f"localStorage.setItem('patience.settings', JSON.stringify({{speed: '{speed}'}}))"
        )
    page = context.new_page()
    sign_in(page, site, "ada")
    return page


def moved(page: Page) -> list[dict[str, Any]]:
    return page.evaluate("window.__moved")


def forget(page: Page) -> None:
    page.evaluate("window.__moved = []")


def card_moves(page: Page) -> list[dict[str, Any]]:
    """The animations of the board's cards (the hint's nudge and the like included)."""
    return [entry for entry in moved(page) if "card" in entry["className"]]


def one_card_move(line: Line) -> dict[str, Any]:
    return next(m for m in line.legal() if m["type"] == "move" and m["count"] == 1)


def two_apart(slug: str) -> tuple[int, dict[str, Any], dict[str, Any]]:
    """A deal with two single-card moves on four different piles: the second is still legal
    after the first."""
    for seed in range(300):
        line = Line(slug, seed)
        moves = [m for m in line.legal() if m["type"] == "move" and m["count"] == 1]
        for first in moves:
            for second in moves:
                if not {first["from"], first["to"]} & {second["from"], second["to"]}:
                    return seed, first, second
    raise AssertionError("no deal with two moves apart")


def test_cards_slide_after_a_tap_a_drag_a_deal_and_an_undo(site, new_context, django_user_model):
    create_players(django_user_model, "ada")
    page = player_page(new_context, site, motion=True)
    errors = watch_errors(page)
    game_id = start_game(page, "gold-mine", seed=11)
    open_game(page, site, game_id)
    line = Line("gold-mine", 11)
    deal = {"type": "deal"}
    tap_move(page, deal)
    line.play(deal)
    expect_move_number(page, 1)
    waste = [code for code in line.view()["piles"]["waste"]["cards"] if code][-3:]
    slid = {entry["card"] for entry in card_moves(page)}
    assert set(waste) <= slid, (waste, slid)  # from the stock to the waste

    move = one_card_move(line)
    forget(page)
    tap_move(page, move)
    expect_move_number(page, 2)
    code = line.top(move["from"])
    assert any(entry["card"] == code for entry in card_moves(page)), card_moves(page)
    line.play(move)

    forget(page)
    page.locator("#undo").click()
    expect_move_number(page, 3)
    assert any(entry["card"] == code for entry in card_moves(page))  # back where it was

    line = Line("gold-mine", 11)  # the undo took the move back: the deal alone
    line.play(deal)
    move = one_card_move(line)
    forget(page)
    drag_move(page, move)
    expect_move_number(page, 4)
    entries = [e for e in card_moves(page) if e["card"] == line.top(move["from"])]
    assert entries, card_moves(page)
    assert errors == []


def test_the_opening_deal_is_dealt_on_the_table(site, new_context, django_user_model):
    create_players(django_user_model, "ada")
    page = player_page(new_context, site, motion=True)
    game_id = start_game(page, "grandfathers-clock", seed=3)
    open_game(page, site, game_id)
    dealt = card_moves(page)
    drawn = page.locator("#board .pile > .card").count()
    # Every card but one lying where the deal starts (the table's top left corner) came there.
    assert drawn - 1 <= len(dealt) <= drawn, (len(dealt), drawn)
    assert all(entry["transform"].startswith("translate(") for entry in dealt)
    page.wait_for_timeout(200)  # a picture of the deal midway: a moment into it, on purpose
    screenshot(page, "motion-deal-midway")


def test_nothing_moves_under_reduced_motion(site, new_context, django_user_model):
    create_players(django_user_model, "ada")
    page = player_page(new_context, site, motion=False)
    errors = watch_errors(page)
    game_id = start_game(page, "gold-mine", seed=11)
    open_game(page, site, game_id)
    line = Line("gold-mine", 11)
    tap_move(page, {"type": "deal"})
    line.play({"type": "deal"})
    expect_move_number(page, 1)
    move = one_card_move(line)
    tap_move(page, move)
    expect_move_number(page, 2)
    page.locator("#undo").click()
    expect_move_number(page, 3)
    page.goto(f"{site}/replay/{game_id}/")
    expect(page.locator("#step")).to_contain_text("of 3")
    page.locator("#forward").click()
    expect(page.locator("#step")).to_contain_text("Step 1 of 3")
    page.locator("#forward").click()
    expect(page.locator("#step")).to_contain_text("Step 2 of 3")
    assert card_moves(page) == []
    assert errors == []


def test_nothing_moves_with_the_speed_set_to_off(site, new_context, django_user_model):
    create_players(django_user_model, "ada")
    page = player_page(new_context, site, motion=True, speed="off")
    game_id = start_game(page, "gold-mine", seed=11)
    open_game(page, site, game_id)
    tap_move(page, {"type": "deal"})
    expect_move_number(page, 1)
    assert card_moves(page) == []


def test_a_replay_slides_each_step(site, new_context, django_user_model):
    create_players(django_user_model, "ada")
    page = player_page(new_context, site, motion=True)
    game_id = start_game(page, "gold-mine", seed=11)
    line = Line("gold-mine", 11)
    line.play({"type": "deal"})
    move = one_card_move(line)
    for number, step in enumerate([{"type": "deal"}, move]):
        answer = call_api(
            page,
            "POST",
            f"/api/games/{game_id}/moves/",
            {"move": step, "expected_move_number": number},
        )
        assert answer["status"] == 201, answer
    page.goto(f"{site}/replay/{game_id}/")
    expect(page.locator("#step")).to_contain_text("Step 0 of 2")
    page.locator("#last").click()
    expect(page.locator("#step")).to_contain_text("Step 2 of 2")
    # The step's number shows at once; its board (and its slide) once its state has come.
    page.wait_for_function(
        "(card) => (window.__moved || [])"
        ".some((e) => e.card === card && e.className.split(' ').includes('card'))",
        arg=line.top(move["from"]),
    )


def test_a_second_move_during_the_animation_is_taken(site, new_context, django_user_model):
    create_players(django_user_model, "ada")
    page = player_page(new_context, site, motion=True, speed="slow")
    errors = watch_errors(page)
    seed, first, second = two_apart("grandfathers-clock")
    game_id = start_game(page, "grandfathers-clock", seed=seed)
    open_game(page, site, game_id)
    # The opening deal has landed: its cards moved, and none moves now.
    page.wait_for_function("window.__moved.some((entry) => entry.className.includes('card'))")
    board_still(page)
    # The second move's card and target, measured before anything moves.
    source = cards(page, second["from"]).last.bounding_box()
    target = (
        cards(page, second["to"]).last
        if cards(page, second["to"]).count()
        else pile(page, second["to"])
    ).bounding_box()
    tap_move(page, first)
    expect_move_number(page, 1)
    running = page.evaluate(
        """document.getAnimations().filter(
             (a) => a.playState === "running" && a.effect?.target?.closest?.("#board")
           ).length"""
    )
    assert running > 0, "the first move's card is still sliding"
    page.mouse.click(source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
    page.mouse.click(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2)
    expect_move_number(page, 2)
    history = call_api(page, "GET", f"/api/games/{game_id}/moves/")["body"]
    entries = history["results"] if isinstance(history, dict) and "results" in history else history
    assert [entry["move"] for entry in entries] == [first, second]
    screenshot(page, "motion-second-move")
    assert errors == []
