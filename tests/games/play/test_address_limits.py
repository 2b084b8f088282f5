"""The costly requests limited per player AND per client address (games.play.throttling): a
request passes only when both budgets have room; a guest gets a guest's share, and the guests
made from one address share its one budget; daily replays count as game creation; a player
holds at most a few winnable deals unplayed, and one account cannot empty the pool."""

from __future__ import annotations

import datetime as dt
import threading
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games.errors import GameError
from games.models import Game, WinnableDeal
from games.play import hint_service as play_hints
from games.play.throttling import counted_address
from tests.games.helpers import DAY, DailyClock, daily_url, make_user, new_game
from tests.games.play.test_limits import assert_throttled, hint, limits
from tests.support.threads import answered, run_in_threads

pytestmark = pytest.mark.django_db(transaction=True)

SCHOOL = "198.51.100.20"
ELSEWHERE = "192.0.2.99"


def at(address: str, user: Any = None) -> APIClient:
    """A client signed in as ``user`` (a new account when omitted), calling from ``address``."""
    client = APIClient(REMOTE_ADDR=address)
    client.force_authenticate(user or make_user())
    return client


def guest_at(address: str) -> tuple[APIClient, dict[str, Any]]:
    """A visitor at ``address`` whose "New deal" makes a guest: the client and its game."""
    client = APIClient(REMOTE_ADDR=address)
    assert client.get("/api/auth/csrf/").status_code == 200
    return client, new_game(client, "gold-mine", seed=11)


def create(client: APIClient, **fields: Any) -> Any:
    return client.post("/api/games/", {"variant": "gold-mine", **fields}, format="json")


def test_the_address_budgets_are_settings_larger_than_a_players_and_a_guest_gets_half() -> None:
    from django.conf import settings

    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    assert rates["hint"] == "20/min" and rates["hint_guest"] == "10/min"
    assert rates["hint_address"] == f"{settings.HINTS_PER_ADDRESS_PER_MINUTE}/min" == "60/min"
    assert rates["game_create"] == "30/min" and rates["game_create_guest"] == "15/min"
    assert rates["game_create_address"] == "120/min"
    assert rates["winnable"] == "20/hour" and rates["winnable_guest"] == "10/hour"
    assert rates["winnable_address"] == "40/hour"
    assert settings.HINT_SEARCHES_PER_ADDRESS == 2
    assert settings.UNPLAYED_WINNABLE_LIMIT == 3
    assert settings.GUEST_SHARE_PERCENT == 50


def test_accounts_behind_one_address_share_its_larger_budget(settings: Any) -> None:
    limits(settings, game_create="3/min", game_create_address="5/min")
    first, second = at(SCHOOL), at(SCHOOL)
    assert [create(first).status_code for _ in range(3)] == [201] * 3
    assert_throttled(create(first))  # the player's own budget
    # The refusal took back its count at the address: the second player has 2 of its 5 left.
    assert [create(second).status_code for _ in range(2)] == [201] * 2
    refused = create(second)  # 2 of the player's 3, but the address's 5 are spent
    assert_throttled(refused)
    assert "sharing your address" in refused.json()["error"]["message"]
    assert Game.objects.count() == 5
    assert create(at(ELSEWHERE)).status_code == 201  # another address is not held up


def test_guests_from_one_address_get_a_guests_share_and_share_one_budget(settings: Any) -> None:
    limits(settings, hint="4/min", hint_guest="2/min", hint_address="5/min")
    settings.HINT_SECONDS = 0  # today's heuristic hint: this test is about counting
    first, first_game = guest_at(SCHOOL)
    assert [hint(first, first_game["id"]).status_code for _ in range(2)] == [200, 200]
    assert_throttled(hint(first, first_game["id"]))  # a guest's share: 2, not an account's 4
    answers = []
    for _ in range(3):  # more guests from the same address: 3 hints left there, in all
        client, game = guest_at(SCHOOL)
        answers += [hint(client, game["id"]).status_code for _ in range(2)]
    assert answers == [200, 200, 200, 429, 429, 429]
    assert Game.objects.filter(hint_count__gt=0).count() == 3
    account = at(ELSEWHERE)
    game = new_game(account, "gold-mine", seed=11)
    assert [hint(account, game["id"]).status_code for _ in range(5)] == [200] * 4 + [429]


def test_an_ipv6_address_counts_with_its_64() -> None:
    assert counted_address("2001:db8:1:2:aaaa::1") == counted_address("2001:db8:1:2:bbbb::9")
    assert counted_address("2001:db8:1:2::1") != counted_address("2001:db8:1:3::1")
    assert counted_address("::ffff:198.51.100.20") == SCHOOL
    assert counted_address(SCHOOL) == SCHOOL


def test_the_addresss_budget_counts_an_ipv6_64_as_one(settings: Any) -> None:
    limits(settings, game_create="10/min", game_create_address="2/min")
    assert create(at("2001:db8:1:2::1")).status_code == 201
    assert create(at("2001:db8:1:2::2")).status_code == 201
    assert_throttled(create(at("2001:db8:1:2:ffff::3")))
    assert create(at("2001:db8:1:3::1")).status_code == 201


def test_a_daily_replay_counts_as_starting_a_game(settings: Any, clock: DailyClock) -> None:
    limits(settings, game_create="2/min")
    client = at(SCHOOL)
    past = DAY - dt.timedelta(days=2)  # a closed day: its replay is open to anyone
    assert create(client).status_code == 201
    url = daily_url(past, "gold-mine", "replay")
    assert client.post(url, format="json").status_code == 201
    refused = client.post(url, format="json")
    assert_throttled(refused)
    assert Game.objects.filter(daily__isnull=False).count() == 1
    assert_throttled(create(client))  # one budget for both


def test_daily_replays_from_one_address_share_its_budget(settings: Any, clock: DailyClock) -> None:
    limits(settings, game_create="30/min", game_create_address="3/min")
    url = daily_url(DAY - dt.timedelta(days=2), "gold-mine", "replay")
    statuses = [at(SCHOOL).post(url, format="json").status_code for _ in range(4)]
    assert statuses == [201, 201, 201, 429]


def test_a_ranked_attempt_counts_in_the_game_creation_budget(
    settings: Any, clock: DailyClock
) -> None:
    limits(settings, game_create="30/min", game_create_address="2/min")
    client = at(SCHOOL)
    assert create(client).status_code == 201
    assert client.post(daily_url(DAY, "gold-mine", "attempt"), format="json").status_code == 201
    refused = at(SCHOOL).post(daily_url(DAY, "gold-mine", "attempt"), format="json")
    assert_throttled(refused)
    assert Game.objects.filter(ranked=True).count() == 1


# -- winnable deals ------------------------------------------------------------------------


def fill_pool(count: int, slug: str = "gold-mine") -> None:
    """Deals put in the pool with a made-up certificate (the API never reads it)."""
    for seed in range(100, 100 + count):
        WinnableDeal.objects.create(
            variant=slug, seed=seed, moves=[{"type": "deal"}], positions=10, seconds=0.01
        )


def test_a_player_holds_at_most_three_winnable_deals_unplayed(settings: Any) -> None:
    limits(settings, winnable=None, winnable_address=None)
    fill_pool(10)
    client = at(SCHOOL)
    held = [create(client, winnable=True).json() for _ in range(3)]
    refused = create(client, winnable=True)
    assert refused.status_code == 409, refused.content
    error = refused.json()["error"]
    assert error["code"] == "too_many_unplayed_winnable"
    assert "play or resign one" in error["message"]
    assert error["games"] == [game["id"] for game in held]
    assert WinnableDeal.objects.filter(dealt_at__isnull=True).count() == 7  # nothing taken
    assert Game.objects.count() == 3
    # A random deal is still allowed, and so is another player's winnable one.
    assert create(client).status_code == 201
    assert create(at(SCHOOL), winnable=True).status_code == 201
    # A move made in one of them frees a place; so does resigning another.
    game = held[0]
    move = {"move": game["legal_moves"][0]}
    moved = client.post(f"/api/games/{game['id']}/moves/", move, format="json")
    assert moved.status_code == 201, moved.content
    assert create(client, winnable=True).status_code == 201
    assert client.post(f"/api/games/{held[1]['id']}/resign/", format="json").status_code == 200
    assert create(client, winnable=True).status_code == 201
    assert create(client, winnable=True).status_code == 409


def test_one_account_cannot_empty_the_pool(settings: Any) -> None:
    """The review's 30 asks: 20 served, then everyone else 503. Now three unplayed ones at
    most, and asks that leave each deal unplayed and ask again stop at the hour's budget,
    every ask counted (the refused one too)."""
    fill_pool(20)
    limits(settings, winnable="6/hour", game_create=None)
    client = at(SCHOOL)
    statuses = [create(client, winnable=True).status_code for _ in range(4)]
    assert statuses == [201, 201, 201, 409]
    for game in Game.objects.all():  # leave each one unplayed (deleted), ask again
        assert client.post(f"/api/games/{game.pk}/abandon/", format="json").status_code == 200
    statuses = [create(client, winnable=True).status_code for _ in range(30)]
    assert statuses == [201, 201] + [429] * 28
    assert WinnableDeal.objects.filter(dealt_at__isnull=True).count() == 15
    assert create(at(ELSEWHERE), winnable=True).status_code == 201


def test_the_addresss_winnable_budget_is_shared(settings: Any) -> None:
    fill_pool(10)
    limits(settings, winnable_address="4/hour")
    statuses = [create(at(SCHOOL), winnable=True).status_code for _ in range(6)]
    assert statuses == [201] * 4 + [429] * 2
    assert create(at(ELSEWHERE), winnable=True).status_code == 201


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="threads on the in-memory SQLite test database lock each other's tables: PostgreSQL",
)
def test_winnable_asks_sent_at_once_hold_no_more_than_the_cap(settings: Any) -> None:
    limits(settings, winnable=None, winnable_address=None, game_create=None)
    fill_pool(12)
    user = make_user()

    def ask(index: int) -> tuple[int, Any]:
        return answered(create(at(SCHOOL, user), winnable=True))

    statuses = [status for status, _ in run_in_threads(ask, 8, timeout=60)]
    assert sorted(statuses) == [201] * 3 + [409] * 5
    assert Game.objects.filter(owner=user).count() == 3


# -- hint searches at once, per address ---------------------------------------------------------


def test_an_address_has_at_most_two_hint_searches_at_once(settings: Any) -> None:
    limits(settings, hint=None, hint_address=None)
    settings.HINT_SECONDS = 0
    players = [make_user() for _ in range(3)]
    games = [new_game(at(SCHOOL, player), "gold-mine", seed=11) for player in players]
    school = counted_address(SCHOOL)
    with play_hints.one_search_at_a_time(players[0], school):
        with play_hints.one_search_at_a_time(players[1], school):
            refused = hint(at(SCHOOL, players[2]), games[2]["id"])
            assert_throttled(refused, code="hint_in_progress", most_seconds=5)
            assert "at your address" in refused.json()["error"]["message"]
            elsewhere = at(ELSEWHERE)
            assert hint(elsewhere, new_game(elsewhere, "gold-mine")["id"]).status_code == 200
        assert hint(at(SCHOOL, players[2]), games[2]["id"]).status_code == 200  # one given back
    assert Game.objects.get(pk=games[2]["id"]).hint_count == 1


def test_a_refused_address_claim_gives_back_the_players_claim(settings: Any) -> None:
    settings.HINT_SEARCHES_PER_ADDRESS = 1
    user, other = make_user(), make_user()
    with (
        play_hints.one_search_at_a_time(other, SCHOOL),
        pytest.raises(GameError, match="at your address"),
        play_hints.one_search_at_a_time(user, SCHOOL),
    ):
        pass
    with play_hints.one_search_at_a_time(user, SCHOOL):  # neither claim was kept
        pass


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="threads on the in-memory SQLite test database lock each other's tables: PostgreSQL",
)
def test_hints_of_many_guests_at_one_address_search_two_at_a_time(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    limits(settings, hint=None, hint_guest=None, hint_address=None)
    settings.HINT_SECONDS = 0
    searching = most = 0
    lock = threading.Lock()
    real_search = play_hints.lookahead_hint
    release = threading.Event()

    def slow_search(*args: Any, **kwargs: Any) -> Any:
        nonlocal searching, most
        with lock:
            searching += 1
            most = max(most, searching)
        try:
            release.wait(0.5)
            return real_search(*args, **kwargs)
        finally:
            with lock:
                searching -= 1

    monkeypatch.setattr(play_hints, "lookahead_hint", slow_search)
    guests = [guest_at(SCHOOL) for _ in range(6)]

    def ask(index: int) -> tuple[int, Any]:
        client, game = guests[index]
        return answered(hint(client, game["id"]))

    answers = run_in_threads(ask, 6, timeout=60)
    assert {status for status, _ in answers} <= {200, 429}
    assert [status for status, _ in answers].count(200) >= 1
    assert all(b["error"]["code"] == "hint_in_progress" for s, b in answers if s == 429)
    assert most <= 2


def test_a_hint_refused_while_searches_run_spends_no_budget(settings: Any) -> None:
    """A crowd waiting for its address's searches would otherwise spend the address's budget
    on refusals alone (40 guests: 8 hints answered in 35 s, the rest refused)."""
    limits(settings, hint="2/min", hint_address="3/min")
    settings.HINT_SECONDS = 0
    players = [make_user() for _ in range(3)]
    games = [new_game(at(SCHOOL, player), "gold-mine", seed=11) for player in players]
    school = counted_address(SCHOOL)
    with (
        play_hints.one_search_at_a_time(players[0], school),
        play_hints.one_search_at_a_time(players[1], school),
    ):
        for _ in range(5):
            refused = hint(at(SCHOOL, players[2]), games[2]["id"])
            assert_throttled(refused, code="hint_in_progress", most_seconds=5)
    with play_hints.one_search_at_a_time(players[2], school):  # the player's own search
        for _ in range(5):
            refused = hint(at(SCHOOL, players[2]), games[2]["id"])
            assert_throttled(refused, code="hint_in_progress", most_seconds=5)
    asked = [hint(at(SCHOOL, players[2]), games[2]["id"]).status_code for _ in range(3)]
    assert asked == [200, 200, 429]  # the player's 2, every refusal given back
    assert hint(at(SCHOOL, players[0]), games[0]["id"]).status_code == 200  # the address's 3rd
    assert_throttled(hint(at(SCHOOL, players[1]), games[1]["id"]))


def test_a_winnable_ask_from_a_browser_session_is_answered_not_a_server_error() -> None:
    # A session's request.user is a lazy object, not the user model: the unplayed-winnable
    # check once took its type for the model and answered 500 to every signed-in browser.
    from tests.support.api import signed_in

    client = signed_in(make_user())
    answer = client.post(
        "/api/games/", {"variant": "gold-mine", "winnable": True}, content_type="application/json"
    )
    assert answer.status_code == 503 and answer.json()["error"]["code"] == "no_winnable_deal"
    WinnableDeal.objects.create(variant="gold-mine", seed=5, moves=[], positions=1, seconds=0.1)
    answer = client.post(
        "/api/games/", {"variant": "gold-mine", "winnable": True}, content_type="application/json"
    )
    assert answer.status_code == 201 and Game.objects.get(pk=answer.json()["id"]).winnable
