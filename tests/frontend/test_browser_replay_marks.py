"""A replay shows what moved (issue 36): the card that moved and its two piles are marked on the
board, and the move list names the cards ("7♥ from pile 6 to pile 5"); so does a closed day's
solution, every move of the way to win."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from playwright.sync_api import expect

from tests.frontend.browser_helpers import (
    call_api,
    create_players,
    post_move,
    sign_in,
    start_game,
    watch_errors,
    winning_line,
)
from tests.frontend.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)

# A move of one card in the move list: "7♥ from pile 6 to the 7 o'clock foundation".
ONE_CARD = re.compile(r"^(10|[2-9AJQK])[♠♥♦♣]\ufe0e? from (pile \d|the \d+ o'clock foundation) to ")


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)])
def test_a_replay_marks_the_moved_card_and_its_piles_and_names_the_cards(
    site, new_context, django_user_model, viewport
):
    width, height = viewport
    line = winning_line("grandfathers-clock")
    create_players(django_user_model, "ada")
    page = new_context(viewport={"width": width, "height": height}).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    game_id = start_game(page, "grandfathers-clock", line["seed"])
    for number, move in enumerate(line["moves"][:5]):
        post_move(page, game_id, move, number)
    call_api(page, "POST", f"/api/games/{game_id}/resign/", {})
    cards = [e["cards"] for e in call_api(page, "GET", f"/api/games/{game_id}/moves/")["body"]]

    page.goto(f"{site}/replay/{game_id}/")
    expect(page.locator("#replay-summary")).to_contain_text("6 steps")
    page.locator("#forward").click()
    first = line["moves"][0]
    moved = page.locator(f'.pile[data-pile="{first["to"]}"] .card.replay-moved')
    expect(moved).to_have_count(1)
    expect(moved).to_have_attribute("data-card", cards[0][0])
    expect(page.locator(f'.pile.replay-from[data-pile="{first["from"]}"]')).to_have_count(1)
    expect(page.locator(f'.pile.replay-to[data-pile="{first["to"]}"]')).to_have_count(1)
    said = [e["said"] for e in call_api(page, "GET", f"/api/games/{game_id}/moves/")["body"]]
    expect(page.locator("#step-entry")).to_have_text(f"Move 1: {said[0]}")
    assert ONE_CARD.match(said[0]), said
    assert said[-1] == "Resigned"
    screenshot(page, f"replay-marked-{width}")
    page.locator("#history summary").click()
    items = page.locator("#history-list li")
    expect(items).to_have_count(6)
    assert items.all_inner_texts() == said
    assert not any("tableau" in text or "→" in text for text in said)
    screenshot(page, f"replay-move-list-{width}")
    assert errors == []


@pytest.mark.parametrize("viewport", [(1280, 800), (360, 740)])
def test_a_solutions_move_list_names_the_cards_of_every_move(site, page, viewport):
    from games.core import days
    from games.models import DailyChallenge

    width, height = viewport
    page.set_viewport_size({"width": width, "height": height})
    yesterday = days.today() - dt.timedelta(days=1)
    length = len(DailyChallenge.objects.get(date=yesterday, variant="grandfathers-clock").solution)
    page.goto(f"{site}/daily/{yesterday}/grandfathers-clock/solution/")
    expect(page.locator("#step")).to_have_text(f"Step 0 of {length}")
    page.locator("#history summary").click()
    expect(page.locator("#history summary")).to_have_text("Every move of the win")
    items = page.locator("#history-list li")
    expect(items).to_have_count(length)
    texts = items.all_inner_texts()
    assert [text for text in texts if not ONE_CARD.match(text)] == []
    assert texts[-1].endswith("the game is won")
    page.locator("#forward").click()
    expect(page.locator("#step-entry")).to_have_text(f"Move 1: {texts[0]}")
    card = texts[0].split(" ")[0].rstrip("\ufe0e")
    moved = page.locator("#board .card.replay-moved")
    expect(moved).to_have_count(1)
    expect(moved).to_have_attribute("aria-label", re.compile(".+ of .+"))
    label = moved.locator(".index.top").first.inner_text().replace("\n", "").replace("\ufe0e", "")
    assert label == card, (label, card)
    screenshot(page, f"solution-move-list-{width}")
