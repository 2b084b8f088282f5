"""A page refused for too many open connections (close code 4430) says so and does not hammer the
server with reconnections, in a real browser against a server with a cap of one per account."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.frontend.browser_helpers import (
    create_players,
    open_game,
    sign_in,
    start_game,
    watch_errors,
)
from tests.frontend.conftest import serve_site

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def capped_site(browser, transactional_db):
    yield from serve_site(WEBSOCKET_CONNECTIONS_PER_ACCOUNT="1")


def test_a_page_over_the_accounts_cap_says_so_and_waits_instead_of_reconnecting(
    capped_site, new_context, django_user_model
):
    create_players(django_user_model, "ada")
    context = new_context()
    first = context.new_page()
    sign_in(first, capped_site, "ada")
    game_id = start_game(first, "gold-mine", seed=3)
    open_game(first, capped_site, game_id)  # live: the account's one connection

    second = context.new_page()
    errors = watch_errors(second)
    opened: list[str] = []
    second.on("websocket", lambda ws: opened.append(ws.url))
    # Every text the live indicator shows, from the page's first moment.
    second.add_init_script(
        """window.liveTexts = [];
           new MutationObserver(() => {
             const live = document.getElementById("live");
             if (live && live.textContent !== window.liveTexts.at(-1)) {
               window.liveTexts.push(live.textContent);
             }
           }).observe(document, {subtree: true, childList: true, characterData: true});"""
    )
    open_game(second, capped_site, game_id, live=False)
    refused = "Too many live pages open: moves still save; retrying in a minute"
    expect(second.locator("#live")).to_have_text(refused)
    second.wait_for_timeout(4000)  # the usual backoff would have tried 3 times by now
    assert len(opened) == 1
    assert "Live" not in second.evaluate("window.liveTexts")  # it never was live
    expect(first.locator("#live")).to_have_attribute("data-state", "open")

    # The player closes the other page and comes back to this one: it connects at once.
    first.close()
    second.wait_for_timeout(1000)  # its socket's end reaches the server (the page waits too)
    second.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(second.locator("#live")).to_have_attribute("data-state", "open", timeout=5000)
    expect(second.locator("#live")).to_have_text("Live")
    assert len(opened) == 2
    assert errors == []
