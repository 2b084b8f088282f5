"""Every refusal of the games API: one JSON error format, a stable code, and nothing changed."""

from __future__ import annotations

import json
import random
import string
from typing import Any

import pytest

from games.models import Game, IdempotencyRecord, Move
from games.rules import IllegalMove, get_variant
from tests.games.helpers import (
    SLUGS,
    anonymous_client,
    assert_error,
    client_for,
    crash_tolerant,
    detail,
    history,
    new_game,
    play,
    post_move,
    post_raw,
    unchanged,
)

pytestmark = pytest.mark.django_db


def game_in_progress(client: Any, slug: str = "grounds-for-divorce", seed: int = 7) -> dict:
    """A game two moves in (so that undo, replay and history have something to show)."""
    game = new_game(client, slug, seed=seed)
    for _ in range(2):
        game = play(client, game["id"], game["legal_moves"][0])
    return game


def game_urls(game_id: int) -> dict[str, str]:
    base = f"/api/games/{game_id}/"
    return {
        "detail": base,
        "moves": base + "moves/",
        "undo": base + "undo/",
        "resign": base + "resign/",
        "replay": base + "replay/",
    }


# -- illegal moves ----------------------------------------------------------------------------


@pytest.mark.parametrize("slug", SLUGS)
def test_an_illegal_move_is_refused_with_the_engines_code_and_message(slug: str) -> None:
    client = client_for()
    game = game_in_progress(client, slug, seed=31)
    variant = get_variant(slug)
    state = variant.state_from_json(Game.objects.get(pk=game["id"]).state)
    legal = game["legal_moves"]
    candidates = [{"type": "deal"}] + [
        {"type": "move", "from": source, "to": target, "count": n}
        for source in variant.pile_ids
        for target in variant.pile_ids
        for n in (1, 2)
    ]
    refusals: dict[str, tuple[dict, str]] = {}
    for move in candidates:
        if move in legal:
            continue
        try:
            variant.apply(state, variant.move_from_json(move))
        except IllegalMove as error:
            refusals.setdefault(error.code, (move, error.message))
        else:
            raise AssertionError(f"{move} applies but is not in legal_moves")
    assert len(refusals) >= 3
    for code, (move, message) in refusals.items():
        with unchanged(client, game["id"]):
            error = assert_error(post_move(client, game["id"], move), 400, code)
            assert error["message"] == message


# -- bodies the API cannot read ---------------------------------------------------------------


@pytest.mark.parametrize("raw", ['{"move": ', "{'move': 1}", "deal", '{"move": {"type": "deal"}}}'])
def test_malformed_json_is_refused_on_every_post(raw: str) -> None:
    client = client_for()
    game = game_in_progress(client)
    urls = game_urls(game["id"])
    with unchanged(client, game["id"]):
        for url in ("/api/games/", urls["moves"], urls["undo"], urls["resign"]):
            assert_error(post_raw(client, url, raw), 400, "malformed_json")
    assert Game.objects.count() == 1


@pytest.mark.parametrize("raw", ["[]", '["move"]', '"deal"', "42", "true", "null"])
def test_a_body_that_is_not_a_json_object_is_refused(raw: str) -> None:
    client = client_for()
    game = game_in_progress(client)
    urls = game_urls(game["id"])
    with unchanged(client, game["id"]):
        for url in ("/api/games/", urls["moves"], urls["undo"], urls["resign"]):
            assert_error(post_raw(client, url, raw), 400, "malformed_json")
    assert Game.objects.count() == 1


@pytest.mark.parametrize(
    ("raw", "where"),
    [
        ('{"move": ', "expecting value at line 1, column 10"),
        ("{'move': 1}", "expecting property name enclosed in double quotes at line 1, column 2"),
        ('{"variant": NaN}', "NaN and Infinity are not JSON numbers"),
        (b'{"variant": "\xff"}', "it is not UTF-8 text"),
    ],
)
def test_a_body_that_is_not_json_is_refused_in_words(raw: str | bytes, where: str) -> None:
    """Not the decoder's "JSON parse error - Expecting value: line 1 column 10 (char 9)"."""
    client = client_for()

    error = assert_error(post_raw(client, "/api/games/", raw), 400, "malformed_json")

    assert error["message"].startswith("The body is not valid JSON")
    assert where in error["message"]
    assert error["message"].endswith("with Content-Type: application/json.")
    assert "parse error" not in error["message"]
    assert not Game.objects.exists()


def test_a_form_encoded_body_is_refused_as_unsupported() -> None:
    client = client_for()
    game = game_in_progress(client)
    with unchanged(client, game["id"]):
        response = client.post(game_urls(game["id"])["moves"], {"move": "deal"}, format="multipart")
        assert_error(response, 415, "unsupported_media_type")


@pytest.mark.parametrize(
    "data",
    [
        {"variant": "klondike"},
        {"variant": "Gold-Mine"},
        {"variant": ""},
        {"variant": None},
        {"variant": 5},
        {"variant": ["gold-mine"]},
        {"seed": 4},
        {},
    ],
)
def test_an_unknown_or_missing_variant_is_refused(data: dict) -> None:
    client = client_for()
    assert_error(client.post("/api/games/", data, format="json"), 400)
    assert not Game.objects.exists()


def test_a_field_the_api_does_not_take_is_refused_not_ignored() -> None:
    """A misspelt member ("sead") would have dealt a random game without a word."""
    client = client_for()
    response = client.post("/api/games/", {"variant": "gold-mine", "sead": 7}, format="json")

    error = assert_error(response, 400, "unknown_field")
    assert error["message"] == (
        '"sead" cannot be sent here: this request takes "variant", "seed" and "winnable" only. '
        "Nothing was done."
    )
    assert error["fields"] == {"sead": ["This request does not take this field."]}
    assert not Game.objects.exists()

    game = game_in_progress(client)
    urls = game_urls(game["id"])
    with unchanged(client, game["id"]):
        move = {"move": game["legal_moves"][0], "expected_move_number": 2, "count": 1}
        error = assert_error(client.post(urls["moves"], move, format="json"), 400, "unknown_field")
        assert list(error["fields"]) == ["count"]
        for action in ("undo", "resign"):
            response = client.post(urls[action], {"expected": 2}, format="json")
            assert_error(response, 400, "unknown_field")


def test_an_unknown_game_is_named_alike_on_every_path() -> None:
    """A new game, the games list's filter and the daily and leaderboard paths all say it as
    "There is no game called 'nope'.", not DRF's '"nope" is not a valid choice.'."""
    client = client_for()
    message = "There is no game called 'nope'."

    error = assert_error(client.post("/api/games/", {"variant": "nope"}, format="json"), 400)
    assert error["code"] == "invalid"
    assert error["fields"] == {"variant": [message]} and error["message"] == f"variant: {message}"
    error = assert_error(client.get("/api/games/", {"variant": "nope"}), 400, "invalid")
    assert error["fields"] == {"variant": [message]}
    error = assert_error(client.get("/api/leaderboards/nope/"), 404, "unknown_variant")
    assert error["message"] == message
    assert not Game.objects.exists()


SEED_MESSAGE = "A deal number is a whole number from 0 to 9007199254740991."


@pytest.mark.parametrize(
    "seed",
    [-1, 2**53, 2**64, 10**30, "abc", 1.5, "1.5", True, False, [], {}, "1e3", "9" * 1001],
)
def test_a_seed_out_of_range_or_not_a_whole_number_is_refused_in_words(seed: Any) -> None:
    client = client_for()
    response = client.post("/api/games/", {"variant": "gold-mine", "seed": seed}, format="json")
    error = assert_error(response, 400, "invalid")
    assert error["fields"] == {"seed": [SEED_MESSAGE]}
    assert error["message"] == f"seed: {SEED_MESSAGE}"
    assert not Game.objects.exists()


@pytest.mark.parametrize("number", [-1, "x", 1.5, True, "9" * 1001])
def test_an_expected_move_number_that_is_not_one_is_refused_in_words(number: Any) -> None:
    client = client_for()
    game = game_in_progress(client)
    urls = game_urls(game["id"])
    message = "The game's move number as you last saw it: a whole number from 0 up."
    with unchanged(client, game["id"]):
        for url, data in [
            (urls["moves"], {"move": game["legal_moves"][0], "expected_move_number": number}),
            (urls["undo"], {"expected_move_number": number}),
            (urls["resign"], {"expected_move_number": number}),
        ]:
            error = assert_error(client.post(url, data, format="json"), 400, "invalid")
            assert error["fields"] == {"expected_move_number": [message]}


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({}, None),
        ({"expected_move_number": 2}, None),
        ({"move": None}, None),
        ({"move": []}, "malformed_move"),
        ({"move": [{"type": "deal"}]}, "malformed_move"),
        ({"move": "deal"}, "malformed_move"),
        ({"move": 1}, "malformed_move"),
        ({"move": {}}, "malformed_move"),
        ({"move": {"type": "fly"}}, "malformed_move"),
        ({"move": {"type": "deal", "count": 1}}, "malformed_move"),
        ({"move": {"type": "move", "from": "tableau:0", "to": "tableau:1", "count": 0}}, None),
        ({"move": {"type": "move", "from": "tableau:0", "to": "tableau:1", "count": -1}}, None),
        ({"move": {"type": "move", "from": "tableau:0", "to": "tableau:1", "count": 1.5}}, None),
        ({"move": {"type": "move", "from": "tableau:0", "to": "tableau:1", "count": "1"}}, None),
        ({"move": {"type": "move", "from": "tableau:0", "to": "tableau:1", "count": True}}, None),
        ({"move": {"type": "move", "from": "tableau:0", "to": "tableau:1", "count": 999}}, None),
        ({"move": {"type": "move", "from": "tableau:0"}}, "malformed_move"),
        ({"move": {"type": "move", "from": 0, "to": 1}}, "malformed_move"),
        ({"move": {"type": "move", "from": "tableau:0", "to": "tableau:1", "x": 1}}, None),
        ({"move": {"type": "move", "from": "tableau:99", "to": "tableau:0"}}, "unknown_pile"),
        ({"move": {"type": "move", "from": "tableau:0", "to": "moon"}}, "unknown_pile"),
        ({"move": {"type": "move", "from": "tableau:-1", "to": "tableau:0"}}, "unknown_pile"),
        ({"move": {"type": "move", "from": "stock", "to": "stock"}}, None),
    ],
)
def test_a_move_of_the_wrong_shape_is_refused(data: dict, code: str | None) -> None:
    client = client_for()
    game = game_in_progress(client)
    with unchanged(client, game["id"]):
        response = client.post(game_urls(game["id"])["moves"], data, format="json")
        error = assert_error(response, 400, code)
        if code is None and "move" in data and isinstance(data["move"], dict):
            assert error["code"] in {"malformed_move", "unknown_pile", "same_pile"}


@pytest.mark.parametrize("expected", [-1, "two", 1.5, True, [2]])
def test_an_expected_move_number_that_is_not_a_number_is_refused(expected: Any) -> None:
    client = client_for()
    game = game_in_progress(client)
    with unchanged(client, game["id"]):
        data = {"move": game["legal_moves"][0], "expected_move_number": expected}
        assert_error(client.post(game_urls(game["id"])["moves"], data, format="json"), 400)


@pytest.mark.parametrize("with_key", [False, True])
def test_a_huge_body_is_refused_as_json(with_key: bool) -> None:
    client = client_for()
    game = game_in_progress(client, "gold-mine")
    extra = {"HTTP_IDEMPOTENCY_KEY": "huge"} if with_key else {}
    valid_but_padded = json.dumps({"move": {"type": "deal"}, "pad": "x" * 300_000})
    padded_game = json.dumps({"variant": "gold-mine", "pad": "x" * 300_000})
    garbage = "{" * 300_000
    urls = game_urls(game["id"])
    with unchanged(client, game["id"]):
        for url, raw in [
            (urls["moves"], valid_but_padded),
            (urls["moves"], garbage),
            ("/api/games/", padded_game),
            (urls["undo"], json.dumps({"pad": "x" * 300_000})),
        ]:
            assert_error(post_raw(client, url, raw, **extra), 413, "body_too_large")
    assert Game.objects.count() == 1


# -- refusals of the game's state -------------------------------------------------------------


def test_a_stale_expected_move_number_is_a_conflict_naming_the_current_one() -> None:
    client = client_for()
    game = game_in_progress(client)
    urls = game_urls(game["id"])
    assert game["move_number"] == 2
    with unchanged(client, game["id"]):
        for stale in (0, 1, 3, 10**12):
            response = post_move(client, game["id"], game["legal_moves"][0], expected=stale)
            error = assert_error(response, 409, "stale_move_number")
            assert error["move_number"] == 2
        for url in (urls["undo"], urls["resign"]):
            response = client.post(url, {"expected_move_number": 1}, format="json")
            assert assert_error(response, 409, "stale_move_number")["move_number"] == 2
    # The current number is accepted.
    response = post_move(client, game["id"], game["legal_moves"][0], expected=2)
    assert response.status_code == 201
    response = client.post(urls["resign"], {"expected_move_number": 3}, format="json")
    assert response.status_code == 200


def test_a_finished_game_refuses_moves_undo_and_resign() -> None:
    client = client_for()
    game = game_in_progress(client)
    urls = game_urls(game["id"])
    assert client.post(urls["resign"], {}, format="json").status_code == 200
    with unchanged(client, game["id"]):
        for move in game["legal_moves"]:
            assert_error(post_move(client, game["id"], move), 409, "game_finished")
        assert_error(post_move(client, game["id"], {"type": "fly"}), 409)
        assert_error(client.post(urls["undo"], {}, format="json"), 409, "game_finished")
        assert_error(client.post(urls["resign"], {}, format="json"), 409, "game_finished")


# -- whose game -------------------------------------------------------------------------------


def every_request(client: Any, game_id: int, legal_move: dict) -> dict[str, Any]:
    urls = game_urls(game_id)
    return {
        "detail": client.get(urls["detail"]),
        "history": client.get(urls["moves"]),
        "move": post_move(client, game_id, legal_move),
        "undo": client.post(urls["undo"], {}, format="json"),
        "resign": client.post(urls["resign"], {}, format="json"),
        "replay": client.get(urls["replay"], {"step": 0}),
        "replay-now": client.get(urls["replay"]),
    }


def test_someone_elses_game_is_not_found_on_every_endpoint() -> None:
    owner, stranger = client_for(), client_for()
    game = game_in_progress(owner)
    with unchanged(owner, game["id"]):
        responses = every_request(stranger, game["id"], game["legal_moves"][0])
        missing = every_request(stranger, 10**9, game["legal_moves"][0])
        for name, response in responses.items():
            error = assert_error(response, 404, "not_found")
            # Indistinguishable from a game that does not exist.
            assert error == assert_error(missing[name], 404, "not_found"), name
    assert stranger.get("/api/games/").json()["count"] == 0


@pytest.mark.parametrize("game_id", [2**31, 2**63, 10**30, -1, -(2**63) - 1])
def test_a_game_number_beyond_any_stored_one_is_not_found_on_every_endpoint(game_id: int) -> None:
    client = client_for()
    game = game_in_progress(client)
    missing = every_request(client, 10**9, game["legal_moves"][0])
    for name, response in every_request(client, game_id, game["legal_moves"][0]).items():
        assert response.status_code == 404, (name, response.content)
        # Said as of any game that does not exist, not as of a path the API does not have.
        error = assert_error(response, 404, "not_found")
        assert error == assert_error(missing[name], 404, "not_found"), name


def test_not_signed_in_is_refused_on_every_games_endpoint() -> None:
    owner = client_for()
    game = game_in_progress(owner)
    for client, code in [
        (anonymous_client(), "not_authenticated"),
        (_with_token("not-a-real-token"), "authentication_failed"),
    ]:
        with unchanged(owner, game["id"]):
            responses = every_request(client, game["id"], game["legal_moves"][0])
            responses["list"] = client.get("/api/games/")
            responses["create"] = client.post(
                "/api/games/", {"variant": "gold-mine"}, format="json"
            )
            responses["stats"] = client.get("/api/me/stats/")
            for response in responses.values():
                assert_error(response, 401, code)
    assert Game.objects.count() == 1


def _with_token(token: str) -> Any:
    client = anonymous_client()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def test_a_real_token_signs_in() -> None:
    from rest_framework.authtoken.models import Token

    from tests.games.helpers import make_user

    user = make_user()
    token = Token.objects.create(user=user)
    client = _with_token(token.key)
    created = client.post("/api/games/", {"variant": "gold-mine"}, format="json")
    assert created.status_code == 201
    assert client.get(f"/api/games/{created.json()['id']}/").status_code == 200


# -- replay and listing ----------------------------------------------------------------------


def test_a_replay_step_out_of_range_is_refused() -> None:
    client = client_for()
    game = game_in_progress(client)
    url = game_urls(game["id"])["replay"]
    assert_error(client.get(url, {"step": 3}), 400, "invalid_step")
    for step in (-1, 10**30, "abc", "1.5"):
        assert_error(client.get(url, {"step": step}), 400)
    assert client.get(url, {"step": 2}).status_code == 200
    # As a link writes a number: not 1.0, +1 or another script's digits (U+0662 is 2); and
    # whatever is not a step of the game is refused alike, naming the steps to choose from.
    for step in (3, 99, -1, 10**30, "abc", "1.5", "1.0", "+1", " 1", "\u0662"):
        error = assert_error(client.get(url, {"step": step}), 400, "invalid_step")
        assert error["message"] == "Choose a step from 0 to 2."
        assert "fields" not in error


def test_bad_list_filters_and_pages_are_json_errors() -> None:
    client = client_for()
    new_game(client, "gold-mine")
    assert_error(client.get("/api/games/", {"status": "asleep"}), 400)
    assert_error(client.get("/api/games/", {"variant": "klondike"}), 400)
    assert_error(client.get("/api/games/", {"page": 7}), 404)


def test_unsupported_methods_are_json_errors() -> None:
    client = client_for()
    game = game_in_progress(client)
    urls = game_urls(game["id"])
    with unchanged(client, game["id"]):
        assert_error(client.delete(urls["detail"]), 405, "method_not_allowed")
        assert_error(client.put(urls["moves"], {}, format="json"), 405, "method_not_allowed")
        assert_error(client.get(urls["undo"]), 405, "method_not_allowed")
        assert_error(client.post(urls["replay"], {}, format="json"), 405, "method_not_allowed")


def test_refusals_of_the_request_itself_say_what_to_send() -> None:
    """A wrong method, an Accept the API cannot answer, a body that is not JSON: what
    happened and what to do, not DRF's 'Method "PUT" not allowed.'."""
    client = client_for()
    game = game_in_progress(client)
    urls = game_urls(game["id"])
    with unchanged(client, game["id"]):
        error = assert_error(
            client.put(urls["moves"], {}, format="json"), 405, "method_not_allowed"
        )
        assert error["message"] == 'This address does not take "PUT": use GET or POST.'
        error = assert_error(client.delete(urls["detail"]), 405, "method_not_allowed")
        assert error["message"] == 'This address does not take "DELETE": use GET.'
        response = client.get(urls["detail"], HTTP_ACCEPT="text/html")
        error = assert_error(response, 406, "not_acceptable")
        assert error["message"] == (
            "This address answers in application/json only: ask for that in the Accept "
            "header, or send none."
        )
        response = client.post(urls["moves"], {"move": "deal"}, format="multipart")
        error = assert_error(response, 415, "unsupported_media_type")
        assert error["message"] == (
            "Send the body as JSON, with the header Content-Type: application/json "
            "(this one was multipart/form-data)."
        )


# -- Idempotency-Key --------------------------------------------------------------------------


def test_a_retried_move_returns_the_same_response_and_moves_once() -> None:
    client = client_for()
    game = game_in_progress(client, "gold-mine")
    key = {"HTTP_IDEMPOTENCY_KEY": "move-3"}
    first = post_move(client, game["id"], {"type": "deal"}, **key)
    second = post_move(client, game["id"], {"type": "deal"}, **key)
    assert first.status_code == second.status_code == 201
    assert first.json() == second.json()
    assert first.json()["move_number"] == 3
    assert detail(client, game["id"])["move_number"] == 3
    assert len(history(client, game["id"])) == 3
    assert Move.objects.filter(game_id=game["id"]).count() == 3


def test_a_retried_new_game_creates_one_game() -> None:
    client = client_for()
    key = {"HTTP_IDEMPOTENCY_KEY": "new-game"}
    first = client.post("/api/games/", {"variant": "gold-mine"}, format="json", **key)
    second = client.post("/api/games/", {"variant": "gold-mine"}, format="json", **key)
    assert first.status_code == second.status_code == 201
    assert first.json() == second.json()
    assert Game.objects.count() == 1


def test_a_retried_undo_undoes_once() -> None:
    client = client_for()
    game = game_in_progress(client, "gold-mine")
    url = game_urls(game["id"])["undo"]
    first = client.post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY="u")
    second = client.post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY="u")
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json()
    assert detail(client, game["id"])["counts"] == {"moves": 1, "undos": 1, "hints": 0}


def test_an_idempotency_key_reused_for_another_request_is_refused() -> None:
    client = client_for()
    game = game_in_progress(client, "gold-mine")
    key = {"HTTP_IDEMPOTENCY_KEY": "k-1"}
    assert post_move(client, game["id"], {"type": "deal"}, **key).status_code == 201
    with unchanged(client, game["id"]):
        other_move = detail(client, game["id"])["legal_moves"][0]
        assert other_move != {"type": "deal"}
        response = post_move(client, game["id"], other_move, **key)
        assert_error(response, 422, "idempotency_key_reused")
        response = client.post(game_urls(game["id"])["undo"], {}, format="json", **key)
        assert_error(response, 422, "idempotency_key_reused")
        response = client.post("/api/games/", {"variant": "gold-mine"}, format="json", **key)
        assert_error(response, 422, "idempotency_key_reused")
    assert Game.objects.count() == 1


def test_a_retried_illegal_move_is_refused_the_same_way() -> None:
    client = client_for()
    game = game_in_progress(client, "gold-mine")
    illegal = {"type": "move", "from": "foundation:0", "to": "tableau:0", "count": 1}
    key = {"HTTP_IDEMPOTENCY_KEY": "illegal"}
    with unchanged(client, game["id"]):
        first = post_move(client, game["id"], illegal, **key)
        second = post_move(client, game["id"], illegal, **key)
        error = assert_error(first, 400)
        assert assert_error(second, 400) == error
        assert first.json() == second.json()


def test_idempotency_keys_belong_to_each_player() -> None:
    ada, bob = client_for(), client_for()
    ada_game = new_game(ada, "gold-mine", seed=1)
    bob_game = new_game(bob, "gold-mine", seed=1)
    assert ada_game["id"] != bob_game["id"]
    key = {"HTTP_IDEMPOTENCY_KEY": "shared"}
    # Same path shape but different games: Bob's request is his own, not a retry of Ada's.
    first = post_move(ada, ada_game["id"], {"type": "deal"}, **key)
    second = post_move(bob, bob_game["id"], {"type": "deal"}, **key)
    assert first.status_code == second.status_code == 201
    assert second.json()["id"] == bob_game["id"]
    assert IdempotencyRecord.objects.filter(key="shared").count() == 2


def test_an_overlong_idempotency_key_is_refused() -> None:
    client = client_for()
    game = game_in_progress(client, "gold-mine")
    with unchanged(client, game["id"]):
        response = post_move(client, game["id"], {"type": "deal"}, HTTP_IDEMPOTENCY_KEY="k" * 101)
        assert_error(response, 400, "invalid_idempotency_key")


# -- garbage never breaks the server ----------------------------------------------------------

VOCABULARY = [
    "move",
    "type",
    "from",
    "to",
    "count",
    "deal",
    "variant",
    "seed",
    "expected_move_number",
    "tableau:0",
    "tableau:1",
    "waste",
    "stock",
    "foundation:0",
    "gold-mine",
    "grounds-for-divorce",
    "undo",
    "__proto__",
    "",
]


def random_text(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return rng.choice(VOCABULARY)
    alphabet = string.printable + "é漢\u2028\u0000🂡"
    return "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))


def random_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(9 if depth < 4 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice([0, 1, -1, 104, 105, 2**31, 2**53, 2**63, -(2**64), 10**40])
    if kind == 3:
        return rng.uniform(-1e6, 1e6)
    if kind in (4, 5):
        return random_text(rng)
    if kind == 6:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = VOCABULARY if rng.random() < 0.8 else [random_text(rng)]
    return {rng.choice(keys): random_value(rng, depth + 1) for _ in range(rng.randrange(5))}


def random_move(rng: random.Random, piles: list[str]) -> Any:
    move: dict[str, Any] = {"type": rng.choice(["move", "move", "deal", "Move", None])}
    for field in ("from", "to", "count"):
        if rng.random() < 0.8:
            if field == "count":
                move[field] = rng.choice([1, 2, 13, 0, -3, 10**20, "1", None, 1.0])
            else:
                move[field] = rng.choice(piles) if rng.random() < 0.8 else random_value(rng)
    if rng.random() < 0.1:
        move[random_text(rng)] = random_value(rng)
    return move


def random_raw(rng: random.Random) -> bytes:
    choices = [
        lambda: bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60))),
        lambda: json.dumps(random_value(rng))[: rng.randrange(1, 30)].encode(),
        lambda: b'{"move": NaN}',
        lambda: b'{"move": {"type": "move", "count": Infinity}}',
        lambda: b'{"seed": 1e999, "variant": "gold-mine"}',
        lambda: b'{"seed": ' + b"9" * 5000 + b', "variant": "gold-mine"}',
        lambda: b'{"move": {"type": "deal"}, "move": [1]}',
        lambda: b"\xef\xbb\xbf" + b'{"move": {"type": "deal"}}',
        lambda: '{"variant": "gold-mine", "seed": 3}'.encode("utf-16"),
        lambda: b"",
    ]
    return rng.choice(choices)()


def assert_not_a_crash(response: Any) -> None:
    assert response.status_code < 500, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    if response.status_code >= 400:
        assert_error(response, response.status_code)


def test_garbage_bodies_never_crash_the_server() -> None:
    client = crash_tolerant(client_for())
    game = game_in_progress(client, "grounds-for-divorce", seed=5)
    piles = [*get_variant("grounds-for-divorce").pile_ids, "tableau:10", "nowhere"]
    rng = random.Random(20240601)
    urls = game_urls(game["id"])
    for attempt in range(400):
        extra = {"HTTP_IDEMPOTENCY_KEY": f"fuzz-{attempt % 7}"} if attempt % 5 == 0 else {}
        shape = attempt % 4
        if shape == 0:
            body: Any = {"move": random_move(rng, piles)}
            if rng.random() < 0.5:
                body["expected_move_number"] = random_value(rng)
            raw = json.dumps(body).encode()
        elif shape == 1:
            raw = json.dumps(random_value(rng)).encode()
        elif shape == 2:
            raw = random_raw(rng)
        else:
            body = {"variant": rng.choice([*SLUGS, random_text(rng)]), "seed": random_value(rng)}
            if rng.random() < 0.3:
                body = random_value(rng)
            raw = json.dumps(body).encode()
        for url in (urls["moves"], "/api/games/"):
            assert_not_a_crash(post_raw(client, url, raw, **extra))
        if attempt % 40 == 0:
            assert_not_a_crash(post_raw(client, urls["undo"], raw))
    # Whatever got through was legal, and the game still reads and replays.
    now = detail(client, game["id"])
    assert now["move_number"] == len(history(client, game["id"]))
    assert client.get(urls["replay"], {"step": now["move_number"]}).status_code == 200


NESTED = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    ("url", "raw"),
    [
        ("moves", NESTED),
        ("moves", '{"move": ' + NESTED + "}"),
        ("new", NESTED),
        ("new", '{"variant": ' + NESTED + "}"),
    ],
    ids=["moves-array", "moves-inside-move", "new-game-array", "new-game-inside-variant"],
)
def test_deeply_nested_json_is_refused_not_a_crash(url: str, raw: str) -> None:
    client = crash_tolerant(client_for())
    game = game_in_progress(client)
    target = game_urls(game["id"])["moves"] if url == "moves" else "/api/games/"
    with unchanged(client, game["id"]):
        assert_error(post_raw(client, target, raw), 400)
    assert Game.objects.count() == 1


@pytest.mark.parametrize(
    ("url", "raw"),
    [
        ("new", '{"variant": "\\ud800"}'),
        ("new", '{"variant": "gold-mine", "seed": "\\udfff"}'),
        ("moves", '{"move": {"type": "move", "from": "\\ud800", "to": "waste"}}'),
        ("moves", '{"move": {"type": "\\ud800"}}'),
        ("moves", '{"move": {"type": "deal"}, "expected_move_number": "\\ud800"}'),
    ],
    ids=["new-game-variant", "new-game-seed", "move-pile", "move-type", "expected-move-number"],
)
def test_a_lone_surrogate_in_a_body_is_refused_not_a_crash(url: str, raw: str) -> None:
    """JSON may spell an unpaired surrogate (``\\ud800``); it must not break the error reply."""
    client = crash_tolerant(client_for())
    game = game_in_progress(client)
    target = game_urls(game["id"])["moves"] if url == "moves" else "/api/games/"
    with unchanged(client, game["id"]):
        assert_error(post_raw(client, target, raw), 400)
    assert Game.objects.count() == 1
