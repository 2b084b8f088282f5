"""Playing in a real browser: each game's board takes moves by drag and drop and by tapping;
refusals, undo, reload, a second tab and the keyboard. Deals are chosen by seed and every
expectation comes from the rules engine, so the tests are deterministic."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.rules import get_variant
from games.rules.cards import RANK_NAMES, card_name, parse_card, parse_rank
from tests.frontend.browser_helpers import (
    SOCKET_ACTIONS,
    GameSockets,
    Line,
    assert_the_board_is_one_tab_stop,
    board_ready,
    call_api,
    cards,
    create_players,
    drag_move,
    drop_point,
    expect_move_number,
    focused_pile,
    grab_point,
    navigate_to,
    open_game,
    pile,
    post_move,
    scroll_width,
    sign_in,
    snapshot,
    start_game,
    tab_stops,
    tap_move,
    tops,
    wait_for_new_game,
    watch_errors,
)
from tests.frontend.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)


def card(source: str, target: str, count: int = 1) -> dict:
    return {"type": "move", "from": source, "to": target, "count": count}


DEAL = {"type": "deal"}

# Per game: a seed, and moves made by drag ("drag") or by tapping ("tap"); the engine checks
# every one is legal where it is played.
PLANS = {
    "grounds-for-divorce": (1, [("drag", card("tableau:2", "tableau:0")),
                                ("tap", card("tableau:9", "tableau:4"))]),
    "gold-mine": (1, [("tap", DEAL),
                      ("drag", card("waste", "foundation:0")),
                      ("tap", card("waste", "tableau:0"))]),
    "selective-castle": (1, [("drag", card("tableau:2", "tableau:1")),
                             ("tap", card("tableau:4", "foundation:0"))]),
    "grandfathers-clock": (1, [("drag", card("tableau:0", "foundation:6")),
                               ("tap", card("tableau:1", "tableau:7"))]),
    "blondes-and-brunettes": (3, [("drag", card("tableau:4", "foundation:0")),
                                  ("tap", card("tableau:3", "tableau:0"))]),
}  # fmt: skip


def play_and_check(page: Page, line: Line, how: str, move: dict) -> None:
    """Make ``move`` on the page by ``how`` and check the board shows what the engine says."""
    number = int(page.locator("#board").get_attribute("data-move-number"))
    single = move["type"] == "move" and move["count"] == 1
    moved = line.top(move["from"]) if single else None
    (drag_move if how == "drag" else tap_move)(page, move)
    events = line.play(move)
    expect_move_number(page, number + 1)
    expect(page.locator("#move-count")).to_have_text(str(line.state.move_number))
    expect(page.locator("#message")).not_to_have_attribute("data-kind", "error")
    for event in events:
        if event["type"] == "base_rank_set":  # the note of an automatic effect
            rank = RANK_NAMES[parse_rank(event["rank"])]  # "Seven", as the engine says it
            expect(page.locator("#message")).to_have_text(f"The foundations start at {rank}.")
    if moved is not None:
        # The card is on its target pile, on top.
        expect(cards(page, move["to"]).last).to_have_attribute("data-card", moved)
    assert tops(page) == line.tops()
    assert not page.locator("#board .selected, #board .dragging, #board .target").count()


@pytest.mark.parametrize("slug", list(PLANS))
def test_a_deal_of_each_game_takes_a_drag_and_drop_move_and_a_tapped_move(site, page, slug):
    seed, steps = PLANS[slug]
    line = Line(slug, seed)
    # The lobby's deal-number form starts this very deal.
    page.goto(site + "/")
    page.select_option("#seed-variant", slug)
    page.fill("#seed-number", str(seed))
    page.locator("#seed-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    board_ready(page)
    expect(page.locator("#board")).to_have_attribute("data-variant", slug)
    expect(page.locator("#board")).to_have_attribute("data-move-number", "0")
    expect(page.locator("#badges .badge.seed")).to_have_text(f"Deal #{seed}")
    assert tops(page) == line.tops()  # the engine's deal, card for card

    for how, move in steps:
        play_and_check(page, line, how, move)

    assert scroll_width(page) <= 1280
    screenshot(page, f"{slug}-desktop")


def test_an_illegal_move_is_refused_with_the_engines_message_and_the_board_unchanged(site, page):
    line = Line("selective-castle", 1)
    open_game(page, site, start_game(page, "selective-castle", 1))
    before = snapshot(page)

    dragged = card("tableau:0", "tableau:1")  # Queen of spades onto a 2
    drag_move(page, dragged)
    expect(page.locator("#message")).to_have_text(line.refusal(dragged))
    expect(page.locator("#message")).to_have_attribute("data-kind", "error")
    expect(page.locator("#board .dragging")).to_have_count(0)  # the cards came back
    assert snapshot(page) == before
    expect_move_number(page, 0)

    tapped = card("tableau:5", "tableau:3")  # Ten of spades onto a Four
    tap_move(page, tapped)
    expect(page.locator("#message")).to_have_text(line.refusal(tapped))
    # The page names the cards as the engine's refusal does: one game speaks one way.
    for pile_id in ("tableau:5", "tableau:3"):
        name = cards(page, pile_id).last.get_attribute("aria-label")
        assert name in line.refusal(tapped), (name, line.refusal(tapped))
    expect(page.locator("#message")).to_have_attribute("data-kind", "error")
    expect(page.locator("#board .selected")).to_have_count(0)
    assert snapshot(page) == before
    expect_move_number(page, 0)
    expect(page.locator("#move-count")).to_have_text("0")


# Each change of a live region's text as a mutation observer sees it (callbacks run after each
# task, so a region emptied and written in one go shows only the text).
_WATCH_LIVE = """
(ids) => {
  window.liveTexts = Object.fromEntries(ids.map((id) => [id, []]));
  for (const id of ids) {
    const node = document.getElementById(id);
    new MutationObserver(() => window.liveTexts[id].push(node.textContent))
      .observe(node, { childList: true, characterData: true, subtree: true });
  }
}
"""


def live_texts(page: Page, region: str) -> list[str]:
    return page.evaluate("(id) => window.liveTexts[id]", region)


def test_a_message_said_twice_is_written_again_for_screen_readers(site, page):
    """The same refusal twice: #message is emptied and then given the text again (writing the
    text it already shows would change nothing a screen reader hears). The same for #announce."""
    errors = watch_errors(page)
    line = Line("selective-castle", 1)
    open_game(page, site, start_game(page, "selective-castle", 1))
    page.evaluate(_WATCH_LIVE, ["message", "announce"])
    refused = card("tableau:5", "tableau:3")  # Ten of spades onto a Four
    words = line.refusal(refused)
    message = page.locator("#message")

    tap_move(page, refused)
    expect(message).to_have_text(words)
    expect(page.locator("#board .selected")).to_have_count(0)
    assert live_texts(page, "message")[-1] == words
    page.evaluate("window.liveTexts.message = []")
    tap_move(page, refused)
    # Emptied, then the same words again: two changes a screen reader hears.
    page.wait_for_function(
        "(words) => window.liveTexts.message.join('|') === ['', words].join('|')",
        arg=words,
        timeout=3000,
    )
    expect(message).to_have_text(words)
    expect(message).to_have_attribute("data-kind", "error")

    # #announce too: Enter twice on an empty foundation says twice there is nothing to pick up.
    pile(page, "foundation:0").focus()
    page.keyboard.press("Enter")
    said = "Foundation 1: nothing to pick up."
    expect(page.locator("#announce")).to_have_text(said)
    page.evaluate("window.liveTexts.announce = []")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "(said) => window.liveTexts.announce.join('|') === ['', said].join('|')",
        arg=said,
        timeout=3000,
    )

    # A different message is written at once, with no empty step.
    page.evaluate("window.liveTexts.message = []")
    page.keyboard.press("u")
    expect(message).to_have_text("No move to take back yet.")
    assert live_texts(page, "message") == ["No move to take back yet."]
    assert errors == []


def test_undo_takes_back_a_move_and_restores_the_board(site, page):
    line = Line("selective-castle", 1)
    open_game(page, site, start_game(page, "selective-castle", 1))
    before = snapshot(page)
    expect(page.locator("#undo")).to_be_disabled()  # nothing to take back yet
    play_and_check(page, line, "tap", card("tableau:2", "tableau:7"))
    assert snapshot(page) != before

    expect(page.locator("#undo")).to_be_enabled()
    page.locator("#undo").click()
    expect_move_number(page, 2)  # the undo is a version of its own
    expect(page.locator("#move-count")).to_have_text("0")
    expect(page.locator("#message")).to_have_text("Move taken back.")
    expect(page.locator("#message")).to_have_attribute("data-kind", "info")
    assert snapshot(page) == before
    expect(page.locator("#undo")).to_be_disabled()


def test_the_focus_stays_on_the_table_when_undo_or_resign_is_disabled_under_it(site, page):
    line = Line("selective-castle", 1)
    open_game(page, site, start_game(page, "selective-castle", 1))
    play_and_check(page, line, "tap", card("tableau:2", "tableau:7"))
    page.locator("#undo").focus()
    page.keyboard.press("Enter")  # nothing is left to undo: the button is disabled
    expect_move_number(page, 2)
    expect(page.locator("#undo")).to_be_disabled()
    expect(page.locator('#board .pile[tabindex="0"]')).to_be_focused()

    page.locator("#resign").focus()
    page.keyboard.press("Enter")
    page.locator("#confirm-resign").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#result")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#result")).to_be_hidden()
    expect(page.locator('#board .pile[tabindex="0"]')).to_be_focused()


def test_undo_is_offered_only_when_the_server_would_accept_it(site, page):
    open_game(page, site, start_game(page, "gold-mine", 3))
    expect(page.locator("#undo")).to_be_disabled()
    expect(page.locator("#undo")).to_have_attribute("title", "No move to take back yet.")
    tap_move(page, {"type": "deal"})  # a deal shows hidden cards: a casual game takes it back
    expect_move_number(page, 1)
    expect(page.locator("#undo")).to_be_enabled()


def test_a_reloaded_page_shows_the_game_where_it_was(site, page):
    line = Line("grandfathers-clock", 1)
    game_id = start_game(page, "grandfathers-clock", 1)
    open_game(page, site, game_id)
    play_and_check(page, line, "drag", card("tableau:0", "foundation:6"))
    play_and_check(page, line, "tap", card("tableau:1", "tableau:7"))
    before = snapshot(page)

    page.reload()
    board_ready(page)
    expect_move_number(page, 2)
    expect(page.locator("#move-count")).to_have_text("2")
    assert snapshot(page) == before
    assert tops(page) == line.tops()
    assert page.url == f"{site}/play/{game_id}/"


# The device's clock an hour fast: Date.now() and the page's time origin alike.
FAST_CLOCK = """
(() => {
  const skew = 3600 * 1000;
  const now = Date.now.bind(Date);
  Date.now = () => now() + skew;
  const origin = performance.timeOrigin + skew;
  Object.defineProperty(performance, "timeOrigin", { get: () => origin });
})();
"""


def test_the_timer_keeps_the_servers_time_on_a_device_whose_clock_is_off(site, page):
    page.context.add_init_script(FAST_CLOCK)
    open_game(page, site, start_game(page, "gold-mine", 3))
    assert page.evaluate("Date.now() - Date.parse(new Date().toISOString())") > 3_000_000
    # Counted from the game's start by the server's clock, once the timer has ticked:
    # seconds, not an hour.
    expect(page.locator("#timer")).to_have_text(re.compile(r"^0:0[1-9]$"))


def test_a_second_tab_receives_each_move_live(site, page):
    line = Line("grounds-for-divorce", 1)
    game_id = start_game(page, "grounds-for-divorce", 1)
    open_game(page, site, game_id)
    other = page.context.new_page()  # same session: another tab
    other_errors = watch_errors(other)
    open_game(other, site, game_id)  # its websocket is open before the move

    play_and_check(page, line, "tap", card("tableau:2", "tableau:0"))  # turns a card up
    expect_move_number(other, 1)
    expect(other.locator("#move-count")).to_have_text("1")
    assert snapshot(other) == snapshot(page)

    play_and_check(other, line, "drag", card("tableau:9", "tableau:4"))  # and back the other way
    expect_move_number(page, 2)
    assert snapshot(page) == snapshot(other)
    assert tops(page) == line.tops()
    assert other_errors == []


def test_a_hint_asked_in_one_tab_is_counted_in_the_other_at_once(site, page):
    game_id = start_game(page, "selective-castle", 1)
    open_game(page, site, game_id)
    other = page.context.new_page()
    other_errors = watch_errors(other)
    open_game(other, site, game_id)
    expect(other.locator("#hint-stat")).to_be_hidden()

    page.locator("#hint").click()
    expect(page.locator("#hint-count")).to_have_text("1")
    expect(other.locator("#hint-stat")).to_be_visible()
    expect(other.locator("#hint-count")).to_have_text("1")
    expect_move_number(other, 0)
    assert other_errors == []


def test_a_hint_goes_once_the_board_changes_in_another_tab_and_stays_while_followed(site, page):
    line = Line("selective-castle", 1)
    game_id = start_game(page, "selective-castle", 1)
    open_game(page, site, game_id)
    message = page.locator("#message")
    page.keyboard.press("h")
    expect(message).to_have_text(re.compile(r"^Hint: "))
    suggested = line.variant.hint(line.state, {line.state}).to_json()

    # Picking up the card it names is following it: the hint stays.
    pile(page, suggested["from"]).focus()
    page.keyboard.press("Enter")
    expect(page.locator("#announce")).to_contain_text("Picked up")
    expect(message).to_have_text(re.compile(r"^Hint: "))
    page.keyboard.press("Escape")
    expect(message).to_have_text(re.compile(r"^Hint: "))

    # A move made elsewhere leaves a board the hint no longer speaks of.
    other = page.context.new_page()
    open_game(other, site, game_id)
    move = line.legal()[-1]
    post_move(other, game_id, move, 0)
    expect_move_number(page, 1)
    expect(message).to_have_text("")


def test_a_refusal_goes_when_the_player_picks_up_a_card(site, page):
    line = Line("selective-castle", 1)
    open_game(page, site, start_game(page, "selective-castle", 1))
    message = page.locator("#message")
    refused = card("tableau:0", "tableau:1")  # Queen of spades onto a 2
    tap_move(page, refused)
    expect(message).to_have_text(line.refusal(refused))

    pile(page, "tableau:2").focus()
    page.keyboard.press("Enter")  # a new action: the old refusal no longer applies
    expect(page.locator("#announce")).to_contain_text("Picked up")
    expect(message).to_have_text("")
    page.keyboard.press("Escape")
    expect(page.locator("#announce")).to_have_text("Put back.")
    expect_move_number(page, 0)


def test_the_keyboard_picks_up_a_card_moves_it_with_the_arrows_and_puts_it_down(site, page):
    line = Line("selective-castle", 1)
    open_game(page, site, start_game(page, "selective-castle", 1))
    move = card("tableau:2", "tableau:7")
    moved = line.top("tableau:2")
    line.play(move)

    pile(page, "tableau:2").focus()
    page.keyboard.press("Enter")
    expect(cards(page, "tableau:2").last).to_have_class(re.compile(r"\bselected\b"))
    expect(pile(page, "tableau:7")).to_have_class(re.compile(r"\btarget\b"))
    expect(page.locator("#announce")).to_contain_text(
        "Picked up the Ace of diamonds from tableau pile 3."
    )
    navigate_to(page, "tableau:7")
    expect(pile(page, "tableau:7")).to_be_focused()
    page.keyboard.press("Enter")

    expect_move_number(page, 1)
    expect(cards(page, "tableau:7").last).to_have_attribute("data-card", moved)
    expect(pile(page, "tableau:7")).to_be_focused()  # the focus stays on its pile
    assert tops(page) == line.tops()

    page.keyboard.press("u")  # and U takes it back
    expect_move_number(page, 2)
    expect(cards(page, "tableau:2").last).to_have_attribute("data-card", moved)


def test_enter_again_on_the_pile_lifts_one_more_card_and_says_which(site, page):
    game_id = start_game(page, "grounds-for-divorce", 1)
    post_move(page, game_id, card("tableau:2", "tableau:0"), 0)  # Six of clubs on the Seven
    open_game(page, site, game_id)

    pile(page, "tableau:0").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#announce")).to_contain_text(
        "Picked up the Six of clubs from tableau pile 1."
    )
    page.keyboard.press("Enter")  # the Seven too: the two move together
    expect(page.locator("#board .selected")).to_have_count(2)
    expect(page.locator("#announce")).to_contain_text(
        "Picked up the Seven of clubs and the Six of clubs from tableau pile 1. 1 pile takes them."
    )


def test_the_board_is_one_tab_stop_and_the_arrows_move_within_it(site, page):
    """A roving tabindex: Tab enters the board once and leaves it at the next Tab; the arrows,
    Home and End move between piles; Tab comes back to the pile last focused, also after a
    move redrew the board."""
    errors = watch_errors(page)
    line = Line("selective-castle", 1)
    open_game(page, site, start_game(page, "selective-castle", 1))
    piles = page.evaluate(
        "[...document.querySelectorAll('#board .pile[data-pile]')].map((p) => p.dataset.pile)"
    )
    assert piles[0] == "foundation:0" and piles[-1] == "tableau:7", piles
    assert tab_stops(page) == ["foundation:0"]  # one stop: the first pile, until one is chosen

    def last_control():
        """The last control before the board: Rules, or Finish after it when shown (the menu's
        wrapper among them is no control: on a desktop its buttons lie in the bar)."""
        return page.locator(".play-actions :is(button, a):visible").last

    assert_the_board_is_one_tab_stop(page, last_control())
    navigate_to(page, "tableau:2")

    last_control().focus()
    page.keyboard.press("Tab")  # back to the pile last focused
    assert focused_pile(page) == "tableau:2"
    assert tab_stops(page) == ["tableau:2"]

    # A move made with the keys redraws the board: the focus stays on its pile, the only stop.
    line.play(card("tableau:2", "tableau:7"))
    page.keyboard.press("Enter")
    navigate_to(page, "tableau:7")
    page.keyboard.press("Enter")
    expect_move_number(page, 1)
    expect(pile(page, "tableau:7")).to_be_focused()
    assert tab_stops(page) == ["tableau:7"]
    page.keyboard.press("Tab")
    assert focused_pile(page) is None

    # A redraw while the focus is elsewhere (Undo clicked) keeps the same pile as the stop.
    page.locator("#undo").click()
    expect_move_number(page, 2)
    assert tab_stops(page) == ["tableau:7"]
    last_control().focus()
    page.keyboard.press("Tab")
    assert focused_pile(page) == "tableau:7"
    assert errors == []


def spoken(code: str) -> str:
    """A card as the page names it: as the engine does ("Queen of hearts", "Ten of clubs")."""
    return card_name(parse_card(code))


def test_screen_readers_hear_each_move_made_what_it_turned_up_and_each_deal(site, page):
    line = Line("grounds-for-divorce", 1)
    open_game(page, site, start_game(page, "grounds-for-divorce", 1))
    move = card("tableau:2", "tableau:0")
    moved = line.top("tableau:2")
    events = line.play(move)
    turned = [event for event in events if event["type"] == "turned_up"]
    assert turned, "the move turns up a card"

    pile(page, "tableau:2").focus()
    page.keyboard.press("Enter")
    navigate_to(page, "tableau:0")
    page.keyboard.press("Enter")
    expect_move_number(page, 1)
    expect(page.locator("#announce")).to_have_text(
        f"Moved the {spoken(moved)} from tableau pile 3 to tableau pile 1. "
        f"{spoken(turned[0]['card'])} turned up on tableau pile 3."
    )

    # A deal is said too: the card each of the ten piles got, as a sighted player sees them land.
    events = line.play(DEAL)
    assert not [event for event in events if event["type"] == "run_removed"]
    landed = [f"{spoken(line.top(f'tableau:{i}'))} to tableau pile {i + 1}" for i in range(10)]
    page.keyboard.press("d")
    expect_move_number(page, 2)
    expect(page.locator("#announce")).to_have_text(f"Dealt from the stock: {', '.join(landed)}.")


@pytest.mark.parametrize(("slug", "seed"), [("gold-mine", 1), ("blondes-and-brunettes", 3)])
def test_a_deal_says_the_cards_it_put_on_the_waste(site, page, slug, seed):
    """Gold Mine deals three cards (the waste shows all three), Blondes and Brunettes one: the
    announcement names each, the last dealt (on top) last."""
    line = Line(slug, seed)
    open_game(page, site, start_game(page, slug, seed))
    line.play(DEAL)
    dealt = [spoken(code) for code in line.view()["piles"]["waste"]["cards"]]
    assert len(dealt) == {"gold-mine": 3, "blondes-and-brunettes": 1}[slug]
    said = ", ".join(dealt[:-1]) + " and " + dealt[-1] if len(dealt) > 1 else dealt[0]
    pile(page, "stock").focus()
    page.keyboard.press("d")
    expect_move_number(page, 1)
    expect(page.locator("#announce")).to_have_text(f"Dealt from the stock: {said} to the waste.")


def test_announce_never_keeps_an_older_actions_words(site, page):
    """#announce says what the last action did: after a hint or a refusal (which #message, a
    live region itself, says) it holds nothing older, and an undo says what it took back."""
    errors = watch_errors(page)
    line = Line("selective-castle", 1)
    open_game(page, site, start_game(page, "selective-castle", 1))
    announce = page.locator("#announce")
    moved = line.top("tableau:2")
    line.play(card("tableau:2", "tableau:7"))
    pile(page, "tableau:2").focus()
    page.keyboard.press("Enter")
    navigate_to(page, "tableau:7")
    page.keyboard.press("Enter")
    expect_move_number(page, 1)
    expect(announce).to_have_text(
        f"Moved the {spoken(moved)} from tableau pile 3 to tableau pile 8."
    )
    page.evaluate(_WATCH_LIVE, ["message", "announce"])

    page.keyboard.press("h")  # the hint is #message's: #announce is emptied, not given it too
    expect(page.locator("#message")).to_have_text(re.compile(r"^Hint: "))
    expect(announce).to_have_text("")
    assert not any("Hint" in text for text in live_texts(page, "announce"))

    refused = card("tableau:5", "tableau:3")  # Ten of spades onto a Four
    tap_move(page, refused)  # the pick-up is announced, then the refusal replaces it
    expect(page.locator("#message")).to_have_text(line.refusal(refused))
    expect(announce).to_have_text("")

    page.keyboard.press("u")  # #message notes it; #announce says which card went where
    expect_move_number(page, 2)
    expect(page.locator("#message")).to_have_text("Move taken back.")
    expect(announce).to_have_text(
        f"The {spoken(moved)} went back from tableau pile 8 to tableau pile 3."
    )
    assert errors == []


def test_cards_held_while_the_board_is_redrawn_stay_held_while_they_still_can(site, page):
    """A redraw (a move's answer, another tab's move) keeps the cards the player holds, picked
    up or dragged, when they are still on top of their pile; the move of those very cards puts
    them back, and #message says so."""
    errors = watch_errors(page)
    line = Line("selective-castle", 1)
    game_id = start_game(page, "selective-castle", 1)
    # The first move is held on its way to the server (on the game's websocket, which it goes
    # on), the others let through.
    held: list = []
    GameSockets(page, on_action=lambda _, forward, __: forward() if held else held.append(forward))
    open_game(page, site, game_id)
    selected = re.compile(r"\bselected\b")

    # A move's answer on its way while the player picks up another card with the keys.
    tap_move(page, card("tableau:2", "tableau:7"))
    for _ in range(200):
        if held:
            break
        page.wait_for_timeout(25)
    pile(page, "tableau:4").focus()
    page.keyboard.press("Enter")
    expect(cards(page, "tableau:4").last).to_have_class(selected)
    held[0]()
    line.play(card("tableau:2", "tableau:7"))
    expect_move_number(page, 1)
    expect(cards(page, "tableau:4").last).to_have_class(selected)
    targets = sorted(m["to"] for m in line.legal() if m["from"] == "tableau:4")
    marked = page.eval_on_selector_all(
        "#board .pile.target", "(piles) => piles.map((p) => p.dataset.pile).sort()"
    )
    assert marked == targets, (marked, targets)
    page.keyboard.press("Escape")
    expect(page.locator("#board .selected")).to_have_count(0)

    # Another tab's move arrives in the middle of a drag: the drag goes on, and drops.
    x, y = grab_point(page, "tableau:5")
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 12, y + 12, steps=3)
    expect(page.locator(".drag-ghost")).to_have_count(1)
    post_move(page, game_id, card("tableau:4", "tableau:0"), 1)
    line.play(card("tableau:4", "tableau:0"))
    expect_move_number(page, 2)
    expect(page.locator(".drag-ghost")).to_have_count(1)
    expect(cards(page, "tableau:5").last).to_have_class(re.compile(r"\bdragging\b"))
    tx, ty = drop_point(page, "tableau:0")
    page.mouse.move(tx, ty, steps=8)
    page.mouse.up()
    line.play(card("tableau:5", "tableau:0"))
    expect_move_number(page, 3)
    assert tops(page) == line.tops()

    # Another tab moves the very card held: it is put back, and #message says why.
    pile(page, "tableau:7").focus()
    page.keyboard.press("Enter")
    expect(cards(page, "tableau:7").last).to_have_class(selected)
    name = spoken(line.top("tableau:7"))
    post_move(page, game_id, card("tableau:7", "tableau:1"), 3)
    expect_move_number(page, 4)
    expect(page.locator("#message")).to_have_text(f"Put back the {name}: the board changed.")
    expect(page.locator("#board .selected, #board .target")).to_have_count(0)
    # #announce no longer says the card is picked up (a screen reader reading it again).
    expect(page.locator("#announce")).to_have_text("")
    assert errors == []


def test_a_hint_marks_the_engines_suggestion_and_the_key_h_asks_again(site, page):
    line = Line("selective-castle", 1)
    open_game(page, site, start_game(page, "selective-castle", 1))
    expect(page.locator("#hint-stat")).to_be_hidden()
    # The server's hint (the solver's look-ahead where it finds a line, else the rule of
    # thumb): the move its answer names is the one the page must mark.
    with page.expect_response(lambda answer: answer.url.endswith("/hint/")) as hinted:
        page.locator("#hint").click()
    suggested = hinted.value.json()["move"]
    assert suggested in [move.to_json() for move in line.variant.legal_moves(line.state)]
    expect(page.locator("#message")).to_have_text(re.compile(r"^Hint: move the .+ from .+ to "))
    expect(page.locator("#message")).to_have_attribute("data-kind", "info")
    # #message is a live region itself: the hint is not written to #announce too, which made
    # screen readers read it twice.
    expect(page.locator("#announce")).not_to_contain_text("Hint")
    expect(cards(page, suggested["from"]).last).to_have_class(re.compile(r"\bhinted\b"))
    expect(pile(page, suggested["to"])).to_have_class(re.compile(r"\bhinted-target\b"))
    expect(page.locator("#board .hinted")).to_have_count(suggested["count"])
    expect(page.locator("#hint-count")).to_have_text("1")
    expect_move_number(page, 0)  # a hint is not a move

    play_and_check(page, line, "tap", suggested)
    expect(page.locator("#board .hinted, #board .hinted-target")).to_have_count(0)
    page.keyboard.press("h")
    expect(page.locator("#hint-count")).to_have_text("2")
    expect(page.locator("#board .hinted-target")).to_have_count(1)


def test_a_ranked_attempt_offers_no_hint(site, page):
    page.goto(site + "/")
    today = page.evaluate("new Date().toISOString().slice(0, 10)")
    answer = call_api(page, "POST", f"/api/daily/{today}/gold-mine/attempt/")
    assert answer["status"] == 201, answer
    open_game(page, site, answer["body"]["id"])
    expect(page.locator("#hint")).to_be_hidden()
    expect(page.locator("#undo")).to_be_hidden()
    expect(page.locator("#help-undo-hint")).to_be_hidden()  # "U undoes, H suggests a move"
    page.keyboard.press("h")  # says why nothing happens, as U does
    expect(page.locator("#message")).to_have_text("Ranked games have no hints.")
    expect(page.locator("#board .hinted, #board .hinted-target")).to_have_count(0)


def watch_actions(page: Page) -> tuple[list[str], list[str]]:
    """The actions the page sends about a game (a move or deal, an undo, a hint), over REST or
    on the game's websocket (as the REST path each stands for), and the lines the browser's
    console shows as errors (a refused request leaves one)."""
    sent: list[str] = []
    console: list[str] = []
    action = re.compile(r"/api/games/\d+/(moves|undo|hint)/$")
    page.on("request", lambda r: r.method == "POST" and action.search(r.url) and sent.append(r.url))

    def on_socket(message, forward, _) -> None:
        sent.append(f"ws:/api/games/-/{SOCKET_ACTIONS[message['type']]}/")
        forward()

    GameSockets(page, on_action=on_socket)
    page.on("console", lambda m: m.type == "error" and console.append(m.text))
    return sent, console


def test_keys_that_cannot_apply_say_why_and_send_nothing(site, page):
    sent, console = watch_actions(page)
    message = page.locator("#message")

    # A new casual game: nothing to take back yet.
    open_game(page, site, start_game(page, "gold-mine", 3))
    page.keyboard.press("u")
    expect(message).to_have_text("No move to take back yet.")
    # Before the first deal no card can go to a foundation: F (Finish) sends nothing.
    expect(page.locator("#finish")).to_be_hidden()
    page.keyboard.press("f")
    expect(message).to_have_text("No card can go to a foundation now.")
    # A deal showed hidden cards, and a casual game takes it back all the same (RULINGS.md,
    # "Undo"); then nothing is left to take back, and the greyed Undo says so.
    assert sent == []
    tap_move(page, DEAL)
    expect_move_number(page, 1)
    sent.clear()  # the deal
    page.keyboard.press("u")
    expect_move_number(page, 2)
    expect(message).to_have_text("Move taken back.")
    assert [url.rsplit("/", 2)[-2] for url in sent] == ["undo"]
    sent.clear()
    page.locator("#undo").dispatch_event("click")  # the disabled button, were it clicked
    expect(message).to_have_text("No move to take back yet.")

    # A finished game: no undo, no hint, no deal.
    game_id = start_game(page, "gold-mine", 4)
    assert call_api(page, "POST", f"/api/games/{game_id}/resign/", {})["status"] == 200
    open_game(page, site, game_id)
    expect(page.locator("#result")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#result")).to_be_hidden()
    for key, words in (
        ("u", "This game is over: you resigned. No move can be taken back."),
        ("h", "This game is over: you resigned. No more hints."),
        ("d", "This game is over: you resigned."),
        ("f", "This game is over: you resigned."),
    ):
        page.keyboard.press(key)
        expect(message).to_have_text(words)

    # A ranked attempt in play: no undo, no hint.
    today = call_api(page, "GET", "/api/daily/")["body"]["date"]
    attempt = call_api(page, "POST", f"/api/daily/{today}/gold-mine/attempt/")
    assert attempt["status"] == 201, attempt
    open_game(page, site, attempt["body"]["id"])
    page.keyboard.press("u")
    expect(message).to_have_text("Ranked games have no undo.")
    page.keyboard.press("h")
    expect(message).to_have_text("Ranked games have no hints.")

    page.wait_for_timeout(300)  # room for a request, were one sent
    assert sent == [], "the page sent an action that could not apply"
    assert console == [], console


def one_move_dead_end(slug: str) -> tuple[int, dict]:
    """A seed whose deal has a first move that leaves no legal move (found by the engine)."""
    variant = get_variant(slug)
    for seed in range(200):
        state = variant.deal(seed)
        for move in variant.legal_moves(state):
            if variant.status(variant.apply(state, move)) == "lost":
                return seed, move.to_json()
    raise AssertionError(f"no {slug} deal of seed < 200 loses in one move")


def first_reveal(slug: str) -> tuple[int, dict]:
    """A seed whose deal has a first move between tableau piles that turns a card up."""
    variant = get_variant(slug)
    for seed in range(200):
        state = variant.deal(seed)
        for move in variant.legal_moves(state):
            _, events = variant.play(state, move)
            if move.type == "move" and any(e["type"] == "turned_up" for e in events):
                return seed, move.to_json()
    raise AssertionError(f"no {slug} deal of seed < 200 turns a card up at once")


def test_undo_forgives_a_reveal_and_a_dead_end_at_1280x800(site, new_context, django_user_model):
    """A casual game: a move that turned a card up is taken back (the card lies face down again,
    and the history still names it); a dead end offers Undo and End game, Undo leads out of it,
    and End game records the game as lost (games/rules/RULINGS.md, "Undo" and "Dead ends")."""
    create_players(django_user_model, "ada")
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    message = page.locator("#message")

    seed, move = first_reveal("grounds-for-divorce")
    game_id = start_game(page, "grounds-for-divorce", seed)
    open_game(page, site, game_id)
    source = page.locator(f'#board .pile[data-pile="{move["from"]}"]')
    hidden = int(source.get_attribute("data-face-down"))
    tap_move(page, move)
    expect_move_number(page, 1)
    expect(source).to_have_attribute("data-face-down", str(hidden - 1))
    expect(page.locator("#undo")).to_be_enabled()
    page.locator("#undo").click()
    expect_move_number(page, 2)
    expect(message).to_have_text("Move taken back.")
    expect(source).to_have_attribute("data-face-down", str(hidden))
    expect(page.locator("#move-count")).to_have_text("0")
    entries = call_api(page, "GET", f"/api/games/{game_id}/moves/")["body"]
    assert any(e["type"] == "turned_up" for e in entries[0]["events"]), entries
    screenshot(page, "undo-after-reveal-1280")

    seed, losing = one_move_dead_end("grandfathers-clock")
    game_id = start_game(page, "grandfathers-clock", seed)
    open_game(page, site, game_id)
    expect(page.locator("#end-game")).to_be_hidden()
    tap_move(page, losing)
    expect_move_number(page, 1)
    expect(message).to_have_text(
        "No moves left: Undo takes a move back, End game records the game as lost."
    )
    expect(page.locator("#end-game")).to_be_visible()
    expect(page.locator("#resign")).to_be_hidden()
    expect(page.locator("#undo")).to_be_enabled()
    expect(page.locator("#result")).to_be_hidden()
    screenshot(page, "dead-end-1280")
    page.locator("#undo").click()
    expect_move_number(page, 2)
    expect(page.locator("#end-game")).to_be_hidden()
    expect(page.locator("#resign")).to_be_visible()

    tap_move(page, losing)
    expect_move_number(page, 3)
    page.locator("#end-game").click()
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#result-outcome")).to_have_text("No moves left")
    shown = call_api(page, "GET", f"/api/games/{game_id}/")["body"]
    assert shown["status"] == "lost" and shown["counts"]["undos"] == 1
    screenshot(page, "dead-end-ended-1280")
    assert errors == []


@pytest.mark.parametrize(
    ("slug", "seed", "words"),
    [
        ("grandfathers-clock", 1,
         "Hint: move the Four of spades from tableau pile 1 to the 6 o'clock foundation."),
        ("blondes-and-brunettes", 5,
         "Hint: move the Nine of diamonds from the reserve to foundation 2."),
        ("blondes-and-brunettes", 3,
         "Hint: move the Four of spades from tableau pile 5 to foundation 1."),
        ("selective-castle", 215,
         "Hint: move the Four of diamonds from tableau pile 5 to foundation 1. "
         "That makes Four the base rank: its four cards lie nearest the top."),
    ],
)  # fmt: skip
def test_a_hint_names_its_piles_as_a_sentence_does(site, page, slug, seed, words):
    """The engine's suggestion for the deal in the page's words, "the" before a named pile."""
    line = Line(slug, seed)
    suggested = line.variant.hint(line.state, {line.state}).to_json()
    open_game(page, site, start_game(page, slug, seed))
    page.keyboard.press("h")
    expect(page.locator("#message")).to_have_text(words)
    expect(pile(page, suggested["to"])).to_have_class(re.compile(r"\bhinted-target\b"))


@pytest.mark.parametrize(
    ("code", "says"),
    [(4429, "Live updates stopped: reload the page"), (4404, "This game is gone")],
)
def test_a_socket_the_server_ends_for_good_says_why_instead_of_reconnecting(site, page, code, says):
    """The server's final close codes are not followed by reconnections, so the indicator must
    not promise one ("Reconnecting…")."""
    errors = watch_errors(page)
    game_id = start_game(page, "gold-mine", 3)
    opened: list[str] = []

    def refuse(ws) -> None:  # stands in for the server closing this page's socket
        opened.append(ws.url)
        ws.close(code=code, reason="")

    page.route_web_socket(re.compile(r"/ws/games/"), refuse)
    open_game(page, site, game_id, live=False)
    expect(page.locator("#live")).to_have_text(says)
    page.wait_for_timeout(3000)  # the usual backoff would have tried twice by now
    expect(page.locator("#live")).to_have_text(says)
    assert len(opened) == 1
    assert errors == []


KEPT_MESSAGE = (
    "Not sent yet: 1 move waits for the connection, and will be sent as soon as it is back."
)


def test_a_move_the_server_was_out_of_reach_for_is_sent_once_the_game_arrives_again(site, page):
    """The move is kept (outbox.js), said to be waiting, and sent when the websocket
    reconnects; the message then says it went. The server is out of reach both ways: the move
    sent on the websocket is lost on the way (no answer comes: it goes over REST, with the same
    key, a few seconds later), and REST fails too."""
    line = Line("selective-castle", 1)
    game_id = start_game(page, "selective-castle", 1)
    relayed = GameSockets(page)  # the real socket, which the test can cut and drop
    open_game(page, site, game_id)
    keys: list[str] = []

    def unreachable(route) -> None:
        keys.append(route.request.headers["idempotency-key"])
        route.abort()

    page.route(re.compile(r"/api/games/\d+/moves/"), unreachable)
    relayed.cut = True
    tap_move(page, card("tableau:2", "tableau:7"))
    message = page.locator("#message")
    expect(message).to_have_text(KEPT_MESSAGE, timeout=20_000)
    expect(page.locator("#board")).to_have_attribute("data-pending", "1")
    expect_move_number(page, 0)
    assert len(relayed.actions) == 1 and keys, (relayed.actions, keys)
    assert set(keys) == {relayed.actions[0]["idempotency_key"]}

    page.unroute(re.compile(r"/api/games/\d+/moves/"))
    relayed.cut = False
    # The connection drops; the page reconnects and gets the game again.
    relayed.sockets[-1].close()
    expect(page.locator("#live")).to_have_text("Live")
    expect_move_number(page, 1)
    expect(message).to_have_text("Connection back: the moves kept meanwhile were sent.")
    assert len(relayed.sockets) == 2
    line.play(card("tableau:2", "tableau:7"))
    assert line.tops() == tops(page)


def test_a_proxys_error_page_keeps_the_move_until_the_server_answers_again(site, page):
    """A 502 from a proxy (the server behind it restarting) changes nothing on the board; the
    move waits, and goes once the proxy lets it through. (The proxy lets no websocket through
    either: the page's writes go over REST.)"""
    line = Line("selective-castle", 1)
    game_id = start_game(page, "selective-castle", 1)
    relayed = GameSockets(page)
    relayed.cut = True
    open_game(page, site, game_id, live=False)
    before = snapshot(page)
    page.route(
        re.compile(r"/api/games/\d+/moves/"),
        lambda route: route.fulfill(status=502, content_type="text/html", body="<h1>Bad</h1>"),
    )
    tap_move(page, card("tableau:2", "tableau:7"))
    expect(page.locator("#message")).to_have_text(KEPT_MESSAGE)
    assert snapshot(page) == before
    expect_move_number(page, 0)
    page.unroute(re.compile(r"/api/games/\d+/moves/"))
    expect(page.locator("#board")).to_have_attribute("data-move-number", "1", timeout=20_000)
    line.play(card("tableau:2", "tableau:7"))
    assert line.tops() == tops(page)


def test_a_game_that_could_not_load_is_asked_for_again(site, page):
    game_id = start_game(page, "gold-mine", 3)
    failing = re.compile(rf"/api/games/{game_id}/$")
    page.route(failing, lambda route: route.abort())
    page.goto(f"{site}/play/{game_id}/")
    expect(page.locator("#message")).to_have_text(
        "Could not load the game: the server cannot be reached. Trying again…"
    )
    page.unroute(failing)
    board_ready(page)  # loaded and live, without a reload
    expect(page.locator("#message")).to_have_text("")
    expect(page.locator("#game-title")).to_have_text("Gold Mine")


def test_a_card_tapped_or_entered_after_the_end_says_the_game_is_over(site, page):
    game_id = start_game(page, "selective-castle", 1)
    call_api(page, "POST", f"/api/games/{game_id}/resign/", {})
    open_game(page, site, game_id)
    page.keyboard.press("Escape")  # the result dialog
    message = page.locator("#message")
    pile(page, "tableau:0").focus()
    page.keyboard.press("Enter")
    expect(message).to_have_text("This game is over: you resigned.")
    page.evaluate("() => { document.getElementById('message').textContent = ''; }")
    cards(page, "tableau:1").last.click()
    expect(message).to_have_text("This game is over: you resigned.")


def test_left_and_right_keep_to_the_row_before_another_row(site, page):
    """Right from a pile goes to the next pile in its row, even when a pile of the row below is
    nearer, and a sideways fan (the reserve) is reached by its first card."""
    open_game(page, site, start_game(page, "grounds-for-divorce", 1))
    pile(page, "discard").focus()
    page.keyboard.press("ArrowRight")
    assert focused_pile(page) == "stock"
    page.keyboard.press("ArrowLeft")
    assert focused_pile(page) == "discard"

    open_game(page, site, start_game(page, "blondes-and-brunettes", 1))
    pile(page, "stock").focus()
    page.keyboard.press("ArrowRight")
    assert focused_pile(page) == "waste"
    page.keyboard.press("ArrowRight")
    assert focused_pile(page) == "reserve"
    page.keyboard.press("ArrowLeft")
    assert focused_pile(page) == "waste"
    page.keyboard.press("ArrowDown")
    assert (focused_pile(page) or "").startswith("foundation:")


def test_the_help_speaks_of_foundations_and_a_stock_only_in_games_that_have_them(site, page):
    open_game(page, site, start_game(page, "grounds-for-divorce", 1))
    help_text = page.locator("#board-help")
    expect(help_text).to_contain_text(
        "tap a card then a pile; tap the stock to deal. Keyboard:", use_inner_text=True
    )
    expect(help_text).to_contain_text("Esc puts back, D deals, U undoes", use_inner_text=True)
    expect(help_text).not_to_contain_text("foundation", use_inner_text=True)  # as shown

    for slug in ("selective-castle", "grandfathers-clock"):  # everything dealt at once
        open_game(page, site, start_game(page, slug, 1))
        expect(help_text).to_contain_text(
            "tap a card then a pile; double-tap sends a card to a foundation. Keyboard:",
            use_inner_text=True,
        )
        expect(help_text).to_contain_text("Esc puts back, F sends", use_inner_text=True)
        expect(help_text).not_to_contain_text("stock", use_inner_text=True)
        expect(help_text).not_to_contain_text("D deals", use_inner_text=True)

    line = Line("gold-mine", 1)
    open_game(page, site, start_game(page, "gold-mine", 1))
    expect(help_text).to_contain_text("double-tap sends a card to a foundation")
    expect(help_text).to_contain_text("F sends the cards that can go to the foundations")

    # Picking up names the pile as a sentence does, as the move's announcement will.
    line.play(DEAL)
    page.keyboard.press("d")
    expect_move_number(page, 1)
    pile(page, "waste").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#announce")).to_contain_text(
        f"Picked up the {card_name(parse_card(line.top('waste')))} from the waste."
    )


def test_a_move_made_stale_elsewhere_redraws_the_board_and_says_why_once(site, page):
    errors = watch_errors(page)
    line = Line("selective-castle", 1)
    game_id = start_game(page, "selective-castle", 1)
    # A socket that brings nothing: the page does not hear of the move made elsewhere.
    page.route_web_socket(re.compile(r"/ws/games/"), lambda ws: None)
    open_game(page, site, game_id, live=False)
    page.evaluate(_WATCH_LIVE, ["message"])
    elsewhere = card("tableau:2", "tableau:7")
    line.play(elsewhere)
    post_move(page, game_id, elsewhere, 0)

    tap_move(page, elsewhere)  # the same move, from the board the page still shows
    expect_move_number(page, 1)
    message = page.locator("#message")
    expect(message).to_have_text(
        "The game moved on in another tab or device. The board now shows the latest position."
    )
    assert tops(page) == line.tops()
    said = [text for text in live_texts(page, "message") if text]
    assert len(said) == 1, said  # once, with the board already redrawn
    assert errors == []


def test_a_finished_random_deal_can_be_played_again_from_its_result(site, page):
    from games.models import Game

    game_id = start_game(page, "blondes-and-brunettes")
    open_game(page, site, game_id)
    expect(page.locator("#result-again")).to_be_hidden()
    page.locator("#resign").click()
    page.locator("#confirm-resign").click()
    result = page.locator("dialog#result")
    expect(result).to_be_visible()
    seed = Game.objects.select_related("deal").get(pk=game_id).deal.seed
    expect(result.locator("#result-seed-text")).to_have_text(
        f"Deal number {seed}: anyone can play this deal with it."
    )
    # Its link, to share: the lobby deals it to whoever opens it.
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site)
    result.locator("#copy-deal-link").click()
    expect(result.locator("#copy-deal-link")).to_have_text("Link copied")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == f"{site}/?deal=blondes-and-brunettes&seed={seed}"

    result.locator("#result-again").click()
    again = Game.objects.select_related("deal").get(pk=wait_for_new_game(page, game_id))
    board_ready(page)
    assert (again.deal.variant, again.deal.seed) == ("blondes-and-brunettes", seed)
    assert again.seed_chosen and not again.ranked and again.status == "playing"
    assert tops(page) == Line("blondes-and-brunettes", seed).tops()
