"""Finish on the play page: the cards that can go to the foundations go there one move at a
time, each through the API, until none is left, the game is won, or the player does anything
else. Positions come from the engine (seeds, and winning lines played through the API first)."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from games.rules.cards import card_name, parse_card
from tests.frontend.browser_helpers import (
    GameSockets,
    Line,
    call_api,
    cards,
    expect_move_number,
    open_game,
    post_move,
    release_connection,
    snapshot,
    start_game,
    tops,
    watch_errors,
    watch_rest_actions,
    winning_line,
)
from tests.frontend.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)


def home_moves(line: Line) -> list[dict[str, Any]]:
    """The legal moves that put a card on a foundation, in legal_moves' order."""
    return [
        move
        for move in line.legal()
        if move["type"] == "move"
        and move["to"].startswith("foundation:")
        and not move["from"].startswith("foundation:")
    ]


def finishing_moves(line: Line) -> list[dict[str, Any]]:
    """What Finish plays from here (the first foundation move each time, until none is left
    or the game is over), played on ``line`` too."""
    played = []
    while line.variant.status(line.state) == "playing" and home_moves(line):
        move = home_moves(line)[0]
        line.play(move)
        played.append(move)
    return played


def home_counts(page: Page) -> dict[str, int]:
    """How many cards each foundation holds, as the board draws it (data-count)."""
    return {
        pile_id: int(entry["count"])
        for pile_id, entry in snapshot(page).items()
        if pile_id.startswith("foundation:")
    }


def engine_home_counts(line: Line) -> dict[str, int]:
    piles = line.view()["piles"]
    return {
        pile_id: len(piles[pile_id]["cards"])
        for pile_id in piles
        if pile_id.startswith("foundation:")
    }


def history(page: Page, game_id: int) -> list[dict[str, Any]]:
    answer = call_api(page, "GET", f"/api/games/{game_id}/moves/")
    assert answer["status"] == 200, answer
    return answer["body"]


def gaps_ms(entries: list[dict[str, Any]]) -> list[float]:
    """The time between each history entry and the one before, as the server received them."""
    from django.utils.dateparse import parse_datetime

    times = [parse_datetime(entry["received_at"]) for entry in entries]
    return [(b - a).total_seconds() * 1000 for a, b in itertools.pairwise(times)]


def test_finish_sends_each_card_home_one_move_at_a_time(site, page):
    """Grandfather's Clock, deal 7: seven cards can go to the dial one after another."""
    errors = watch_errors(page)
    line = Line("grandfathers-clock", 7)
    expected = finishing_moves(line)
    assert len(expected) == 7 and line.variant.status(line.state) == "playing"
    game_id = start_game(page, "grandfathers-clock", 7)
    open_game(page, site, game_id)
    before = home_counts(page)
    finish = page.locator("#finish")
    expect(finish).to_be_visible()
    expect(finish).to_have_text("Finish")

    finish.click()
    expect(finish).to_have_text("Stop")  # while it runs
    # #message (a live region) says it started, and then what it did.
    expect(page.locator("#message")).to_have_text(
        "Sending cards to the foundations. Any key or click stops."
    )
    expect_move_number(page, len(expected))
    expect(page.locator("#message")).to_have_text("Sent 7 cards to the foundations.")
    expect(page.locator("#message")).to_have_attribute("data-kind", "info")
    expect(finish).to_be_hidden()  # no foundation move left
    page.wait_for_timeout(500)  # room for one more move, were one sent
    expect_move_number(page, len(expected))
    expect(page.locator("#move-count")).to_have_text("7")
    # Every one of those cards is home: seven more on the dial, each pile as the engine has it.
    assert tops(page) == line.tops()
    assert home_counts(page) == engine_home_counts(line)
    assert sum(home_counts(page).values()) == sum(before.values()) + 7

    entries = history(page, game_id)
    assert [entry["move"] for entry in entries] == expected
    # Paced like a person: never two moves under the fair-play burst limit apart.
    assert min(gaps_ms(entries)) >= settings.FAIR_PLAY_BURST_MS, gaps_ms(entries)
    expect(page.locator("#board")).to_have_attribute("data-status", "playing")
    screenshot(page, "grandfathers-clock-finished")
    assert errors == []


@pytest.mark.parametrize(("slug", "how"), [("gold-mine", "button"), ("grandfathers-clock", "key")])
def test_finish_plays_the_last_cards_home_and_the_game_is_won(site, page, slug, how):
    """A winning line played through the API up to where only foundation moves are left
    (Gold Mine after its last deal, Grandfather's Clock with eleven cards to go): Finish (the
    button, or F) wins the game."""
    errors = watch_errors(page)
    winning = winning_line(slug)
    seed, moves = winning["seed"], winning["moves"]
    prefix = {"gold-mine": 102, "grandfathers-clock": 30}[slug]
    line = Line(slug, seed)
    for move in moves[:prefix]:
        line.play(move)
    expected = finishing_moves(line)
    assert line.variant.status(line.state) == "won" and len(expected) == len(moves) - prefix
    game_id = start_game(page, slug, seed)
    for number, move in enumerate(moves[:prefix]):
        post_move(page, game_id, move, number)
    open_game(page, site, game_id)
    expect_move_number(page, prefix)

    if how == "key":
        page.keyboard.press("f")
    else:
        page.locator("#finish").click()
    result = page.locator("dialog#result")
    expect(result).to_be_visible()
    expect(result.locator(".outcome")).to_have_text("You won")
    expect_move_number(page, len(moves))
    expect(page.locator("#board")).to_have_attribute("data-status", "won")
    expect(page.locator("#finish")).to_be_hidden()
    assert tops(page) == line.tops()
    assert [entry["move"] for entry in history(page, game_id)][prefix:] == expected
    screenshot(page, f"{slug}-won-by-finish")
    assert errors == []


def test_a_click_stops_finish_midway_and_a_key_does_too(site, page):
    """Grandfather's Clock, deal 2: twenty cards could go home in a row; the player's click
    stops Finish where it is, and after a second start, so does a key."""
    errors = watch_errors(page)
    line = Line("grandfathers-clock", 2)
    expected = finishing_moves(line)
    assert len(expected) == 20
    game_id = start_game(page, "grandfathers-clock", 2)
    open_game(page, site, game_id)
    board = page.locator("#board")
    message = page.locator("#message")

    page.locator("#finish").click()
    page.wait_for_function(
        "() => Number(document.querySelector('#board').dataset.moveNumber) >= 3", timeout=10_000
    )
    cards(page, "tableau:7").last.click()  # the player picks up a card
    expect(message).to_have_text(re.compile(r"^Stopped\. Sent \d+ cards to the foundations\.$"))
    stopped_at = int(board.get_attribute("data-move-number"))
    page.wait_for_timeout(700)  # three steps' time: nothing more is sent
    expect_move_number(page, stopped_at)
    assert 3 <= stopped_at < len(expected)
    assert message.text_content() == f"Stopped. Sent {stopped_at} cards to the foundations."
    expect(page.locator("#finish")).to_have_text("Finish")
    history_moves = [entry["move"] for entry in history(page, game_id)]
    assert history_moves == expected[:stopped_at]

    page.keyboard.press("Escape")  # put the card back
    page.keyboard.press("f")  # and again, from where it stopped
    page.wait_for_function(
        "(n) => Number(document.querySelector('#board').dataset.moveNumber) >= n",
        arg=stopped_at + 2,
        timeout=10_000,
    )
    page.keyboard.press("ArrowRight")
    expect(message).to_have_text(re.compile(r"^Stopped\. Sent \d+ cards? to"))
    again = int(board.get_attribute("data-move-number"))
    page.wait_for_timeout(700)
    expect_move_number(page, again)
    assert again < len(expected)
    assert message.text_content() == (
        f"Stopped. Sent {again - stopped_at} {'card' if again - stopped_at == 1 else 'cards'}"
        " to the foundations."
    )
    assert [entry["move"] for entry in history(page, game_id)] == expected[:again]
    assert errors == []


def test_finish_works_in_a_ranked_attempt_and_is_no_burst_to_fair_play(site, page):
    """Today's Grandfather's Clock challenge set to deal 2: Finish sends twenty cards home in
    the ranked attempt, each an ordinary move, spaced so that fair play finds nothing."""
    from games.core import days
    from games.models import DailyChallenge, Deal, Game
    from games.moderation.fair_play import fair_play_findings
    from games.rules import DEAL_VERSION

    today = days.today()
    deal, _ = Deal.objects.get_or_create(
        variant="grandfathers-clock", seed=2, deal_version=DEAL_VERSION
    )
    # The day's prepared challenge (tests/frontend/conftest.py), dealt as deal 2 instead.
    DailyChallenge.objects.filter(date=today, variant="grandfathers-clock").update(deal=deal)
    release_connection()
    errors = watch_errors(page)
    line = Line("grandfathers-clock", 2)
    expected = finishing_moves(line)
    assert len(expected) > settings.FAIR_PLAY_BURST_MOVES

    answer = call_api(page, "POST", f"/api/daily/{today}/grandfathers-clock/attempt/")
    assert answer["status"] == 201, answer
    game_id = answer["body"]["id"]
    open_game(page, site, game_id)
    expect(page.locator("#badges .badge.ranked")).to_be_visible()
    page.locator("#finish").click()
    expect_move_number(page, len(expected))
    expect(page.locator("#message")).to_have_text("Sent 20 cards to the foundations.")
    assert tops(page) == line.tops()

    entries = history(page, game_id)
    assert [entry["move"] for entry in entries] == expected
    assert min(gaps_ms(entries)) >= settings.FAIR_PLAY_BURST_MS, gaps_ms(entries)
    findings = fair_play_findings(Game.objects.get(pk=game_id))
    release_connection()
    assert findings == []
    assert errors == []


def test_a_refused_move_stops_finish_with_the_servers_message(site, page):
    """The third move Finish sends names an old version (as when another tab moved first): the
    server refuses it, the page says why and shows the latest game, and nothing more is sent."""
    line = Line("grandfathers-clock", 7)
    expected = finishing_moves(line)
    game_id = start_game(page, "grandfathers-clock", 7)
    sent: list[int] = []

    def stale_third(message, forward, _) -> None:  # the moves go on the game's websocket
        sent.append(message["expected_move_number"])
        if len(sent) == 3:
            message = {**message, "expected_move_number": message["expected_move_number"] - 1}
        forward(message)

    GameSockets(page, on_action=stale_third)
    rest = watch_rest_actions(page)
    open_game(page, site, game_id)
    page.locator("#finish").click()
    message = page.locator("#message")
    expect(message).to_have_attribute("data-kind", "error")
    expect(message).to_contain_text("The board now shows the latest position.")
    expect(page.locator("#announce")).to_have_text("Stopped. Sent 2 cards to the foundations.")
    page.wait_for_timeout(700)  # three steps' time: nothing more is sent
    assert sent == [0, 1, 2] and rest == []
    expect_move_number(page, 2)
    assert [entry["move"] for entry in history(page, game_id)] == expected[:2]
    expect(page.locator("#finish")).to_have_text("Finish")


def test_a_game_with_no_foundation_keeps_no_room_for_finish(site, page):
    open_game(page, site, start_game(page, "grounds-for-divorce", 1))
    finish = page.locator("#finish")
    expect(finish).to_be_hidden()
    assert finish.bounding_box() is None  # no empty place left in the bar for it

    open_game(page, site, start_game(page, "gold-mine", 1))  # no card can go home yet
    expect(finish).to_be_hidden()
    assert finish.bounding_box() is not None  # its place is kept: the board will not move


def hold_second_move(page: Page) -> list:
    """Hold Finish's second move before it reaches the server, on the game's websocket (its
    answer is on its way, as far as the page knows); returns the list that receives the
    function that lets it go. Before the page is opened."""
    seen: list[int] = []
    held: list = []

    def handler(_, forward, __) -> None:
        seen.append(1)
        if len(seen) == 2:
            held.append(forward)
        else:
            forward()

    GameSockets(page, on_action=handler)
    return held


def wait_for(page: Page, held: list) -> None:
    for _ in range(200):
        if held:
            return
        page.wait_for_timeout(25)
    raise AssertionError("Finish sent no second move")


@pytest.mark.parametrize("how", ["key", "tap"])
def test_a_card_picked_up_while_finish_is_answered_stays_picked_up(site, page, how):
    """The player picks up a card (Enter, or a tap) while Finish's second move is on its way:
    Finish stops, and the answer's redraw leaves the card in the player's hand, its targets
    from the new position, ready to put down."""
    errors = watch_errors(page)
    line = Line("grandfathers-clock", 7)
    expected = finishing_moves(Line("grandfathers-clock", 7))
    line.play(expected[0])
    line.play(expected[1])
    # A card that Finish's held move leaves where it is, and that can go somewhere then.
    source = next(m["from"] for m in line.legal() if m["from"] != expected[1]["from"])
    game_id = start_game(page, "grandfathers-clock", 7)
    held = hold_second_move(page)
    open_game(page, site, game_id)
    page.locator("#finish").click()
    wait_for(page, held)
    expect_move_number(page, 1)

    picked = cards(page, source).last
    if how == "key":
        page.locator(f'#board .pile[data-pile="{source}"]').focus()
        page.keyboard.press("Enter")
    else:
        picked.click()
    expect(picked).to_have_class(re.compile(r"\bselected\b"))
    held[0]()
    expect_move_number(page, 2)  # the answer is drawn
    expect(page.locator("#message")).to_have_text("Stopped. Sent 2 cards to the foundations.")
    picked = cards(page, source).last
    expect(picked).to_have_class(re.compile(r"\bselected\b"))
    targets = sorted(
        move["to"] for move in line.legal() if move["from"] == source and move["count"] == 1
    )
    marked = page.eval_on_selector_all(
        "#board .pile.target", "(piles) => piles.map((p) => p.dataset.pile).sort()"
    )
    assert marked == targets and targets, (marked, targets)

    # And it goes where the player puts it.
    page.locator(f'#board .pile[data-pile="{targets[0]}"]').click()
    expect_move_number(page, 3)
    line.play({"type": "move", "from": source, "to": targets[0], "count": 1})
    assert tops(page) == line.tops()
    assert errors == []


def test_a_card_picked_up_that_finish_sends_home_is_put_back_with_a_message(site, page):
    """The card picked up is the one Finish's move on its way sends home: the redraw puts it
    back (it is no longer there to hold) and says so."""
    expected = finishing_moves(Line("grandfathers-clock", 7))
    source = expected[1]["from"]
    line = Line("grandfathers-clock", 7)
    name = card_name(parse_card(line.top(source)))
    game_id = start_game(page, "grandfathers-clock", 7)
    held = hold_second_move(page)
    open_game(page, site, game_id)
    page.locator("#finish").click()
    wait_for(page, held)
    expect_move_number(page, 1)
    page.locator(f'#board .pile[data-pile="{source}"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator("#board .selected")).to_have_count(1)
    held[0]()
    expect_move_number(page, 2)
    expect(page.locator("#message")).to_have_text(
        f"Stopped. Sent 2 cards to the foundations. Put back the {name}: the board changed."
    )
    expect(page.locator("#board .selected, #board .target")).to_have_count(0)
    expect(page.locator("#announce")).to_have_text("")  # not "Picked up the …" still


def test_finish_leaves_selective_castles_base_rank_to_the_player(site, page):
    """Selective Castle is built "starting from a player-selected base rank", and "the first
    card moved to any foundation pile determines the base rank for all four foundations"
    (seeds/selective-castle.txt). At the deal every top card could go to a foundation, but
    Finish must not choose the base rank: it stays hidden, and F only says why, until the
    player has put a card on a foundation. Then it sends home what fits (deal 12: four more)."""
    errors = watch_errors(page)
    line = Line("selective-castle", 12)
    assert home_moves(line)  # every top card could start a foundation
    game_id = start_game(page, "selective-castle", 12)
    open_game(page, site, game_id)
    finish = page.locator("#finish")
    expect(finish).to_be_hidden()
    assert finish.bounding_box() is not None  # its place is kept: the board will not move
    page.keyboard.press("f")
    expect(page.locator("#message")).to_have_text(
        "Choose the base rank first: put a card on a foundation yourself."
    )
    page.wait_for_timeout(500)  # room for a move, were one sent
    expect_move_number(page, 0)
    assert history(page, game_id) == []

    chosen = {"type": "move", "from": "tableau:3", "to": "foundation:2", "count": 1}
    assert chosen in home_moves(line)
    line.play(chosen)
    expected = finishing_moves(line)
    assert len(expected) >= 2
    post_move(page, game_id, chosen, 0)
    expect_move_number(page, 1)
    expect(finish).to_be_visible()
    finish.click()
    expect_move_number(page, 1 + len(expected))
    expect(page.locator("#message")).to_have_text(f"Sent {len(expected)} cards to the foundations.")
    assert [entry["move"] for entry in history(page, game_id)] == [chosen, *expected]
    assert tops(page) == line.tops()
    assert errors == []
