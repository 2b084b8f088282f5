"""Races between a player's action and something else that writes the same game, at the same moment.

Run on PostgreSQL (row locks are the point): on SQLite they skip, and under CI
(PATIENCE_REQUIRE_POSTGRES=1) the run fails before it gets here if PostgreSQL is missing. Each
race is started from a barrier in several threads, several times over, and every thread's
answer is collected: any exception or server error fails the test.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from accounts import services as account_services
from games.daily import services as daily_services
from games.models import Game, Move
from tests.games.helpers import DAY, DailyClock, client_for, make_user, play, start_daily
from tests.support.threads import answered, run_in_threads

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: PostgreSQL only"),
]

ROUNDS = 6
PASSWORD = "leaving-pass-123"


def history_numbers(game_id: int) -> list[int]:
    return list(
        Move.objects.filter(game_id=game_id).order_by("number").values_list("number", flat=True)
    )


def test_the_day_closer_and_moves_at_midnight_close_each_attempt_once(clock: DailyClock) -> None:
    players = [client_for() for _ in range(ROUNDS)]
    attempts = [
        play(client, start_daily(client, DAY, "gold-mine")["id"], {"type": "deal"})
        for client in players
    ]
    clock.advance()  # midnight UTC: the day is over, its attempts not yet closed

    def race(index: int) -> Any:
        if index == 0:
            return daily_services.close_unfinished_attempts()
        client, attempt = players[index % ROUNDS], attempts[index % ROUNDS]
        url = f"/api/games/{attempt['id']}/moves/"
        return answered(client.post(url, {"move": {"type": "deal"}}, format="json"))

    closed_by_closer, *moves = run_in_threads(race, 1 + 2 * ROUNDS)
    # Every move lost the day: refused as closed, whoever closed the attempt.
    assert all(status == 409 for status, _ in moves), moves
    assert {body["error"]["code"] for _, body in moves} == {"challenge_closed"}
    ids = [attempt["id"] for attempt in attempts]
    assert set(closed_by_closer) <= set(ids)
    for game in Game.objects.filter(pk__in=ids):
        assert game.status == Game.Status.CLOSED
        entries = Move.objects.filter(game=game).order_by("number")
        # Closed once, and the refused moves not applied.
        assert list(entries.values_list("payload", flat=True)) == [
            {"type": "deal"},
            {"type": "close"},
        ]
        assert history_numbers(game.pk) == [1, 2] and game.move_number == 2


def test_closing_an_account_while_its_moves_are_played_leaves_no_trace_and_no_error() -> None:
    last_seen: list[int] = []
    for round_number in range(ROUNDS):
        user = get_user_model().objects.create_user(f"leaving{round_number}", password=PASSWORD)
        client = client_for(user)
        game = client.post("/api/games/", {"variant": "gold-mine", "seed": 3}, format="json")
        url = f"/api/games/{game.json()['id']}/moves/"

        def race(index: int, user: Any = user, client: Any = client, url: str = url) -> Any:
            if index == 0:
                account_services.delete_account(user=user, password=PASSWORD, client_ip="192.0.2.7")
                return [0]
            # Moves until the game is gone with its account (404), so they overlap the closing.
            statuses = []
            while len(statuses) < 200 and 404 not in statuses:
                status, _ = answered(client.post(url, {"move": {"type": "deal"}}, format="json"))
                statuses.append(status)
            return statuses

        _, *played = run_in_threads(race, 3)
        # A move either landed before the account went (and went with it) or found no game.
        assert all(set(statuses) <= {201, 400, 404, 409} for statuses in played), played
        last_seen += [statuses[-1] for statuses in played]
        assert not get_user_model().objects.filter(pk=user.pk).exists()
        assert not Game.objects.filter(owner_id=user.pk).exists()
        assert not Move.objects.filter(game__owner_id=user.pk).exists()
    assert 404 in last_seen  # the moves did meet the closing


def test_simultaneous_starts_of_a_daily_attempt_make_exactly_one(clock: DailyClock) -> None:
    for _ in range(ROUNDS):
        user = make_user()

        def start(_index: int, user: Any = user) -> Any:
            return answered(
                client_for(user).post(f"/api/daily/{DAY}/selective-castle/attempt/", format="json")
            )

        answers = run_in_threads(start, 6)
        statuses = sorted(status for status, _ in answers)
        assert statuses == [201] + [409] * 5, answers
        [made] = [body for status, body in answers if status == 201]
        refusals = [body["error"] for status, body in answers if status == 409]
        assert all(error["code"] == "attempt_exists" for error in refusals), refusals
        assert all(error.get("game_id") == made["id"] for error in refusals), refusals
        assert Game.objects.filter(owner=user, ranked=True, daily__date=DAY).count() == 1
