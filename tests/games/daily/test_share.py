"""Share: GET /api/daily/{date}/share/, the spoiler-free text of a player's day.

A line per finished attempt of the day (catalogue order): won or not, moves, time, rank of N,
cards home when not won; then the day's page. Nothing of the deal: no card, no seed, no move.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest

from games.daily import share
from games.models import Game
from games.rules import VARIANTS, get_variant
from games.rules.cards import new_deck
from tests.games.helpers import DAY, anonymous_client, client_for, daily_game, make_user

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2031, 5, 10, 8, 0, tzinfo=dt.UTC)


def finished(user: Any, slug: str, status: str, moves: int, seconds: int, **fields: Any) -> Game:
    end = T0 + dt.timedelta(seconds=seconds)
    return daily_game(
        user, DAY, slug, status=status, board_moves=moves, created_at=T0, last_move_at=end,
        finished_at=end, **fields,
    )  # fmt: skip


def card(client: Any, date: dt.date = DAY) -> Any:
    return client.get(f"/api/daily/{date}/share/")


def test_the_text_has_a_line_per_game_played_and_the_days_link(clock):
    me, rival = make_user("me"), make_user("rival")
    finished(rival, "gold-mine", "won", 80, 100, cards_home=52)
    finished(me, "gold-mine", "won", 84, 192, cards_home=52)
    finished(me, "selective-castle", "resigned", 60, 301, cards_home=38)
    daily_game(me, DAY, "grandfathers-clock", status="playing")  # in play: not a result yet
    response = card(client_for(me))
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["text"].splitlines() == [
        "Patience · 10 May 2031",
        "\u2705 Gold Mine · 84 moves · 3:12 · 2nd of 2",
        "\u274c Selective Castle · 60 moves · 5:01 · 1st of 1 · 38/52 home",
        "http://testserver/daily/?date=2031-05-10",
    ]
    assert body["path"] == "/daily/?date=2031-05-10"
    assert [g["variant"] for g in body["games"]] == ["gold-mine", "selective-castle"]


def test_the_text_says_nothing_of_the_deal(clock):
    """No card by code, symbol or name, no seed, no move: only the leaderboard's figures."""
    me = make_user()
    games = [finished(me, slug, "lost", 7, 65, cards_home=11) for slug in VARIANTS]
    text = card(client_for(me)).json()["text"]
    words = set(re.findall(r"[A-Za-z0-9]+", text))
    for game in games:
        assert str(game.deal.seed) not in words
    # Card names and symbols: ranks and suits as the pages write them.
    assert not re.search(
        r"[\u2660-\u2667]|\b(ace|king|queen|jack|spades?|hearts?|clubs?|diamonds?)\b", text, re.I
    )
    assert not re.search(r"\b(10|[2-9AJQK])[SHDC]\b", text)
    assert "stock" not in text.lower() and "tableau" not in text.lower()
    # Cards home of the pack, a number no deal changes: 52 a deck.
    assert "11/104 home" in text and "11/52 home" in text
    assert len(new_deck(get_variant("blondes-and-brunettes").decks)) == 104


def test_before_any_game_is_over_there_is_nothing_to_share(clock):
    me = make_user()
    daily_game(me, DAY, "gold-mine", status="playing")
    response = card(client_for(me))
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "nothing_to_share"


def test_share_is_for_accounts(clock):
    from accounts.guests import create_guest

    guest = create_guest(client_ip="10.2.2.2")
    assert card(client_for(guest)).status_code == 403
    assert card(anonymous_client()).status_code in (401, 403)


@pytest.mark.parametrize(
    ("n", "word"), [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"),
                    (13, "13th"), (21, "21st"), (102, "102nd"), (111, "111th")],
)  # fmt: skip
def test_ranks_read_as_ordinals(n, word):
    assert share.ordinal(n) == word


def test_times_read_as_the_boards_show_them():
    assert [share.clock(s) for s in (0, 9.9, 65, 3600, 3723)] == [
        "0:00", "0:09", "1:05", "1:00:00", "1:02:03",
    ]  # fmt: skip
