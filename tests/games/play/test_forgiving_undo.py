"""Undo that forgives, in casual games (games/rules/RULINGS.md, "Undo" and "Dead ends"): a move
that showed hidden cards can be taken back, and a dead end waits for an undo or an end."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from games.background import tidy
from games.models import Game, GameFlag
from games.moderation.fair_play import fair_play_findings
from games.moderation.verification import verify_game
from tests.games.helpers import (
    assert_error,
    client_for,
    detail,
    history,
    losing_line,
    make_user,
    new_game,
    play,
    replay,
    unchanged,
)
from tests.games.play.test_api_games import first_turning_move

pytestmark = pytest.mark.django_db


def dead_ended(client: Any, slug: str = "grounds-for-divorce") -> tuple[dict[str, Any], list]:
    """A casual game on a chosen seed played into a dead end: the game and its line."""
    seed, line = losing_line(slug)
    game = new_game(client, slug, seed=seed)
    for move in line:
        game = play(client, game["id"], move)
    return game, line


def assert_history_valid_for_fair_play(game: Game) -> None:
    """The fair-play checks read the history through (the test's moves come faster than a
    person's, so a burst may be found): the history itself is not what they flag."""
    reasons = {finding.reason for finding in fair_play_findings(game)}
    assert GameFlag.Reason.HISTORY_INVALID not in reasons


def undo(client: Any, game_id: int) -> Any:
    return client.post(f"/api/games/{game_id}/undo/", {}, format="json")


def end(client: Any, game_id: int) -> Any:
    return client.post(f"/api/games/{game_id}/end/", {}, format="json")


# -- undo after a reveal ------------------------------------------------------------------------


def test_a_move_that_turned_up_a_card_is_taken_back_and_the_history_keeps_the_card() -> None:
    client = client_for()
    seed, move = first_turning_move("grounds-for-divorce")
    game = new_game(client, "grounds-for-divorce", seed=seed)
    moved = play(client, game["id"], move)
    turned = [e for e in moved["events"] if e["type"] == "turned_up"]
    assert turned and turned[0]["card"], "the move showed a face-down card"
    assert moved["can_undo"] is True

    response = undo(client, game["id"])
    assert response.status_code == 200, response.content
    undone = response.json()
    assert undone["state"] == game["state"], "the board is the position before the move"
    assert undone["counts"] == {"moves": 0, "undos": 1, "hints": 0}
    assert undone["can_undo"] is False, "nothing is left to undo"
    entries = history(client, game["id"])
    assert [e["move"] for e in entries] == [move, {"type": "undo"}]
    assert turned[0] in entries[0]["events"], "the history still names the card it showed"
    assert (
        turned[0]["card"]
        in replay(client, game["id"], 1)["state"]["piles"][turned[0]["pile"]]["cards"]
    )

    again = play(client, game["id"], move)
    assert [e for e in again["events"] if e["type"] == "turned_up"] == turned, (
        "the same card turns up again: undo draws nothing anew"
    )
    assert verify_game(Game.objects.get(pk=game["id"])) is None


@pytest.mark.parametrize("slug", ["gold-mine", "blondes-and-brunettes", "grounds-for-divorce"])
def test_a_deal_from_the_stock_is_taken_back_and_deals_the_same_cards_again(slug: str) -> None:
    client = client_for()
    game = new_game(client, slug, seed=3)
    dealt = play(client, game["id"], {"type": "deal"})
    assert dealt["can_undo"] is True
    undone = undo(client, game["id"])
    assert undone.status_code == 200, undone.content
    assert undone.json()["state"] == game["state"]
    assert play(client, game["id"], {"type": "deal"})["state"] == dealt["state"]
    assert verify_game(Game.objects.get(pk=game["id"])) is None


def test_a_ranked_attempt_still_has_no_undo() -> None:
    client = client_for()
    seed, move = first_turning_move("grounds-for-divorce")
    game = new_game(client, "grounds-for-divorce", seed=seed)
    Game.objects.filter(pk=game["id"]).update(ranked=True)
    assert play(client, game["id"], move)["can_undo"] is False
    with unchanged(client, game["id"]):
        assert_error(undo(client, game["id"]), 409, "undo_not_allowed")


# -- dead ends ----------------------------------------------------------------------------------


def test_a_casual_dead_end_stays_in_play_hiding_what_it_hid_and_offers_undo(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seed, line = losing_line("grounds-for-divorce")
    # The server draws the random seed; fix its draw so that the losing line is known.
    monkeypatch.setattr("games.play.services.secrets.randbelow", lambda n: seed)
    client = client_for()
    game = new_game(client, "grounds-for-divorce")
    for move in line:
        game = play(client, game["id"], move)
    assert {"type": "game_lost"} in game["events"], "the engine says no move is left"
    assert game["status"] == "playing" and game["dead_end"] is True
    assert game["can_undo"] is True and game["legal_moves"] == []
    assert game["seed"] is None, "the game is not over: its seed stays secret"
    assert game["finished_at"] is None and "result" not in game
    shown = detail(client, game["id"])
    assert shown["dead_end"] is True and shown["seed"] is None
    board = replay(client, game["id"], game["move_number"])["state"]
    assert board == game["state"], "the replay hides what the board hides"
    assert verify_game(Game.objects.get(pk=game["id"])) is None, "a dead end in play verifies"

    out = undo(client, game["id"]).json()
    assert out["dead_end"] is False and out["status"] == "playing"
    assert out["legal_moves"], "back to a position with moves"
    assert out["counts"]["undos"] == 1
    assert verify_game(Game.objects.get(pk=game["id"])) is None


def test_end_game_records_a_dead_end_as_lost() -> None:
    user = make_user()
    client = client_for(user)
    game, _ = dead_ended(client)
    response = end(client, game["id"])
    assert response.status_code == 200, response.content
    ended = response.json()
    assert ended["status"] == "lost" and ended["dead_end"] is False
    assert ended["can_undo"] is False and ended["finished_at"] is not None
    assert ended["seed"] is not None, "over now: the seed is shown"
    assert ended["events"] == [{"type": "ended"}]
    assert ended["result"]["undos"] == 0
    last = history(client, game["id"])[-1]
    assert last["move"] == {"type": "end"} and last["said"] == "Ended at a dead end: lost"
    assert_error(undo(client, game["id"]), 409, "game_finished")
    assert_error(end(client, game["id"]), 409, "game_finished")
    stats = {s["variant"]: s for s in client.get("/api/me/stats/").json()}
    assert stats["grounds-for-divorce"]["played"] == 1
    assert stats["grounds-for-divorce"]["won"] == 0
    stored = Game.objects.get(pk=game["id"])
    assert verify_game(stored) is None
    assert_history_valid_for_fair_play(stored)


def test_end_game_is_refused_while_a_move_is_left() -> None:
    client = client_for()
    game = new_game(client, "selective-castle", seed=5)
    game = play(client, game["id"], game["legal_moves"][0])
    with unchanged(client, game["id"]):
        assert_error(end(client, game["id"]), 409, "not_at_dead_end")


def test_resigning_or_leaving_a_dead_end_records_it_as_lost() -> None:
    client = client_for()
    resigned, _ = dead_ended(client)
    answer = client.post(f"/api/games/{resigned['id']}/resign/", {}, format="json").json()
    assert answer["status"] == "lost"
    left, _ = dead_ended(client)
    answer = client.post(f"/api/games/{left['id']}/abandon/", {}, format="json").json()
    assert answer["abandoned"] == "ended" and answer["game"]["status"] == "lost"


def test_starting_another_game_ends_a_dead_end_as_lost() -> None:
    client = client_for()
    game, _ = dead_ended(client)
    left_at = Game.objects.get(pk=game["id"]).last_move_at
    new_game(client, "gold-mine")
    stored = Game.objects.get(pk=game["id"])
    assert stored.status == "lost" and not stored.dead_end
    assert stored.finished_at == left_at, "lost when it was left"
    assert verify_game(stored) is None


def test_a_ranked_attempt_is_lost_at_its_dead_end_at_once() -> None:
    client = client_for()
    seed, line = losing_line("grounds-for-divorce")
    game = new_game(client, "grounds-for-divorce", seed=seed)
    Game.objects.filter(pk=game["id"]).update(ranked=True)
    for move in line:
        game = play(client, game["id"], move)
    assert game["status"] == "lost" and game["dead_end"] is False
    assert_error(undo(client, game["id"]), 409, "undo_not_allowed")
    assert verify_game(Game.objects.get(pk=game["id"])) is None


def test_the_worker_ends_a_dead_end_left_long_enough(settings: Any) -> None:
    settings.DEAD_END_MINUTES = 30
    client = client_for()
    stale, _ = dead_ended(client)
    fresh, _ = dead_ended(client_for())
    long_ago = timezone.now() - dt.timedelta(minutes=31)
    Game.objects.filter(pk=stale["id"]).update(last_move_at=long_ago)

    assert tidy.end_dead_ends_once() == 1
    ended = Game.objects.get(pk=stale["id"])
    assert ended.status == "lost" and not ended.dead_end and ended.finished_at == long_ago
    assert verify_game(ended) is None
    assert Game.objects.get(pk=fresh["id"]).dead_end, "a dead end just reached stays"
    stats = {s["variant"]: s for s in client.get("/api/me/stats/").json()}
    assert stats["grounds-for-divorce"]["played"] == 1

    settings.DEAD_END_MINUTES = 0
    Game.objects.filter(pk=fresh["id"]).update(last_move_at=long_ago)
    assert tidy.end_dead_ends_once() == 0, "0 minutes: never"


@pytest.mark.parametrize("slug", ["grounds-for-divorce", "gold-mine", "selective-castle"])
def test_a_history_with_undone_reveals_and_dead_ends_replays_and_verifies(slug: str) -> None:
    """Out of a dead end and back into it, undoing reveals on the way: each step's replay is
    the board the player saw, and the history verifies."""
    client = client_for()
    seed, line = losing_line(slug)
    game = new_game(client, slug, seed=seed)
    seen = [game["state"]]
    for index, move in enumerate(line):
        game = play(client, game["id"], move)
        seen.append(game["state"])
        if index % 3 == 2 or index == len(line) - 1:
            response = undo(client, game["id"])
            assert response.status_code == 200, response.content
            seen.append(response.json()["state"])
            game = play(client, game["id"], move)
            seen.append(game["state"])
    assert game["dead_end"] is True
    for step, view in enumerate(seen):
        assert replay(client, game["id"], step)["state"] == view
    assert verify_game(Game.objects.get(pk=game["id"])) is None
    ended = end(client, game["id"]).json()
    stored = Game.objects.get(pk=game["id"])
    assert verify_game(stored) is None
    assert ended["result"]["undos"] == stored.undo_count > 0
    assert_history_valid_for_fair_play(stored)
