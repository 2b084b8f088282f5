"""The play page does not say "Live" while its updates are lost: when the server's Redis goes
away it says "Reconnecting…", and once Redis is back it shows the move made meanwhile by
itself (a real browser, a server on a Redis of the test's own that the test stops)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.frontend.browser_helpers import (
    create_players,
    expect_move_number,
    open_game,
    post_move,
    sign_in,
    start_game,
    watch_errors,
)
from tests.frontend.conftest import serve_site
from tests.redis_server import PrivateRedis, private_redis

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def redis_server() -> Iterator[PrivateRedis]:
    yield from private_redis()


@pytest.fixture
def outage_site(browser, transactional_db, redis_server) -> Iterator[str]:
    yield from serve_site(REDIS_URL=redis_server.url, LIVE_LAYER_CHECK_SECONDS="1")


def test_the_play_page_says_reconnecting_during_an_outage_and_catches_up_after(
    outage_site, redis_server, new_context, django_user_model
):
    create_players(django_user_model, "ada")
    page = new_context().new_page()
    errors = watch_errors(page)
    sign_in(page, outage_site, "ada")
    game_id = start_game(page, "gold-mine", seed=3)
    open_game(page, outage_site, game_id)
    expect(page.locator("#live")).to_have_text("Live")

    redis_server.stop()
    post_move(page, game_id, {"type": "deal"}, 0)  # moves do not need Redis
    expect(page.locator("#live")).to_have_text("Reconnecting…")
    expect_move_number(page, 0)

    redis_server.start()
    expect(page.locator("#live")).to_have_text("Live", timeout=30_000)
    expect_move_number(page, 1)  # the move made during the outage, caught up
    assert errors == []
