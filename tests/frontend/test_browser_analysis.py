"""The replay page's "Where the game was lost" (games/analysis/): Analyse, the progress line
while the worker's job makes it, then the losing move marked on the move list and the board,
and the solver's winning line from the last winnable position stepped through on the board."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.frontend.browser_helpers import (
    call_api,
    create_players,
    post_move,
    release_connection,
    sign_in,
    start_game,
    watch_errors,
)
from tests.frontend.conftest import screenshot
from tests.games.analysis.lines import lost_at

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)])
def test_the_replay_shows_the_move_that_lost_the_game_and_how_to_win(
    site, new_context, django_user_model, viewport
):
    from games.analysis import job
    from games.analysis.search import solve_position

    width, height = viewport
    seed, line, k = lost_at("grandfathers-clock")
    create_players(django_user_model, "ada")
    page = new_context(viewport={"width": width, "height": height}).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    game_id = start_game(page, "grandfathers-clock", seed)
    for number, move in enumerate(line):
        post_move(page, game_id, move, number)
    assert call_api(page, "POST", f"/api/games/{game_id}/end/", {})["status"] == 200

    page.goto(f"{site}/replay/{game_id}/")
    ask = page.locator("#analyse")
    expect(ask).to_be_visible()
    ask.click()
    expect(page.locator("#analysis-progress")).to_have_text("Waiting for the solver…")
    screenshot(page, f"analysis-waiting-{width}")
    assert job.run_one(solve_position) is not None  # the worker's job, here
    release_connection()

    summary = page.locator("#analysis-summary")
    expect(summary).to_contain_text(f"move {k + 1} lost it")
    expect(page.locator("#step")).to_have_text(f"Step {k + 1} of {len(line) + 1}")
    expect(page.locator("#board.losing-step .card.replay-moved")).to_have_count(1)
    expect(page.locator("#step-entry")).to_contain_text("this move lost the deal")
    page.locator("#history summary").click()
    expect(page.locator("#history-list li.losing")).to_have_count(1)
    expect(page.locator("#history-list li.losing")).to_contain_text("lost the deal")
    screenshot(page, f"analysis-losing-move-{width}")

    show = page.locator("#analysis-line")
    expect(show).to_contain_text(f"after move {k}")
    show.click()
    length = call_api(page, "GET", f"/api/games/{game_id}/analysis/")["body"]["result"]["length"]
    expect(page.locator("#step")).to_have_text(f"Step 0 of {length}")
    expect(page.locator("#step-entry")).to_contain_text("the last position that could be won")
    page.locator("#forward").click()
    expect(page.locator("#step-entry")).to_contain_text("Solver's move 1: ")
    screenshot(page, f"analysis-solver-line-{width}")
    page.locator("#last").click()
    expect(page.locator("#step")).to_have_text(f"Step {length} of {length}")
    screenshot(page, f"analysis-solver-won-{width}")
    page.locator("#analysis-back").click()
    expect(page.locator("#step")).to_have_text(f"Step {k + 1} of {len(line) + 1}")
    assert errors == []


def test_a_game_in_play_has_no_analyse_button(site, new_context, django_user_model):
    create_players(django_user_model, "bea")
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    sign_in(page, site, "bea")
    seed, line, _k = lost_at("grandfathers-clock")
    game_id = start_game(page, "grandfathers-clock", seed)
    post_move(page, game_id, line[0], 0)
    page.goto(f"{site}/replay/{game_id}/")
    expect(page.locator("#step")).to_have_text("Step 0 of 1")
    expect(page.locator("#analysis")).to_be_hidden()
    answer = call_api(page, "GET", f"/api/games/{game_id}/analysis/")
    assert answer["status"] == 409 and "result" not in answer["body"]
