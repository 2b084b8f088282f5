"""The games API as a player uses it: new games, lists, moves, undo, resign, replay, stats."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.models import Game
from games.rules import MAX_SEED, get_variant
from tests.games.helpers import (
    REPRESENTATION_KEYS,
    SLUGS,
    assert_error,
    client_for,
    detail,
    history,
    make_user,
    new_game,
    play,
    post_move,
    replay,
    solve,
    started_game,
)

pytestmark = pytest.mark.django_db


def face_down_hidden(view: dict[str, Any]) -> bool:
    """Every face-down card of a player view is null, every face-up one is a code."""
    for pile in view["piles"].values():
        down = pile["face_down"]
        if any(card is not None for card in pile["cards"][:down]):
            return False
        if any(card is None for card in pile["cards"][down:]):
            return False
    return True


def all_cards_shown(view: dict[str, Any]) -> bool:
    return all(card is not None for pile in view["piles"].values() for card in pile["cards"])


def expected_view(slug: str, seed: int, *, reveal_seed: bool) -> dict[str, Any]:
    variant = get_variant(slug)
    return variant.player_view(variant.deal(seed), reveal_seed=reveal_seed)


# -- the catalogue ----------------------------------------------------------------------------


def test_variants_are_public_and_list_the_five_games() -> None:
    from rest_framework.test import APIClient

    response = APIClient().get("/api/variants/")
    assert response.status_code == 200
    catalogue = response.json()
    assert [entry["slug"] for entry in catalogue] == SLUGS
    for entry in catalogue:
        variant = get_variant(entry["slug"])
        assert [pile["id"] for pile in entry["piles"]] == list(variant.pile_ids)
        assert entry["name"] and entry["decks"] in (1, 2)


def test_variants_describe_each_games_table_as_its_module_does() -> None:
    """The pages draw every table from /api/variants/: rows of piles, names, opening counts."""
    from rest_framework.test import APIClient

    from games.rules.table import describe

    catalogue = APIClient().get("/api/variants/").json()
    for entry in catalogue:
        variant = get_variant(entry["slug"])
        assert {key: entry[key] for key in describe(variant)} == describe(variant)
        placed = [
            slot["pile"]
            for row in entry["table"]["rows"]
            for slot in row["slots"]
            if "pile" in slot
        ]
        assert sorted(placed) == sorted(variant.pile_ids) and len(placed) == len(set(placed))
        state = variant.deal(12345)
        for pile, dealt in zip(entry["piles"], state.piles, strict=True):
            assert pile["opening"] == {"cards": len(dealt.cards), "face_down": dealt.face_down}
    clock = next(entry for entry in catalogue if entry["slug"] == "grandfathers-clock")
    assert clock["piles"][0]["title"] == "12 o'clock foundation"
    assert clock["piles"][0]["complete_rank"] == "Q" and clock["piles"][0]["label"] == "12"
    assert clock["table"]["rows"][0]["clock"] is True
    castle = next(entry for entry in catalogue if entry["slug"] == "selective-castle")
    assert castle["chooses_base_rank_on_first_foundation_move"] is True
    gold = next(entry for entry in catalogue if entry["slug"] == "gold-mine")
    assert gold["foundation_start_rank"] == "A"
    waste = gold["table"]["rows"][0]["slots"][1]
    assert waste == {"pile": "waste", "span": 2.3, "show": 3}


# -- creating games ---------------------------------------------------------------------------


@pytest.mark.parametrize("slug", SLUGS)
def test_new_game_with_a_random_seed_hides_the_seed(slug: str) -> None:
    client = client_for()
    game = new_game(client, slug)
    assert set(game) == REPRESENTATION_KEYS
    assert game["variant"] == slug
    assert game["seed"] is None
    assert game["state"]["seed"] is None
    assert game["status"] == "playing"
    assert game["move_number"] == 0
    assert game["ranked"] is False
    assert game["counts"] == {"moves": 0, "undos": 0, "hints": 0}
    assert game["last_move_at"] is None and game["finished_at"] is None
    assert game["legal_moves"], "a new deal has moves"
    assert face_down_hidden(game["state"])
    # The board is the deal of the seed the server drew (which the player does not see).
    stored = Game.objects.select_related("deal").get(pk=game["id"])
    assert not stored.seed_chosen
    assert 0 <= stored.deal.seed <= MAX_SEED
    assert game["state"] == expected_view(slug, stored.deal.seed, reveal_seed=False)
    assert detail(client, game["id"]) == game


@pytest.mark.parametrize("slug", SLUGS)
def test_new_game_with_a_chosen_seed_shows_the_seed_and_deals_it(slug: str) -> None:
    client = client_for()
    game = new_game(client, slug, seed=1234)
    assert game["seed"] == 1234
    assert game["state"] == expected_view(slug, 1234, reveal_seed=True)
    assert game["state"]["seed"] == 1234
    legal = [move.to_json() for move in get_variant(slug).legal_moves(get_variant(slug).deal(1234))]
    assert game["legal_moves"] == legal


def test_seed_zero_and_the_largest_seed_are_valid_choices() -> None:
    client = client_for()
    assert new_game(client, "gold-mine", seed=0)["seed"] == 0
    assert new_game(client, "gold-mine", seed=MAX_SEED)["seed"] == MAX_SEED


def test_two_random_games_get_different_deals() -> None:
    client = client_for()
    first, second = new_game(client, "gold-mine"), new_game(client, "gold-mine")
    seeds = set(Game.objects.filter(pk__in=[first["id"], second["id"]]).values_list("deal__seed"))
    assert len(seeds) == 2


# -- listing and reading ----------------------------------------------------------------------


def test_list_shows_only_my_games_newest_first_without_cards() -> None:
    me, other = client_for(), client_for()
    mine = [started_game(me, slug)["id"] for slug in SLUGS]
    started_game(other, "gold-mine")
    response = me.get("/api/games/")
    assert response.status_code == 200
    page = response.json()
    assert set(page) == {"count", "next", "previous", "results"}
    assert page["count"] == 5
    assert [game["id"] for game in page["results"]] == mine[::-1]
    for summary in page["results"]:
        assert "state" not in summary and "legal_moves" not in summary
        assert summary["seed"] is None
        assert summary["status"] == "playing"


def test_list_pages_are_counted_from_one_and_end_with_the_games() -> None:
    client = client_for()
    started_game(client, "gold-mine")
    assert client.get("/api/games/", {"page": 1}).json()["count"] == 1
    for page in ("0", "-2", "one", str(2**63)):
        assert_error(client.get("/api/games/", {"page": page}), 400, "invalid")
    assert_error(client.get("/api/games/", {"page": 2}), 404, "not_found")


def test_list_filters_by_status_and_variant() -> None:
    client = client_for()
    gold = [started_game(client, "gold-mine")["id"] for _ in range(3)]
    clock = started_game(client, "grandfathers-clock")["id"]
    assert client.post(f"/api/games/{gold[0]}/resign/", {}, format="json").status_code == 200

    def ids(**params: str) -> list[int]:
        response = client.get("/api/games/", params)
        assert response.status_code == 200, response.content
        return [game["id"] for game in response.json()["results"]]

    assert ids(variant="gold-mine") == gold[::-1]
    assert ids(variant="grandfathers-clock") == [clock]
    assert ids(variant="selective-castle") == []
    assert ids(status="resigned") == [gold[0]]
    assert ids(status="playing") == [clock, gold[2], gold[1]]
    assert ids(status="playing", variant="gold-mine") == [gold[2], gold[1]]
    assert ids(status="won") == []
    resigned = client.get("/api/games/", {"status": "resigned"}).json()["results"][0]
    assert resigned["seed"] is not None, "a finished game's seed is shown"


def test_list_status_finished_gives_every_game_that_is_over_whatever_its_outcome() -> None:
    client = client_for()
    ids = [started_game(client, "gold-mine")["id"] for _ in range(5)]
    assert client.post(f"/api/games/{ids[0]}/resign/", {}, format="json").status_code == 200
    Game.objects.filter(pk=ids[1]).update(status=Game.Status.WON)
    Game.objects.filter(pk=ids[2]).update(status=Game.Status.LOST)
    Game.objects.filter(pk=ids[3]).update(status=Game.Status.CLOSED)
    response = client.get("/api/games/", {"status": "finished"})
    assert response.status_code == 200, response.content
    listed = response.json()
    assert [game["id"] for game in listed["results"]] == ids[3::-1], "newest first, not ids[4]"
    assert listed["count"] == 4
    assert {game["status"] for game in listed["results"]} == {"won", "lost", "resigned", "closed"}
    playing = client.get("/api/games/", {"status": "playing"}).json()["results"]
    assert [game["id"] for game in playing] == [ids[4]]
    assert_error(client.get("/api/games/", {"status": "over"}), 400, "invalid")


def test_list_is_paginated_by_twenty() -> None:
    client = client_for()
    ids = [started_game(client, "selective-castle")["id"] for _ in range(23)]
    first = client.get("/api/games/").json()
    assert first["count"] == 23
    assert first["previous"] is None and first["next"]
    assert [game["id"] for game in first["results"]] == ids[::-1][:20]
    second = client.get(first["next"]).json()
    assert second["next"] is None and second["previous"]
    assert [game["id"] for game in second["results"]] == ids[::-1][20:]


def test_detail_and_empty_history_of_a_new_game() -> None:
    client = client_for()
    game = new_game(client, "blondes-and-brunettes", seed=5)
    assert detail(client, game["id"]) == game
    assert history(client, game["id"]) == []


# -- playing ----------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", SLUGS)
def test_playing_legal_moves_advances_the_game_and_records_the_history(slug: str) -> None:
    client = client_for()
    game = new_game(client, slug, seed=2024)
    variant = get_variant(slug)
    state = variant.deal(2024)
    rng = random.Random(slug)
    played = []
    for number in range(1, 9):
        assert game["status"] == "playing"
        alive = [
            m
            for m in game["legal_moves"]
            if variant.status(variant.apply(state, variant.move_from_json(m))) == "playing"
        ]
        move = rng.choice(alive)
        response = post_move(client, game["id"], move, expected=number - 1)
        assert response.status_code == 201, response.content
        game = response.json()
        state, events = variant.play(state, variant.move_from_json(move))
        played.append(move)
        assert set(game) == REPRESENTATION_KEYS | {"events"}
        assert game["move_number"] == number
        assert game["counts"] == {"moves": number, "undos": 0, "hints": 0}
        assert game["events"] == events
        assert game["state"] == variant.player_view(state, reveal_seed=True)
        assert game["legal_moves"] == [m.to_json() for m in variant.legal_moves(state)]
        assert game["last_move_at"] is not None
    assert detail(client, game["id"]) == {k: v for k, v in game.items() if k != "events"}
    entries = history(client, game["id"])
    assert [entry["number"] for entry in entries] == list(range(1, 9))
    assert [entry["move"] for entry in entries] == played
    assert all(
        set(entry) == {"number", "move", "events", "received_at", "cards", "said"}
        for entry in entries
    )


def first_turning_move(slug: str) -> tuple[int, dict[str, Any]]:
    """A seed whose first legal moves include a tableau move that uncovers a face-down card."""
    variant = get_variant(slug)
    for seed in range(200):
        state = variant.deal(seed)
        for move in variant.legal_moves(state):
            if move.type == "move" and move.source.startswith("tableau"):
                return seed, move.to_json()
    raise AssertionError("no seed with such a move")


def test_a_move_that_uncovers_a_card_reports_turned_up() -> None:
    client = client_for()
    seed, move = first_turning_move("grounds-for-divorce")
    game = new_game(client, "grounds-for-divorce", seed=seed)
    after = play(client, game["id"], move)
    source = after["state"]["piles"][move["from"]]
    assert source["face_down"] == 3
    assert after["events"] == [
        {"type": "turned_up", "pile": move["from"], "card": source["cards"][-1]}
    ]
    assert history(client, game["id"])[0]["events"] == after["events"]


def test_an_emptied_pile_is_refilled_and_reported() -> None:
    client = client_for()
    seed, move = first_turning_move("blondes-and-brunettes")
    game = new_game(client, "blondes-and-brunettes", seed=seed)
    after = play(client, game["id"], move)
    source = after["state"]["piles"][move["from"]]
    assert after["events"] == [
        {"type": "pile_filled", "pile": move["from"], "from": "stock", "card": source["cards"][-1]}
    ]
    stock = after["state"]["piles"]["stock"]
    assert len(stock["cards"]) == 83 and set(stock["cards"]) == {None}


def test_the_first_foundation_card_sets_the_base_rank() -> None:
    client = client_for()
    variant = get_variant("selective-castle")
    seed, move = next(
        (seed, move.to_json())
        for seed in range(200)
        for move in variant.legal_moves(variant.deal(seed))
        if move.target.startswith("foundation")
    )
    game = new_game(client, "selective-castle", seed=seed)
    card = game["state"]["piles"][move["from"]]["cards"][-1]
    after = play(client, game["id"], move)
    assert after["events"] == [{"type": "base_rank_set", "rank": card[0]}]
    assert after["state"]["base_rank"] == card[0]


# -- undo -------------------------------------------------------------------------------------


def test_undo_takes_back_the_move_and_keeps_it_in_the_history() -> None:
    client = client_for()
    game = new_game(client, "selective-castle", seed=5)
    move = game["legal_moves"][0]
    moved = play(client, game["id"], move)

    response = client.post(f"/api/games/{game['id']}/undo/", {}, format="json")
    assert response.status_code == 200, response.content
    undone = response.json()
    assert undone["move_number"] == 2, "an undo is a history entry: the version advances"
    assert undone["counts"] == {"moves": 0, "undos": 1, "hints": 0}
    assert undone["state"] == game["state"], "the board is back to before the move"
    assert undone["legal_moves"] == game["legal_moves"]
    assert undone["status"] == "playing"
    assert undone["events"] == [{"type": "undone"}]

    entries = history(client, game["id"])
    assert [(e["number"], e["move"]) for e in entries] == [(1, move), (2, {"type": "undo"})]
    assert entries[0]["events"] == moved["events"], "the undone move stays in the history"

    again = detail(client, game["id"])
    assert again == {k: v for k, v in undone.items() if k != "events"}
    assert Game.objects.get(pk=game["id"]).undo_count == 1


def test_undo_twice_goes_back_two_moves_then_nothing_is_left_to_undo() -> None:
    client = client_for()
    game = new_game(client, "grandfathers-clock", seed=3)
    first = play(client, game["id"], game["legal_moves"][0])
    play(client, game["id"], first["legal_moves"][0])
    url = f"/api/games/{game['id']}/undo/"
    back_one = client.post(url, {}, format="json").json()
    assert back_one["state"] == first["state"]
    back_two = client.post(url, {}, format="json").json()
    assert back_two["state"] == game["state"]
    assert back_two["counts"] == {"moves": 0, "undos": 2, "hints": 0}
    assert back_two["move_number"] == 4

    response = client.post(url, {}, format="json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "nothing_to_undo"
    assert detail(client, game["id"])["move_number"] == 4
    assert [e["move"]["type"] for e in history(client, game["id"])] == [
        "move",
        "move",
        "undo",
        "undo",
    ]


def test_nothing_to_undo_on_a_new_game() -> None:
    client = client_for()
    game = new_game(client, "selective-castle")
    response = client.post(f"/api/games/{game['id']}/undo/", {}, format="json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "nothing_to_undo"
    assert detail(client, game["id"]) == game
    assert history(client, game["id"]) == []


def test_a_move_after_an_undo_continues_from_the_restored_board() -> None:
    client = client_for()
    game = new_game(client, "selective-castle", seed=11)
    first, second = game["legal_moves"][:2]
    play(client, game["id"], first)
    client.post(f"/api/games/{game['id']}/undo/", {}, format="json")
    again = play(client, game["id"], second)
    variant = get_variant("selective-castle")
    expected = variant.apply(variant.deal(11), variant.move_from_json(second))
    assert again["state"] == variant.player_view(expected, reveal_seed=True)
    assert again["move_number"] == 3
    assert again["counts"] == {"moves": 1, "undos": 1, "hints": 0}


# -- resigning --------------------------------------------------------------------------------


def test_resign_ends_the_game_reveals_the_seed_and_refuses_further_actions() -> None:
    client = client_for()
    game = new_game(client, "grounds-for-divorce")
    play(client, game["id"], game["legal_moves"][0])
    response = client.post(f"/api/games/{game['id']}/resign/", {}, format="json")
    assert response.status_code == 200, response.content
    resigned = response.json()
    seed = Game.objects.select_related("deal").get(pk=game["id"]).deal.seed
    assert resigned["status"] == "resigned"
    assert resigned["seed"] == seed
    assert resigned["finished_at"] is not None
    assert resigned["legal_moves"] == []
    assert resigned["move_number"] == 2
    assert history(client, game["id"])[-1]["move"] == {"type": "resign"}

    before = detail(client, game["id"])
    assert before["seed"] == seed and before["status"] == "resigned"
    refused = post_move(client, game["id"], game["legal_moves"][0])
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "game_finished"
    for action in ("undo", "resign"):
        response = client.post(f"/api/games/{game['id']}/{action}/", {}, format="json")
        assert response.status_code == 409, action
        assert response.json()["error"]["code"] == "game_finished"
    assert detail(client, game["id"]) == before


@pytest.mark.parametrize("slug", SLUGS)
def test_can_undo_always_says_what_an_undo_would_get(slug: str) -> None:
    """Random play trying an undo after every step: accepted exactly when the game said so."""
    client = client_for()
    rng = random.Random(slug)
    game = new_game(client, slug, seed=rng.randrange(1000))
    assert game["can_undo"] is False
    for _ in range(40):
        said = game["can_undo"]
        response = client.post(f"/api/games/{game['id']}/undo/", {}, format="json")
        assert (response.status_code == 200) is said, (said, response.content)
        if said:
            game = response.json()
        if game["status"] != "playing" or not game["legal_moves"]:
            break
        game = play(client, game["id"], rng.choice(game["legal_moves"]))
    assert detail(client, game["id"])["can_undo"] == game["can_undo"]


def test_any_move_of_a_casual_game_can_be_undone_a_deal_too() -> None:
    """Undo after a reveal: tests/games/play/test_forgiving_undo.py."""
    client = client_for()
    game = new_game(client, "selective-castle", seed=5)
    moved = play(client, game["id"], game["legal_moves"][0])
    assert moved["can_undo"] is True
    assert (
        client.post(f"/api/games/{game['id']}/undo/", {}, format="json").json()["can_undo"] is False
    ), "nothing is left to undo"

    dealt = new_game(client, "gold-mine", seed=3)
    assert play(client, dealt["id"], {"type": "deal"})["can_undo"] is True


def test_ranked_and_finished_games_never_offer_undo() -> None:
    client = client_for()
    game = new_game(client, "selective-castle", seed=5)
    moved = play(client, game["id"], game["legal_moves"][0])
    assert moved["can_undo"] is True
    resigned = client.post(f"/api/games/{game['id']}/resign/", {}, format="json").json()
    assert resigned["can_undo"] is False
    Game.objects.filter(pk=game["id"]).update(status="playing", ranked=True)
    assert play(client, game["id"], moved["legal_moves"][0])["can_undo"] is False


# -- replay -----------------------------------------------------------------------------------


def play_with_undos(client: Any, slug: str, seed: int, moves: int) -> tuple[int, list[Any]]:
    """Random legal moves with an undo now and then; the player view after every step."""
    rng = random.Random(seed)
    game = new_game(client, slug, seed=seed)
    seen = [game["state"]]
    for turn in range(moves):
        if turn % 4 == 3:
            response = client.post(f"/api/games/{game['id']}/undo/", {}, format="json")
            assert response.status_code == 200, response.content
            game = response.json()
        else:
            game = play(client, game["id"], rng.choice(game["legal_moves"]))
        seen.append(game["state"])
        if game["status"] != "playing" or game["dead_end"]:
            break
    return game["id"], seen


@pytest.mark.parametrize("slug", SLUGS)
def test_replay_of_each_step_is_the_board_seen_during_play(slug: str) -> None:
    client = client_for()
    game_id, seen = play_with_undos(client, slug, seed=77, moves=14)
    for step, view in enumerate(seen):
        shown = replay(client, game_id, step)
        assert shown == {
            "game_id": game_id,
            "step": step,
            "move_number": len(seen) - 1,
            "state": view,
        }
    assert (
        replay(client, game_id, len(seen) - 1) == client.get(f"/api/games/{game_id}/replay/").json()
    ), "without a step, the replay shows the current board"


@pytest.mark.parametrize("slug", ["grounds-for-divorce", "gold-mine", "blondes-and-brunettes"])
def test_replay_of_a_finished_game_shows_every_card(slug: str) -> None:
    client = client_for()
    game_id, seen = play_with_undos(client, slug, seed=78, moves=10)
    finished = client.post(f"/api/games/{game_id}/resign/", {}, format="json").json()
    seed = Game.objects.select_related("deal").get(pk=game_id).deal.seed
    seen.append(finished["state"])
    for step, view in enumerate(seen):
        state = replay(client, game_id, step)["state"]
        assert all_cards_shown(state), f"step {step} still hides cards"
        assert state["seed"] == seed == 78
        for pile_id, pile in view["piles"].items():
            full = state["piles"][pile_id]
            assert full["face_down"] == pile["face_down"]
            down = pile["face_down"]
            assert full["cards"][down:] == pile["cards"][down:], "the face-up cards are the same"
            assert len(full["cards"]) == len(pile["cards"])


# -- a won game and the stats -----------------------------------------------------------------


def test_winning_grandfathers_clock_through_the_api_and_the_stats_that_follow() -> None:
    line = solve("grandfathers-clock", 0)
    assert line is not None, "the naive search wins seed 0"
    user = make_user()
    client = client_for(user)

    lost = started_game(client, "grandfathers-clock")
    client.post(f"/api/games/{lost['id']}/resign/", {}, format="json")

    game = new_game(client, "grandfathers-clock", seed=0)
    for number, move in enumerate(line, start=1):
        assert game["status"] == "playing"
        assert move in game["legal_moves"]
        game = play(client, game["id"], move)
        assert game["move_number"] == number
    assert game["status"] == "won"
    assert {"type": "game_won"} in game["events"]
    assert game["events"][-1] == {"type": "game_won"}
    assert game["seed"] == 0
    assert game["legal_moves"] == []
    assert game["finished_at"] is not None
    foundations = [p for pid, p in game["state"]["piles"].items() if pid.startswith("foundation")]
    assert sum(len(p["cards"]) for p in foundations) == 52

    refused = post_move(client, game["id"], line[-1])
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "game_finished"
    undo = client.post(f"/api/games/{game['id']}/undo/", {}, format="json")
    assert undo.status_code == 409
    assert undo.json()["error"]["code"] == "game_finished"

    stats = {entry["variant"]: entry for entry in client.get("/api/me/stats/").json()}
    assert set(stats) == set(SLUGS)
    clock = stats["grandfathers-clock"]
    assert clock["played"] == 2
    assert clock["won"] == 1
    assert clock["win_rate"] == 0.5
    assert clock["best_moves"] == len(line)
    assert clock["best_time_seconds"] is not None and clock["best_time_seconds"] >= 0
    assert clock["current_streak"] == 1
    assert clock["best_streak"] == 1
    for slug in SLUGS:
        if slug != "grandfathers-clock":
            assert stats[slug]["played"] == 0 and stats[slug]["won"] == 0
            assert stats[slug]["win_rate"] is None and stats[slug]["best_moves"] is None

    # A second win lengthens the streak; a resignation then breaks it.
    again = new_game(client, "grandfathers-clock", seed=0)
    for move in line:
        again = play(client, again["id"], move)
    assert again["status"] == "won"
    spoiled = started_game(client, "grandfathers-clock")
    client.post(f"/api/games/{spoiled['id']}/resign/", {}, format="json")
    new_game(client, "grandfathers-clock")  # unfinished: not counted

    clock = {e["variant"]: e for e in client.get("/api/me/stats/").json()}["grandfathers-clock"]
    assert (clock["played"], clock["won"], clock["win_rate"]) == (4, 2, 0.5)
    assert clock["best_moves"] == len(line)
    assert (clock["current_streak"], clock["best_streak"]) == (0, 2)

    other = {e["variant"]: e for e in client_for().get("/api/me/stats/").json()}
    assert other["grandfathers-clock"]["played"] == 0, "stats are per player"
