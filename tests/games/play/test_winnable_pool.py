"""Winnable deals for casual play: POST /api/games/ with "winnable": true deals from the pool
of deals the solver proved winnable (games.play.winnable_pool), and never runs the solver itself."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game, WinnableDeal
from games.play import winnable_pool
from games.rules import DEAL_VERSION, get_variant
from games.solver import Budget, solve
from tests.games.helpers import REPRESENTATION_KEYS, assert_error, client_for, new_game

pytestmark = pytest.mark.django_db

CLOCK = "grandfathers-clock"


def pooled(slug: str = CLOCK, seed: int = 11, **fields: Any) -> WinnableDeal:
    """A deal put in the pool with a made-up certificate (the API never reads it)."""
    defaults = {"moves": [{"type": "deal"}], "positions": 10, "seconds": 0.01}
    return WinnableDeal.objects.create(variant=slug, seed=seed, **{**defaults, **fields})


def test_a_winnable_game_is_dealt_from_the_pool_and_hides_its_seed() -> None:
    deal = pooled(seed=4242)
    client = client_for()

    game = new_game(client, CLOCK, winnable=True)

    assert set(game) == REPRESENTATION_KEYS
    assert game["winnable"] is True
    assert game["seed"] is None and game["state"]["seed"] is None
    variant = get_variant(CLOCK)
    assert game["state"] == variant.player_view(variant.deal(4242), reveal_seed=False)
    stored = Game.objects.get(pk=game["id"])
    assert stored.winnable and not stored.seed_chosen and stored.deal.seed == 4242
    deal.refresh_from_db()
    assert deal.dealt_at is not None and deal.game_id == stored.pk
    assert winnable_pool.sizes()[CLOCK] == 0
    # In the player's list too once a move is made, still without the seed.
    client.post(f"/api/games/{game['id']}/moves/", {"move": game["legal_moves"][0]}, format="json")
    listed = client.get("/api/games/").json()["results"][0]
    assert listed["winnable"] is True and listed["seed"] is None


def test_each_pool_deal_is_dealt_once() -> None:
    pooled(seed=1)
    pooled(seed=2)
    client = client_for()
    seeds = {
        Game.objects.get(pk=new_game(client, CLOCK, winnable=True)["id"]).deal.seed
        for _ in range(2)
    }
    assert seeds == {1, 2}
    response = client.post("/api/games/", {"variant": CLOCK, "winnable": True}, format="json")
    assert_error(response, 503, "no_winnable_deal")


def test_an_empty_pool_is_a_503_with_retry_after_and_starts_nothing() -> None:
    pooled(slug="selective-castle")  # another game's pool, and an outdated dealing's deal:
    pooled(seed=12, deal_version=DEAL_VERSION + 1)  # neither is dealt here
    client = client_for()

    response = client.post("/api/games/", {"variant": CLOCK, "winnable": True}, format="json")

    error = assert_error(response, 503, "no_winnable_deal")
    assert "try again shortly" in error["message"].lower()
    assert "any deal" in error["message"]
    assert int(response["Retry-After"]) > 0
    assert not Game.objects.exists()


def test_an_empty_pool_is_not_stored_against_the_idempotency_key() -> None:
    client = client_for()
    body = {"variant": CLOCK, "winnable": True}
    key = {"HTTP_IDEMPOTENCY_KEY": "winnable-1"}
    assert_error(client.post("/api/games/", body, format="json", **key), 503, "no_winnable_deal")
    pooled()
    again = client.post("/api/games/", body, format="json", **key)
    assert again.status_code == 201, again.json()
    assert again.json()["winnable"] is True


def test_a_plain_game_is_not_labelled_winnable_and_leaves_the_pool_alone() -> None:
    pooled()
    client = client_for()
    assert new_game(client, CLOCK)["winnable"] is False
    assert new_game(client, CLOCK, winnable=False)["winnable"] is False
    assert winnable_pool.sizes()[CLOCK] == 1


@pytest.mark.parametrize("value", ["true", 1, 0, "yes", None, [True], {"a": 1}])
def test_winnable_is_true_or_false_only(value: Any) -> None:
    pooled()
    client = client_for()
    response = client.post("/api/games/", {"variant": CLOCK, "winnable": value}, format="json")
    error = assert_error(response, 400, "invalid")
    assert list(error["fields"]) == ["winnable"]
    assert not Game.objects.exists()


def test_winnable_with_a_chosen_seed_is_refused() -> None:
    pooled()
    client = client_for()
    response = client.post(
        "/api/games/", {"variant": CLOCK, "winnable": True, "seed": 5}, format="json"
    )
    assert_error(response, 400, "winnable_with_seed")
    assert not Game.objects.exists() and winnable_pool.sizes()[CLOCK] == 1


def test_the_seed_is_shown_once_the_game_is_over() -> None:
    pooled(seed=77)
    client = client_for()
    game = new_game(client, CLOCK, winnable=True)
    resigned = client.post(f"/api/games/{game['id']}/resign/", {}, format="json").json()
    assert resigned["seed"] == 77 and resigned["winnable"] is True


def test_fill_tops_up_the_pool_with_certified_deals() -> None:
    added = winnable_pool.fill(
        [CLOCK], 2, seconds=2.0, positions=200_000, executor=winnable_pool.InThisProcess(), tries=10
    )
    assert added == {CLOCK: 2}
    assert winnable_pool.sizes()[CLOCK] == 2
    variant = get_variant(CLOCK)
    for deal in WinnableDeal.objects.all():
        # Each certificate replays to a win from its deal.
        from games.solver import line_wins

        assert line_wins(variant, variant.deal(deal.seed), deal.moves)
    # Full: another fill adds nothing.
    again = winnable_pool.fill(
        [CLOCK], 2, seconds=2.0, positions=200_000, executor=winnable_pool.InThisProcess(), tries=10
    )
    assert again == {CLOCK: 0}


def test_the_fill_command_fills_the_quick_games(capsys: pytest.CaptureFixture[str]) -> None:
    from django.core.management import call_command

    call_command("fill_winnable_pool", CLOCK, "--size", "1", "--seconds", "2", "--here")
    assert winnable_pool.sizes()[CLOCK] == 1
    assert "grandfathers-clock" in capsys.readouterr().out


def test_the_child_process_finds_a_winnable_deal() -> None:
    """The server's filler searches in a spawned child (not holding the server's GIL)."""
    with winnable_pool.solver_process() as executor:
        added = winnable_pool.fill(
            [CLOCK], 1, seconds=2.0, positions=200_000, executor=executor, tries=5
        )
    assert added == {CLOCK: 1}
    deal = WinnableDeal.objects.get()
    variant = get_variant(CLOCK)
    assert solve(variant, variant.deal(deal.seed), Budget(seconds=5)).outcome == "won"
