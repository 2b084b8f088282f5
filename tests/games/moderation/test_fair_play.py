"""Keeping it fair: the automatic flags on ranked attempts (a history that fails verification,
a burst of moves faster than a person plays, a win implausibly fast for its moves), when they
are raised, and what staff do about them: exclusion from the leaderboards, live.

Times are the server's: a fake clock (``django.utils.timezone.now``) sets when each move
arrives, so a crafted attempt and a person's play differ only in their timing.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from itertools import cycle, islice
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from config.asgi import application
from config.settings import BASE_DIR
from games.core import days
from games.core.history import final_run_home
from games.daily import services as daily_services
from games.models import AuditLog, Game, GameFlag, Move
from games.moderation import services as moderation
from games.play import services as play_services
from tests.games.helpers import client_for, make_user, solve, staff_challenge
from tests.support.api import make_superuser, signed_in

DAY = dt.date(2031, 5, 10)
SLUG = "grandfathers-clock"  # seed 0 wins in 63 moves (helpers.solve)
ORIGIN = (b"origin", b"http://testserver")

# A person: seconds between moves, now and then two quick clicks in a row.
HUMAN = (1.5, 0.1, 0.12, 2.4, 0.9, 4.0, 0.6, 1.1)


class Clock:
    """The server's time, moved on by hand."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, start: dt.datetime) -> None:
        self.now = start
        monkeypatch.setattr(timezone, "now", lambda: self.now)

    def tick(self, seconds: float) -> None:
        self.now += dt.timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(monkeypatch, dt.datetime(2031, 5, 10, 8, 0, tzinfo=dt.UTC))


@pytest.fixture(scope="module")
def winning_line() -> list[dict[str, Any]]:
    line = solve(SLUG, 0)
    assert line is not None and len(line) == 63
    return line


@pytest.fixture
def challenge(db: None) -> Any:
    return staff_challenge(DAY, SLUG, 0)


def start(clock: Clock, user: Any) -> int:
    """A ranked attempt at the day's challenge, started now by the fake clock."""
    game = daily_services.start_daily_attempt(user=user, date=DAY, variant_slug=SLUG).game
    Game.objects.filter(pk=game.pk).update(created_at=clock.now)
    return game.pk


def play(
    clock: Clock, user: Any, game_id: int, moves: list[dict[str, Any]], gaps: Iterable[float]
) -> Game:
    """Each move arrives ``gap`` seconds after the one before."""
    gaps = list(islice(cycle(gaps), len(moves)))
    for move, gap in zip(moves, gaps, strict=True):
        clock.tick(gap)
        play_services.play_move(user=user, game_id=game_id, move=move)
    return Game.objects.get(pk=game_id)


def resign(clock: Clock, user: Any, game_id: int) -> Game:
    clock.tick(3)
    play_services.resign_game(user=user, game_id=game_id)
    return Game.objects.get(pk=game_id)


def flags(game_id: int) -> dict[str, str]:
    return dict(GameFlag.objects.filter(game_id=game_id).values_list("reason", "detail"))


# -- the automatic flags ----------------------------------------------------------------------


@pytest.mark.django_db
def test_normal_play_raises_no_flag(clock: Clock, challenge: Any, winning_line: list) -> None:
    winner, quitter = make_user("steady"), make_user("quitter")
    won = play(clock, winner, start(clock, winner), winning_line, HUMAN)
    assert won.status == "won"
    resigned = resign(clock, quitter, play_moves_of(clock, quitter, winning_line[:20]))
    assert resigned.status == "resigned"
    assert not GameFlag.objects.exists(), "nothing raised as the attempts finished"
    call_command("flag_games")
    assert not GameFlag.objects.exists(), "nor by the command"


def play_moves_of(clock: Clock, user: Any, moves: list[dict[str, Any]]) -> int:
    game_id = start(clock, user)
    play(clock, user, game_id, moves, HUMAN)
    return game_id


@pytest.mark.django_db
def test_a_scripted_win_is_flagged_as_it_finishes(
    clock: Clock, challenge: Any, winning_line: list
) -> None:
    bot = make_user("bot")
    game_id = start(clock, bot)
    game = play(clock, bot, game_id, winning_line[:-1], [0.05])
    assert flags(game_id) == {}, "checked when the attempt finishes, not on every move"
    game = play(clock, bot, game_id, winning_line[-1:], [0.05])
    assert game.status == "won"
    found = flags(game_id)
    assert set(found) == {"move_burst", "fast_window", "implausible_time"}
    assert found["move_burst"] == (
        "63 moves in a row under 150 ms apart (steps 1 to 63, the fastest 50 ms after the one "
        "before)"
    )
    assert found["fast_window"] == (
        "20 moves in a row in 1.00 s (steps 2 to 21, the median 50 ms after the one before): "
        "faster than a person reads and clicks (under 3 s together, or most under 150 ms)"
    )
    # The last nine moves only send cards home (what Finish does): not counted, nor their time.
    # Timed from the first move: the 53 moves after it, 50 ms each.
    assert found["implausible_time"] == (
        "won in 3.1 s from the first move with 63 moves; leaving out the last 9, which only "
        "sent cards to the foundations (as Finish does), the 54 before them took 2.6 s after "
        "the first: 0.050 s a move, under 0.5 s"
    )
    assert all(f.automatic and f.is_open for f in GameFlag.objects.all())
    # A flag is for staff to judge: the attempt stays on the board until they exclude it.
    board = client_for().get(f"/api/leaderboards/daily/{DAY}/{SLUG}/").json()
    assert [entry["user"] for entry in board["results"]] == ["bot"]


@pytest.mark.django_db
def test_a_win_too_fast_for_its_moves_is_flagged_without_any_burst(
    clock: Clock, challenge: Any, winning_line: list
) -> None:
    quick = make_user("quick")
    game_id = start(clock, quick)
    play(clock, quick, game_id, winning_line, [0.3])  # never under 150 ms, 0.3 s a move
    assert set(flags(game_id)) == {"implausible_time"}


# Finish sends each card 220 ms after the answer to the one before (play/finish.js FINISH_STEP_MS):
# the server sees them at least that far apart.
FINISH_PACE = 0.22
FINISH_STEP_MS = re.compile(r"^const FINISH_STEP_MS = (\d+);", re.M)


def finishing_run(line: list[dict[str, Any]]) -> int:
    """How many of the line's last moves send a card to a foundation from another pile."""
    return len(line) - final_run_home(line)


@pytest.mark.django_db
def test_a_fast_honest_win_that_ends_with_finish_is_not_flagged(
    clock: Clock, challenge: Any, winning_line: list
) -> None:
    """54 moves thought of at 0.52 s each, then Finish sends the last nine home: 0.48 s a move
    over all 63, but the nine asked no thought."""
    assert finishing_run(winning_line) == 9
    fast = make_user("fast")
    game_id = start(clock, fast)
    play(clock, fast, game_id, winning_line[:54], [0.52])
    game = play(clock, fast, game_id, winning_line[54:], [FINISH_PACE])
    assert game.status == "won"
    assert (game.finished_at - game.created_at).total_seconds() < 63 * 0.5
    assert flags(game_id) == {}
    call_command("flag_games", game_id)
    assert flags(game_id) == {}


@pytest.mark.django_db
def test_a_win_too_fast_before_its_final_run_home_is_still_flagged(
    clock: Clock, challenge: Any, winning_line: list
) -> None:
    """0.4 s a move until the last nine, which take their time: 0.77 s a move over the whole
    game, but the moves that needed thought came too fast."""
    quick = make_user("quick")
    game_id = start(clock, quick)
    play(clock, quick, game_id, winning_line[:54], [0.4])
    game = play(clock, quick, game_id, winning_line[54:], [3.0])
    assert (game.finished_at - game.created_at).total_seconds() > 63 * 0.5
    assert flags(game_id) == {
        "implausible_time": "won in 48.2 s from the first move with 63 moves; leaving out the "
        "last 9, which only sent cards to the foundations (as Finish does), the 54 before them "
        "took 21.2 s after the first: 0.400 s a move, under 0.5 s"
    }


def test_the_final_run_home_is_read_from_the_moves_themselves() -> None:
    def move(source: str, target: str) -> dict[str, Any]:
        return {"type": "move", "from": source, "to": target, "count": 1}

    home = move("tableau:1", "foundation:0")
    assert final_run_home([]) == 0
    assert final_run_home([move("tableau:0", "tableau:1")]) == 1
    assert final_run_home([move("tableau:0", "tableau:1"), home, home]) == 1
    assert final_run_home([home, {"type": "deal"}, home]) == 2
    assert final_run_home([home, {"type": "undo"}, home]) == 2
    assert final_run_home([home, move("foundation:0", "foundation:1"), home]) == 2
    assert final_run_home([home, move("waste", "foundation:3")]) == 0
    assert final_run_home([home, {"type": "move", "to": "foundation:1"}]) == 0  # no source
    assert final_run_home([home, "foundation:1"]) == 2  # not a move at all


def test_finish_is_paced_slower_than_a_burst() -> None:
    """The play page's Finish sends a card home every FINISH_STEP_MS at the quickest: that
    must stay above FAIR_PLAY_BURST_MS, or a long Finish would be flagged as a burst."""
    source = (BASE_DIR / "frontend/static/frontend/js/play/finish.js").read_text()
    [step_ms] = FINISH_STEP_MS.findall(source)
    assert int(step_ms) == FINISH_PACE * 1000
    assert int(step_ms) > django_settings.FAIR_PLAY_BURST_MS


@pytest.mark.django_db
def test_ten_moves_at_finish_pace_are_no_burst(
    clock: Clock, challenge: Any, winning_line: list
) -> None:
    steady = make_user("steady")
    game_id = start(clock, steady)
    play(clock, steady, game_id, winning_line[:3], [2.0])
    play(clock, steady, game_id, winning_line[3:13], [FINISH_PACE])
    resign(clock, steady, game_id)
    call_command("flag_games", game_id)
    assert flags(game_id) == {}


@pytest.mark.django_db
def test_a_burst_is_flagged_in_an_attempt_that_is_not_won(
    clock: Clock, challenge: Any, winning_line: list, settings: Any
) -> None:
    bursty, almost = make_user("bursty"), make_user("almost")
    game_id = start(clock, bursty)
    play(clock, bursty, game_id, winning_line[:3], [2.0])
    play(clock, bursty, game_id, winning_line[3:13], [0.08])  # ten moves 80 ms apart
    resign(clock, bursty, game_id)
    assert flags(game_id) == {
        "move_burst": "10 moves in a row under 150 ms apart (steps 4 to 13, the fastest 80 ms "
        "after the one before)"
    }
    # Nine in a row is not a burst.
    game_id = start(clock, almost)
    play(clock, almost, game_id, winning_line[:3], [2.0])
    play(clock, almost, game_id, winning_line[3:12], [0.08])
    resign(clock, almost, game_id)
    assert flags(game_id) == {}
    # The thresholds are settings.
    settings.FAIR_PLAY_BURST_MOVES = 9
    call_command("flag_games", game_id)
    assert set(flags(game_id)) == {"move_burst"}


@pytest.mark.django_db
def test_casual_games_are_never_flagged(clock: Clock, winning_line: list) -> None:
    player = make_user("casual")
    outcome = play_services.create_game(user=player, variant_slug=SLUG, seed=0)
    play(clock, player, outcome.game.pk, winning_line, [0.01])
    call_command("flag_games")
    assert not GameFlag.objects.exists()


@pytest.mark.django_db
def test_a_history_edited_later_is_flagged_by_flag_games(
    clock: Clock, challenge: Any, winning_line: list, capsys: Any
) -> None:
    honest, other = make_user("honest"), make_user("other")
    edited = play(clock, honest, start(clock, honest), winning_line, HUMAN)
    snapshot = play(clock, other, start(clock, other), winning_line[:30], HUMAN)
    assert not GameFlag.objects.exists()
    Move.objects.filter(game=edited, number=10).update(
        payload={"type": "move", "from": "tableau:0", "to": "tableau:0", "count": 1}
    )
    state = snapshot.state
    piles = state["piles"]
    card = piles["tableau:0"]["cards"].pop()  # a card put by hand on another pile
    piles["tableau:1"]["cards"].append(card)
    Game.objects.filter(pk=snapshot.pk).update(state=state)

    call_command("flag_games")
    assert "2 ranked attempts checked, 2 new flags" in capsys.readouterr().out
    assert set(flags(edited.pk)) == {"history_invalid"}
    assert flags(edited.pk)["history_invalid"].startswith("step 10 does not replay")
    assert flags(snapshot.pk)["history_invalid"].startswith(
        "the stored snapshot differs from the replay of the history (piles tableau:0, tableau:1)"
    )
    call_command("flag_games")
    assert "0 new flags" in capsys.readouterr().out, "one flag per check and game"
    assert GameFlag.objects.count() == 2


@pytest.mark.django_db
def test_a_history_edited_during_play_is_flagged_when_the_attempt_ends(
    clock: Clock, challenge: Any, winning_line: list
) -> None:
    player = make_user("meddler")
    game_id = play_moves_of(clock, player, winning_line[:6])
    Move.objects.filter(game_id=game_id, number=2).update(payload={"type": "deal"})
    resign(clock, player, game_id)
    assert flags(game_id)["history_invalid"].startswith("step 2 does not replay")


@pytest.mark.django_db
def test_a_flag_staff_cleared_is_not_raised_again(
    clock: Clock, challenge: Any, winning_line: list
) -> None:
    bot, staff = make_user("bot"), make_user("referee")
    game_id = start(clock, bot)
    play(clock, bot, game_id, winning_line, [0.05])
    moderation.unflag_game(actor=staff, game_id=game_id, reason="a known speedrunner")
    call_command("flag_games")
    assert GameFlag.objects.filter(game_id=game_id).count() == 3
    assert not GameFlag.objects.filter(cleared_at__isnull=True).exists()


@pytest.mark.django_db
def test_flag_games_takes_ids_or_a_day(
    clock: Clock, challenge: Any, winning_line: list, capsys: Any
) -> None:
    bot = make_user("bot")
    game_id = start(clock, bot)
    play(clock, bot, game_id, winning_line[:12], [0.05])
    call_command("flag_games", "--date", "2031-05-09")
    assert "0 ranked attempts checked" in capsys.readouterr().out
    call_command("flag_games", "--date", DAY.isoformat())
    assert "1 ranked attempts checked, 1 new flags" in capsys.readouterr().out
    assert set(flags(game_id)) == {"move_burst"}, "an unfinished attempt, checked by the command"
    with pytest.raises(CommandError, match="no ranked game with id 424242"):
        call_command("flag_games", 424242)


# -- exclusion --------------------------------------------------------------------------------


def staff_client() -> tuple[Client, Any]:
    staff = make_superuser("boss")
    return signed_in(staff), staff


def moderate(client: Client, game_id: int, action: str, reason: str) -> None:
    response = client.post(
        f"/admin/games/game/{game_id}/moderate/", {"action": action, "reason": reason}
    )
    assert response.status_code == 302, response.content[:500]


@pytest.mark.django_db
def test_exclusion_takes_an_attempt_off_the_rest_leaderboards_and_reinstating_restores_it(
    clock: Clock, challenge: Any, winning_line: list, settings: Any
) -> None:
    settings.LEADERBOARD_MIN_GAMES = 1
    cheat, fair = make_user("cheat"), make_user("fair")
    cheat_game = play(clock, cheat, start(clock, cheat), winning_line, [0.05])
    play(clock, fair, start(clock, fair), winning_line[:40], HUMAN)
    resign(clock, fair, Game.objects.get(owner=fair).pk)
    anyone = client_for()

    def boards() -> tuple[list[str], list[str]]:
        day = anyone.get(f"/api/leaderboards/daily/{DAY}/{SLUG}/").json()
        alltime = anyone.get(f"/api/leaderboards/{SLUG}/").json()
        return [e["user"] for e in day["results"]], [e["user"] for e in alltime["results"]]

    assert boards() == (["cheat", "fair"], ["cheat", "fair"])
    client, _ = staff_client()
    moderate(client, cheat_game.pk, "exclude", "scripted: 50 ms a move")
    assert boards() == (["fair"], ["fair"])
    moderate(client, cheat_game.pk, "reinstate", "appeal upheld")
    assert boards() == (["cheat", "fair"], ["cheat", "fair"])
    log = list(AuditLog.objects.order_by("pk").values_list("action", "reason", "actor_name"))
    assert log == [
        ("exclude", "scripted: 50 ms a move", "boss"),
        ("reinstate", "appeal upheld", "boss"),
    ]


@pytest.mark.django_db(transaction=True)
def test_an_exclusion_updates_the_live_leaderboard_at_once() -> None:
    today = days.today()
    cheat, fair = make_user("cheat"), make_user("fair")
    attempts = {}
    for user in (cheat, fair):
        outcome = daily_services.start_daily_attempt(
            user=user, date=today, variant_slug="gold-mine"
        )
        play_services.play_move(user=user, game_id=outcome.game.pk, move={"type": "deal"})
        attempts[user.username] = outcome.game.pk
    client, _ = staff_client()
    act = database_sync_to_async(moderate)

    @async_to_sync
    async def scenario() -> None:
        path = f"/ws/leaderboards/daily/{today.isoformat()}/gold-mine/"
        ws = WebsocketCommunicator(application, path, headers=[ORIGIN])
        connected, _ = await ws.connect(timeout=5)
        assert connected
        first = await ws.receive_json_from(timeout=5)
        assert first["count"] == 2
        await act(client, attempts["cheat"], "exclude", "a second account")
        board = await ws.receive_json_from(timeout=5)
        assert board["count"] == 1 and [e["user"] for e in board["results"]] == ["fair"]
        await act(client, attempts["cheat"], "reinstate", "not a second account after all")
        board = await ws.receive_json_from(timeout=5)
        assert board["count"] == 2
        await ws.disconnect()

    scenario()
