"""A win worth winning (issue 36): the result dialog gives the server's figures (moves, time,
hints, the best before this game and whether it was beaten, the wins in a row, a daily's rank)
and a short celebration that moves only when motion is on."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.frontend.browser_helpers import (
    create_players,
    expect_move_number,
    open_game,
    post_move,
    release_connection,
    sign_in,
    start_game,
    tap_move,
    watch_errors,
    winning_line,
)
from tests.frontend.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)

CLOCK = "grandfathers-clock"
PHONE = {"width": 390, "height": 844}


def win_in_the_browser(page, site, game_id: int, moves) -> None:
    """All but the last move through the API, the last one tapped on the board."""
    for number, move in enumerate(moves[:-1]):
        post_move(page, game_id, move, number)
    open_game(page, site, game_id)
    expect_move_number(page, len(moves) - 1)
    tap_move(page, moves[-1])
    expect_move_number(page, len(moves))


def running_animations(page) -> int:
    return page.evaluate(
        "document.querySelector('#celebration').getAnimations({subtree: true})"
        ".filter((a) => a.playState === 'running').length"
    )


def test_a_first_win_says_so_with_the_servers_figures_and_stands_still_under_reduced_motion(
    site, new_context, django_user_model
):
    moves = winning_line(CLOCK)["moves"]
    create_players(django_user_model, "ada")
    page = new_context().new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    game_id = start_game(page, CLOCK, winning_line(CLOCK)["seed"])
    win_in_the_browser(page, site, game_id, moves)

    result = page.locator("dialog#result")
    expect(result).to_be_visible()
    expect(result.locator("#result-outcome")).to_have_text("You won")
    expect(result.locator("#result-moves")).to_have_text(str(len(moves)))
    expect(result.locator("#result-hints")).to_have_text("None")
    expect(result.locator("#result-best")).to_have_text("Your first win at Grandfather's Clock!")
    expect(result.locator("#result-streak")).to_have_attribute("data-streak", "1")
    # The time is the server's: the game's active time (games.core.clock), in whole seconds.
    # (Not its creation to its end: the clock leaves out the time the page says it was out of
    # sight, so the two may fall either side of a second.)
    stored = Game.objects.get(pk=game_id)
    seconds = stored.active_ms // 1000
    release_connection()
    expect(result.locator("#result-time")).to_have_text(f"{seconds // 60}:{seconds % 60:02d}")
    # The celebration is drawn (the foundations' cards in a fan) and nothing of it moves.
    expect(result.locator("#celebration .card")).to_have_count(8)
    assert running_animations(page) == 0
    # A casual game: no rank, no day's board.
    expect(result.locator("#result-rank")).to_be_hidden()
    expect(result.locator("#result-board")).to_be_hidden()
    screenshot(page, "result-first-win-desktop")
    assert errors == []


def test_a_win_that_beats_the_best_says_by_how_much_and_celebrates_in_motion(
    site, new_context, django_user_model
):
    line = winning_line(CLOCK)
    moves = line["moves"]
    create_players(django_user_model, "ada")
    page = new_context(viewport=PHONE, reduced_motion="no-preference").new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    first = start_game(page, CLOCK, line["seed"])
    for number, move in enumerate(moves):
        post_move(page, first, move, number)
    # That first win as if it had taken 60 moves and 20 minutes.
    row = Game.objects.get(pk=first)
    row.state = {**row.state, "move_number": 60}
    row.created_at = row.finished_at - dt.timedelta(minutes=20)
    row.active_ms = 20 * 60 * 1000  # a game's time is its active time (games/core/clock.py)
    row.save(update_fields=["state", "created_at", "active_ms"])
    release_connection()

    win_in_the_browser(page, site, start_game(page, CLOCK, line["seed"]), moves)
    result = page.locator("dialog#result")
    expect(result).to_be_visible()
    expect(result.locator("#result-best")).to_have_text(
        "New personal best: fewest moves (was 60) and fastest time (was 20:00)."
    )
    expect(result.locator("#result-best")).to_have_attribute("data-kind", "new-best")
    expect(result.locator("#result-streak")).to_have_text(
        "Winning streak: 2 wins in a row at Grandfather's Clock."
    )
    assert running_animations(page) > 0, "the cards fall into their fan"
    for _ in range(50):  # a short celebration: over within a few seconds
        if running_animations(page) == 0:
            break
        page.wait_for_timeout(100)
    assert running_animations(page) == 0
    screenshot(page, "result-new-best-phone")
    box = result.bounding_box()
    assert box["width"] <= PHONE["width"] and box["y"] >= 0
    assert errors == []
