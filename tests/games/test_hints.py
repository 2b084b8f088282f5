"""POST /api/games/{id}/hint/: a move to try in a casual game, counted, changing nothing else."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from rest_framework.test import APIClient

from games import daily
from games.models import Game
from games.rules.cards import card_name, parse_card

from .helpers import (
    SLUGS,
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
    game = new_game(client, slug)
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


def test_no_hint_when_every_move_goes_back_and_such_an_answer_is_not_counted() -> None:
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
    game = daily_game(user, daily.today(), "gold-mine")
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
    game = new_game(client, "blondes-and-brunettes")
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
