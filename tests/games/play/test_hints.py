"""POST /api/games/{id}/hint/: a move to try in a casual game, counted, changing nothing else."""

from __future__ import annotations

import random
import re
import uuid
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games.core import days
from games.models import Game
from games.play import hint_service as play_hints
from games.rules import State, Variant, get_variant
from games.rules.cards import card_name, parse_card
from games.solver import Budget, lookahead, solve
from games.solver.lookahead import lookahead_hint
from tests.games.helpers import (
    SLUGS,
    WINNING_LINES,
    anonymous_client,
    assert_error,
    client_for,
    daily_game,
    detail,
    history,
    make_user,
    new_game,
    play,
    unchanged,
)
from tests.rules.helpers import disguised
from tests.solver.helpers import lost_castle, played
from tests.support.clock import spy_on_hint_searches, tick_the_solver

pytestmark = pytest.mark.django_db

CARD = re.compile(r"\b(?:10|[2-9TJQKA])[SHDC]\b")
NAME = re.compile(
    r"\b(?:Ace|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King)"
    r" of (?:clubs|diamonds|hearts|spades)\b"
)
#: A Selective Castle deal where following the hints reaches, after three moves, a position
#: whose every legal move goes back to one already seen (found by the engine's hints).
CIRCLING_DEAL = ("selective-castle", 76, 3)


def hint(client: APIClient, game_id: int, **data: Any) -> Any:
    return client.post(f"/api/games/{game_id}/hint/", data, format="json")


def face_up_names(game: dict[str, Any]) -> set[str]:
    return {
        card_name(parse_card(code))
        for pile in game["state"]["piles"].values()
        for code in pile["cards"][pile["face_down"] :]
    }


@pytest.mark.parametrize("slug", SLUGS)
def test_a_hint_is_a_legal_move_in_words_and_only_its_count_changes(slug: str) -> None:
    client = client_for()
    # A deal known to be won (tests/rules/winning_lines.json): a random one may be proven lost
    # from the deal, whose hint rightly has no move (tests/frontend/test_browser_phone.py).
    game = new_game(client, slug, seed=WINNING_LINES[slug]["seed"])
    entries = history(client, game["id"])

    response = hint(client, game["id"], expected_move_number=0)
    assert response.status_code == 200, response.content
    answer = response.json()
    assert answer["move"] in game["legal_moves"]
    assert answer["move_number"] == 0
    assert answer["hints"] == 1
    assert answer["message"].startswith(("Move ", "Deal "))
    # The message names the moving card in words (no code), which the player can see, and no
    # other.
    assert not CARD.search(answer["message"])
    named = NAME.findall(answer["message"])
    assert set(named) <= face_up_names(game)
    if answer["move"]["type"] == "move":
        cards = game["state"]["piles"][answer["move"]["from"]]["cards"]
        assert named == [card_name(parse_card(cards[-answer["move"]["count"]]))]

    after = detail(client, game["id"])
    assert after["counts"] == {"moves": 0, "undos": 0, "hints": 1}
    assert {k: v for k, v in after.items() if k != "counts"} == {
        k: v for k, v in game.items() if k != "counts"
    }
    assert history(client, game["id"]) == entries, "a hint is not a history entry"


def test_every_hint_followed_through_the_api_is_accepted() -> None:
    client = client_for()
    game = new_game(client, "gold-mine", seed=11)
    for number in range(12):
        suggestion = hint(client, game["id"]).json()
        game = play(client, game["id"], suggestion["move"])
        assert game["move_number"] == number + 1
    assert game["counts"]["hints"] == 12
    assert Game.objects.get(pk=game["id"]).hint_count == 12


def test_no_hint_when_every_move_goes_back_and_such_an_answer_is_not_counted(
    settings: Any,
) -> None:
    settings.HINT_SECONDS = 0  # today's hints only: the circle is theirs
    slug, seed, moves = CIRCLING_DEAL
    client = client_for()
    game = new_game(client, slug, seed=seed)
    for _ in range(moves):
        game = play(client, game["id"], hint(client, game["id"]).json()["move"])
    assert game["legal_moves"], "the game is not lost: there are moves, all of them back"

    answer = hint(client, game["id"]).json()
    assert answer["move"] is None
    assert "goes back to a position" in answer["message"]
    assert answer["hints"] == moves
    assert detail(client, game["id"])["counts"]["hints"] == moves


def test_ranked_games_have_no_hints() -> None:
    user = make_user()
    client = client_for(user)
    game = daily_game(user, days.today(), "gold-mine")
    with unchanged(client, game.pk):
        assert_error(hint(client, game.pk), 409, "hints_not_allowed")
    assert Game.objects.get(pk=game.pk).hint_count == 0


def test_a_finished_game_gives_no_hint() -> None:
    client = client_for()
    game = new_game(client, "grandfathers-clock")
    client.post(f"/api/games/{game['id']}/resign/", {}, format="json")
    with unchanged(client, game["id"]):
        assert_error(hint(client, game["id"]), 409, "game_finished")


def test_a_hint_on_a_stale_version_is_refused_with_the_current_one() -> None:
    client = client_for()
    game = new_game(client, "grandfathers-clock")
    play(client, game["id"], game["legal_moves"][0])
    with unchanged(client, game["id"]):
        error = assert_error(hint(client, game["id"], expected_move_number=0), 409)
    assert error["code"] == "stale_move_number"
    assert error["move_number"] == 1


def test_someone_elses_game_and_strangers_get_no_hint() -> None:
    game = new_game(client_for(), "gold-mine")
    assert_error(hint(client_for(), game["id"]), 404, "not_found")
    assert anonymous_client().post(f"/api/games/{game['id']}/hint/").status_code == 401
    assert Game.objects.get(pk=game["id"]).hint_count == 0


def test_a_retried_hint_with_its_idempotency_key_is_counted_once() -> None:
    client = client_for()
    # A won deal: a random Blondes and Brunettes deal may be lost from the deal (its reserve),
    # whose hint has no move and is not counted.
    game = new_game(
        client, "blondes-and-brunettes", seed=WINNING_LINES["blondes-and-brunettes"]["seed"]
    )
    key = str(uuid.uuid4())
    first = client.post(
        f"/api/games/{game['id']}/hint/", {}, format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    again = client.post(
        f"/api/games/{game['id']}/hint/", {}, format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert Game.objects.get(pk=game["id"]).hint_count == 1


# -- hints that look ahead (games.solver.lookahead) ----------------------------------------------


def put_state(game_id: int, variant: Variant, state: State) -> None:
    """Set a game's board by hand (its history stays the deal's opening)."""
    Game.objects.filter(pk=game_id).update(
        state=variant.state_to_json(state._replace(move_number=0)), move_number=0
    )


def test_an_open_game_is_hinted_the_first_move_of_a_winning_line() -> None:
    client = client_for()
    game = new_game(client, "grandfathers-clock", seed=7)
    variant = get_variant("grandfathers-clock")
    line = solve(variant, variant.deal(7), Budget(positions=20_000, seconds=60)).moves

    answer = hint(client, game["id"]).json()
    assert answer["source"] == "solver" and answer["lost"] is False
    assert answer["move"] == line[0].to_json()
    assert answer["message"].endswith("It starts a way to win from here.")
    assert answer["hints"] == 1


def test_a_lost_position_is_said_to_be_lost_plainly_and_not_counted_as_a_hint() -> None:
    client = client_for()
    game = new_game(client, "selective-castle", seed=1)
    variant, state = lost_castle()
    put_state(game["id"], variant, state)
    assert detail(client, game["id"])["legal_moves"], "the game goes on: there are moves"

    answer = hint(client, game["id"]).json()
    assert answer == {
        "move": None,
        "message": "This position can no longer be won.",
        "source": "solver",
        "lost": True,
        "move_number": 0,
        "hints": 0,  # it suggests nothing: no hint used (issue 46)
    }
    assert detail(client, game["id"])["counts"]["hints"] == 0


@pytest.mark.parametrize(("slug", "seed", "moves"), [("blondes-and-brunettes", 2, 3)])
def test_boards_that_look_the_same_get_the_same_look_ahead_hint(
    slug: str, seed: int, moves: int, settings: Any, monkeypatch: Any
) -> None:
    """Two games whose boards look alike to their players, hidden cards dealt differently.
    The cap's positions as by default, its seconds far off: a loaded machine cannot cut it."""
    settings.HINT_SECONDS = 20.0
    monkeypatch.setattr(lookahead, "POSITIONS_PER_SECOND", lookahead.POSITIONS_PER_SECOND // 20)
    variant = get_variant(slug)
    state, _ = played(variant, seed, moves)
    other = disguised(state, random.Random(1))
    assert other != state and variant.player_view(other) == variant.player_view(state)
    answers = []
    for board in (state, other):
        client = client_for()
        game = new_game(client, slug)
        put_state(game["id"], variant, board)
        answers.append(hint(client, game["id"]).json())
    assert answers[0]["source"] == "solver"
    assert answers[0] == answers[1]


def test_a_hint_keeps_to_its_time_cap(settings: Any, monkeypatch: Any) -> None:
    # The hint's clock moves on at each read: the seconds it hands its searches add up to
    # HINT_SECONDS whatever the machine's load (tests/support/clock.py).
    settings.HINT_SECONDS = 0.2
    client = client_for()
    game = new_game(client, "grounds-for-divorce", seed=1)
    tick_the_solver(monkeypatch, tick=0.001)
    budgets = spy_on_hint_searches(monkeypatch)
    response = hint(client, game["id"])
    assert budgets and sum(budget.seconds for budget in budgets) <= 0.2
    assert response.json()["move"] in game["legal_moves"]


@pytest.mark.parametrize("key", [None, "a-key"])
def test_the_search_runs_with_no_transaction_open(monkeypatch: Any, key: str | None) -> None:
    """Not under the game's row lock, nor the Idempotency-Key's transaction: the search is
    made before either is taken, and the count recorded after in a short one."""
    depths = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        depths.append(len(connection.atomic_blocks))
        return lookahead_hint(*args, **kwargs)

    monkeypatch.setattr(play_hints, "lookahead_hint", spy)
    client = client_for()
    game = new_game(client, "selective-castle", seed=WINNING_LINES["selective-castle"]["seed"])
    outside = len(connection.atomic_blocks)  # the test's own transaction
    extra = {} if key is None else {"HTTP_IDEMPOTENCY_KEY": key}
    response = client.post(f"/api/games/{game['id']}/hint/", {}, format="json", **extra)
    assert response.status_code == 200
    assert depths == [outside]
    assert Game.objects.get(pk=game["id"]).hint_count == 1


def test_a_hint_worked_out_for_a_version_since_gone_gives_way_to_todays() -> None:
    """The game moved (another tab) while the search ran: the hint given is today's for the
    board as it now is, never a search under the lock."""
    user = make_user()
    client = client_for(user)
    game = new_game(client, "grandfathers-clock", seed=7)
    worked_out = play_hints.work_out_hint(user=user, game_id=game["id"])
    assert worked_out.hint.source == "solver"
    now = play(client, game["id"], game["legal_moves"][0])
    given = play_hints.request_hint(
        user=user, game_id=game["id"], worked_out=worked_out, search=False
    )
    assert given.source == "heuristic"
    assert given.move.to_json() in now["legal_moves"]
    assert given.to_json()["move_number"] == 1
