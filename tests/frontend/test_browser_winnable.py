"""The lobby's "Winnable deals only": a new deal from the pool of proven-winnable deals,
remembered for the player in this browser, and the server's refusal shown when none is ready."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Game, WinnableDeal
from tests.frontend.browser_helpers import make_a_move, release_connection

pytestmark = pytest.mark.django_db(transaction=True)

CLOCK = "grandfathers-clock"


def test_winnable_deals_only_deals_from_the_pool_and_is_remembered(site, page):
    page.goto(site + "/")
    box = page.locator("#winnable-only")
    expect(box).not_to_be_checked()
    box.check()
    new_deal = page.locator(f'.new-deal[data-variant="{CLOCK}"]')

    # None ready: the server's words, and the lobby stays.
    new_deal.click()
    expect(page.locator("#lobby-message")).to_contain_text("Try again shortly, or play any deal")
    expect(new_deal).to_be_enabled()

    WinnableDeal.objects.create(variant=CLOCK, seed=31, moves=[], positions=1, seconds=0.1)
    release_connection()
    new_deal.click()
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    game = Game.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
    assert game.winnable and game.deal.seed == 31
    release_connection()
    expect(page.locator("#badges")).to_contain_text("Can be won")
    make_a_move(page, game.pk)  # a game with no move is in no list

    # Remembered for this player: ticked on the next visit, and the saved game says so.
    page.goto(site + "/")
    expect(page.locator("#winnable-only")).to_be_checked()
    expect(page.locator(".saved-game .badge.winnable")).to_have_text("Winnable")
    page.locator("#winnable-only").uncheck()
    page.reload()
    expect(page.locator("#winnable-only")).not_to_be_checked()
