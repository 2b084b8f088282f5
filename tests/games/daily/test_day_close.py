"""A ranked daily attempt still in play when its day closes: it stands as it was left.

At midnight UTC the service closes it (status ``closed``, a ``close`` entry in its history),
without changing its cards or its time, so the day's final ranking keeps it by its progress;
its open pages hear of it at once, and it leaves the player's games in progress.
"""

from __future__ import annotations

import datetime as dt
import threading
from typing import Any

import pytest
from django.core.management import call_command

from games.core import days
from games.daily import day_closer
from games.daily import services as daily_services
from games.models import Game
from games.moderation.verification import verification
from tests.games.helpers import (
    DAY,
    DailyClock,
    GroupInbox,
    assert_error,
    client_for,
    daily_game,
    detail,
    history,
    make_user,
    play,
    start_daily,
    unchanged,
)
from web.live.games import game_group, leaderboard_group


def board(client: Any, date: dt.date = DAY, slug: str = "gold-mine") -> dict[str, Any]:
    response = client.get(f"/api/leaderboards/daily/{date}/{slug}/")
    assert response.status_code == 200, response.content
    return response.json()


def without_status(page: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in entry.items() if k != "status"} for entry in page["results"]]


def games_listed(client: Any, status: str) -> list[int]:
    response = client.get("/api/games/", {"status": status})
    assert response.status_code == 200, response.content
    return [game["id"] for game in response.json()["results"]]


@pytest.mark.django_db
def test_an_attempt_in_play_at_midnight_is_closed_as_it_was_left(clock: DailyClock) -> None:
    client, rival = client_for(), client_for()
    attempt = play(client, start_daily(client, DAY, "gold-mine")["id"], {"type": "deal"})
    won_nothing = start_daily(rival, DAY, "gold-mine")
    # A move, or the closed attempt would count nowhere (models.UNTOUCHED) and leave the board.
    won_nothing = play(rival, won_nothing["id"], {"type": "deal"})
    before = Game.objects.get(pk=attempt["id"])
    ranking = board(client_for())

    clock.advance()
    assert daily_services.close_unfinished_attempts() == sorted([attempt["id"], won_nothing["id"]])

    closed = detail(client, attempt["id"])
    assert closed["status"] == "closed"
    assert closed["move_number"] == attempt["move_number"] + 1
    assert closed["counts"]["moves"] == attempt["counts"]["moves"]
    assert closed["legal_moves"] == []
    last = history(client, attempt["id"])[-1]
    assert last["move"] == {"type": "close"} and last["events"] == [{"type": "day_closed"}]

    game = Game.objects.get(pk=attempt["id"])
    assert game.state == before.state and game.cards_home == before.cards_home
    # The attempt's time runs to the player's last move, not to midnight.
    assert game.last_move_at == before.last_move_at
    assert game.finished_at == days.closes_at(DAY)
    assert verification(game).ok
    # The final ranking is the one the day closed on; only the word "in play" changed.
    final = board(client_for())
    assert without_status(final) == without_status(ranking)
    assert {entry["status"] for entry in final["results"]} == {"closed"}


@pytest.mark.django_db
def test_closing_leaves_alone_what_is_not_a_past_days_attempt_in_play(clock: DailyClock) -> None:
    player = make_user()
    client = client_for(player)
    finished = start_daily(client, DAY, "gold-mine")
    client.post(f"/api/games/{finished['id']}/resign/", format="json")
    today = start_daily(client, DAY, "selective-castle")
    casual = daily_game(player, DAY - dt.timedelta(days=1), "gold-mine", ranked=False)
    plain = client.post("/api/games/", {"variant": "gold-mine"}, format="json").json()

    assert daily_services.close_unfinished_attempts() == []
    clock.advance()
    closed = daily_services.close_unfinished_attempts()
    assert closed == [today["id"]]
    assert daily_services.close_unfinished_attempts() == []  # once only
    statuses = dict(Game.objects.values_list("pk", "status"))
    assert statuses[finished["id"]] == "resigned"
    assert statuses[casual.pk] == statuses[plain["id"]] == "playing"
    assert Game.objects.get(pk=today["id"]).move_number == 1


@pytest.mark.django_db
def test_a_closed_attempt_refuses_every_action_and_changes_nothing(clock: DailyClock) -> None:
    client = client_for()
    attempt = start_daily(client, DAY, "gold-mine")
    clock.advance()
    daily_services.close_unfinished_attempts()
    for action, body in (
        ("moves", {"move": {"type": "deal"}}),
        ("resign", {}),
        ("undo", {}),
        ("hint", {}),
    ):
        with unchanged(client, attempt["id"]):
            url = f"/api/games/{attempt['id']}/{action}/"
            assert_error(client.post(url, body, format="json"), 409)


@pytest.mark.parametrize(
    ("action", "body"),
    [("moves", {"move": {"type": "deal"}}), ("resign", {}), ("undo", {}), ("hint", {})],
)
@pytest.mark.parametrize("idempotency_key", [None, "after-midnight-1"])
@pytest.mark.django_db(transaction=True)
def test_an_action_after_midnight_closes_the_attempt_the_closer_has_not_reached_yet(
    clock: DailyClock, settings: Any, action: str, body: dict, idempotency_key: str | None
) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    client = client_for()
    attempt = play(client, start_daily(client, DAY, "gold-mine")["id"], {"type": "deal"})
    before = Game.objects.get(pk=attempt["id"])
    inbox = GroupInbox()
    inbox.join(game_group(attempt["id"]))
    inbox.join(leaderboard_group(DAY, "gold-mine"))
    clock.advance()  # the day closed; the closer has not run

    headers = {"HTTP_IDEMPOTENCY_KEY": idempotency_key} if idempotency_key else {}
    url = f"/api/games/{attempt['id']}/{action}/"
    error = assert_error(client.post(url, body, format="json", **headers), 409, "challenge_closed")

    # The answer and the board agree: the attempt is closed, as the closer would have left it.
    assert error["status"] == "closed" and error["move_number"] == attempt["move_number"] + 1
    closed = detail(client, attempt["id"])
    assert closed["status"] == "closed" and closed["move_number"] == error["move_number"]
    assert history(client, attempt["id"])[-1]["move"] == {"type": "close"}
    game = Game.objects.get(pk=attempt["id"])
    assert game.state == before.state and game.last_move_at == before.last_move_at
    assert game.finished_at == days.closes_at(DAY)
    assert verification(game).ok
    messages = inbox.received()
    [update] = [m for m in messages if m["type"] == "game.update"]
    assert update["game"]["status"] == "closed"
    assert update["game"]["events"] == [{"type": "day_closed"}]
    assert [m["type"] for m in messages].count("leaderboard.changed") == 1
    # Nothing left for the closer; the same action again is refused the same way.
    assert daily_services.close_unfinished_attempts() == []
    again = client.post(url, body, format="json", **headers)
    assert again.json()["error"] == error
    assert Game.objects.get(pk=attempt["id"]).move_number == error["move_number"]


@pytest.mark.django_db
def test_a_closed_attempt_leaves_the_games_in_progress_and_counts_as_played_not_won(
    clock: DailyClock,
) -> None:
    client = client_for()
    attempt = start_daily(client, DAY, "gold-mine")
    assert games_listed(client, "playing") == [], "no move yet: not in progress"
    play(client, attempt["id"], attempt["legal_moves"][0])
    assert games_listed(client, "playing") == [attempt["id"]]
    clock.advance()
    daily_services.close_unfinished_attempts()

    assert games_listed(client, "playing") == []
    assert games_listed(client, "closed") == [attempt["id"]]
    stats = {row["variant"]: row for row in client.get("/api/me/stats/").json()}["gold-mine"]
    assert (stats["played"], stats["won"], stats["current_streak"]) == (1, 0, 0)
    overview = client.get("/api/daily/", {"date": DAY.isoformat()}).json()
    (gold_mine,) = [c for c in overview["challenges"] if c["variant"] == "gold-mine"]
    assert gold_mine["your_attempt"]["status"] == "closed"


@pytest.mark.django_db
def test_verification_knows_a_close_entry_and_catches_a_status_that_disagrees(
    clock: DailyClock,
) -> None:
    client = client_for()
    attempt = start_daily(client, DAY, "grandfathers-clock")
    clock.advance()
    daily_services.close_unfinished_attempts()
    Game.objects.filter(pk=attempt["id"]).update(status="playing")
    found = verification(Game.objects.get(pk=attempt["id"]))
    assert found.problem == "the stored status is playing, the replay says closed"


@pytest.mark.django_db
def test_the_close_days_command_closes_them_and_says_how_many(
    clock: DailyClock, capsys: pytest.CaptureFixture[str]
) -> None:
    attempt = start_daily(client_for(), DAY, "blondes-and-brunettes")
    clock.advance()
    call_command("close_days")
    out = capsys.readouterr().out
    assert f"game {attempt['id']}: closed" in out
    assert "1 unfinished ranked attempts of past days closed." in out
    assert Game.objects.get(pk=attempt["id"]).status == "closed"


@pytest.mark.django_db(transaction=True)
def test_the_players_open_pages_and_the_days_board_hear_of_it_at_once(
    clock: DailyClock, settings: Any
) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    attempt = start_daily(client_for(), DAY, "gold-mine")
    inbox = GroupInbox()
    inbox.join(game_group(attempt["id"]))
    inbox.join(leaderboard_group(DAY, "gold-mine"))
    clock.advance()
    daily_services.close_unfinished_attempts()
    messages = inbox.received()
    [update] = [m for m in messages if m["type"] == "game.update"]
    assert update["game"]["status"] == "closed"
    assert update["game"]["events"] == [{"type": "day_closed"}]
    assert update["game"]["move_number"] == 1
    assert [m["type"] for m in messages].count("leaderboard.changed") == 1


# -- the worker's days job (games.background.worker) -----------------------------------------


def test_the_closer_wakes_just_after_each_midnight_utc() -> None:
    evening = dt.datetime(2031, 5, 10, 23, 59, 30, tzinfo=dt.UTC)
    assert day_closer.seconds_until_next_day(evening) == 30 + day_closer.MARGIN_S
    elsewhere = evening.astimezone(dt.timezone(dt.timedelta(hours=5)))
    assert day_closer.seconds_until_next_day(elsewhere) == 30 + day_closer.MARGIN_S
    midnight = dt.datetime(2031, 5, 11, tzinfo=dt.UTC)
    assert day_closer.seconds_until_next_day(midnight) == 24 * 3600 + day_closer.MARGIN_S


def test_between_midnights_the_job_looks_again_every_few_minutes() -> None:
    # A pass that failed (the database away) is tried again soon, not a day later.
    morning = dt.datetime(2031, 5, 10, 8, 0, tzinfo=dt.UTC)
    assert day_closer.seconds_until_next_pass(morning) == day_closer.RECHECK_S
    evening = dt.datetime(2031, 5, 10, 23, 59, 30, tzinfo=dt.UTC)
    assert day_closer.seconds_until_next_pass(evening) == 30 + day_closer.MARGIN_S


def test_the_job_passes_again_at_the_time_its_clock_says(monkeypatch: pytest.MonkeyPatch) -> None:
    """Driven by an injected clock and wait: a pass, then a wait until just after midnight."""
    passes: list[str] = []
    monkeypatch.setattr(day_closer, "close_days_once", lambda: passes.append("close") or [])
    monkeypatch.setattr(day_closer, "prepare_days_once", lambda stop: passes.append("prepare"))
    waits: list[float] = []

    class Stop(threading.Event):
        def wait(self, timeout: float | None = None) -> bool:
            waits.append(timeout)
            if len(waits) == 2:
                self.set()
            return self.is_set()

    late = dt.datetime(2031, 5, 10, 23, 59, 0, tzinfo=dt.UTC)
    day_closer.run(Stop(), now=lambda: late)
    assert passes == ["close", "prepare", "close", "prepare"]
    assert waits == [60 + day_closer.MARGIN_S] * 2


@pytest.mark.django_db(transaction=True)
def test_the_closer_thread_closes_past_days_as_it_starts(
    clock: DailyClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    attempt = start_daily(client_for(), DAY, "gold-mine")
    clock.advance()
    passes: list[list[int]] = []
    first_pass_done = threading.Event()
    close_days_once = day_closer.close_days_once

    def watched_pass() -> list[int]:
        passes.append(close_days_once())
        first_pass_done.set()
        return passes[-1]

    # Wait for the thread's pass rather than poll the database meanwhile: SQLite's shared
    # in-memory test database refuses a read during another thread's write ("table is locked").
    monkeypatch.setattr(day_closer, "close_days_once", watched_pass)
    # Preparing the coming days' challenges is the thread's next step
    # (tests/games/daily/test_challenges.py).
    monkeypatch.setattr(day_closer, "prepare_days_once", lambda stop: 0)
    stop = threading.Event()
    thread = threading.Thread(target=day_closer.run, args=(stop,), daemon=True)
    thread.start()
    try:
        assert first_pass_done.wait(10), "the closer did not make its first pass"
    finally:
        stop.set()
        thread.join(5)
    assert not thread.is_alive()
    assert passes == [[attempt["id"]]]
    assert Game.objects.get(pk=attempt["id"]).status == "closed"


def test_a_failing_pass_is_logged_and_the_closer_goes_on(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken() -> list[int]:
        raise RuntimeError("database down")

    monkeypatch.setattr(daily_services, "close_unfinished_attempts", broken)
    assert day_closer.close_days_once() == []
    assert "closing the unfinished attempts of past days failed" in caplog.text
