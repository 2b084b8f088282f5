"""A whole game won in the browser, every move made through the board."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.frontend.browser_helpers import (
    Line,
    create_players,
    expect_move_number,
    open_game,
    sign_in,
    start_game,
    tap_move,
    tops,
    watch_errors,
    winning_line,
)
from tests.frontend.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)


def test_grandfathers_clock_is_won_in_the_browser_by_tapping_every_move(
    site, new_context, django_user_model
):
    winning = winning_line("grandfathers-clock")
    seed, moves = winning["seed"], winning["moves"]
    assert (seed, len(moves)) == (12, 41)
    create_players(django_user_model, "ada")
    page = new_context().new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    open_game(page, site, start_game(page, "grandfathers-clock", seed))
    line = Line("grandfathers-clock", seed)
    assert tops(page) == line.tops()

    for number, move in enumerate(moves, start=1):
        tap_move(page, move)
        line.play(move)
        expect_move_number(page, number)
        if number < len(moves):
            expect(page.locator("#message")).not_to_have_attribute("data-kind", "error")
            expect(page.locator("#board")).to_have_attribute("data-status", "playing")
    assert line.variant.status(line.state) == "won"

    result = page.locator("dialog#result")
    expect(result).to_be_visible()
    expect(result.locator(".outcome")).to_have_text("You won")
    expect(page.locator("#result-outcome")).to_have_attribute("data-status", "won")
    expect(page.locator("#result-moves")).to_have_text("41")
    expect(page.locator("#board")).to_have_attribute("data-status", "won")
    expect(page.locator("#board .pile[data-kind=foundation].complete")).to_have_count(12)
    assert tops(page) == line.tops()
    screenshot(page, "grandfathers-clock-won")
    assert errors == []
