"""No response ever shows a card that lies face down, or the seed of an unfinished random deal.

Random games are played to the end through the API. After every response the server's own
snapshot (``Game.state``, every card known) says which cards are face down at that moment; the
raw response text is searched for them, by code ("QH", as the board and events name cards) and
by name in words ("Queen of hearts", as messages do). Two-deck games hold every card twice, so
a card may be face down in one copy and face up in the other: naming it is then no leak, and
the player's view must show the code exactly as often, and in exactly the places, that it lies
face up.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from typing import Any

import pytest

from games.core.history import line_of_play
from games.models import Game, Move
from games.play import services as play_services
from games.rules import get_variant
from games.rules.cards import card_name, parse_card
from tests.games.helpers import SLUGS, assert_error, client_for, losing_line, new_game, play
from tests.games.hidden_cards import (
    assert_outside_view_only_face_up,
    assert_text_hides,
    assert_view_hides,
    face_down_count,
    named_cards,
    split_cards,
)

pytestmark = pytest.mark.django_db

GAMES_PER_VARIANT = 5
MAX_MOVES = 150  # the wrapping games can go on for ever: resign after this


class Watcher:
    """Checks every response about one game against the server's snapshot at that moment."""

    def __init__(self, client: Any, slug: str, game_id: int) -> None:
        self.client, self.slug, self.game_id = client, slug, game_id
        self.variant = get_variant(slug)
        self.checked = 0

    def snapshot(self) -> Game:
        return Game.objects.select_related("deal").get(pk=self.game_id)

    def check(self, response: Any, where: str, board: dict[str, Any] | None = None) -> Any:
        """``board``: the full state the response's view shows (default: the current one)."""
        game = self.snapshot()
        assert not game.seed_chosen
        if game.is_finished:
            return response.json()
        board = board or game.state
        body = response.json()
        text = response.content.decode()
        assert_text_hides(text, game.state, game.deal, where)
        if board is not game.state:
            assert_text_hides(text, board, game.deal, where)
        assert_outside_view_only_face_up(body, game.state, where)
        if isinstance(body, dict) and isinstance(body.get("state"), dict):
            assert_view_hides(body["state"], board)
            assert body.get("seed") is None
        self.checked += 1
        return body

    def check_replay(self, step: int) -> None:
        response = self.client.get(f"/api/games/{self.game_id}/replay/", {"step": step})
        assert response.status_code == 200
        game = self.snapshot()
        entries = list(
            Move.objects.filter(game=game, number__lte=step)
            .order_by("number")
            .values_list("payload", flat=True)
        )
        then = self.variant.state_to_json(line_of_play(self.variant, game.deal, entries)[-1])
        self.check(response, f"replay step {step}", board=then)

    def try_illegal(self, rng: random.Random, legal: list[dict[str, Any]]) -> None:
        """A refused move: its message names no face-down card."""
        full = self.snapshot().state
        piles = list(self.variant.pile_ids)
        source = rng.choice(piles)
        pile = full["piles"][source]
        hidden = face_down_count(source, pile)
        if hidden and rng.random() < 0.5:
            count = len(pile["cards"]) - hidden + 1  # reaching into the face-down cards
        else:
            count = rng.choice([1, 1, 1, 2, 3, 5])
        move = {"type": "move", "from": source, "to": rng.choice(piles), "count": count}
        if move in legal:
            return
        response = self.client.post(
            f"/api/games/{self.game_id}/moves/", {"move": move}, format="json"
        )
        assert_error(response, 400)
        self.check(response, f"refusal of {move}")

    def reads(self, rng: random.Random, move_number: int) -> None:
        base = f"/api/games/{self.game_id}/"
        self.check(self.client.get(base), "detail")
        self.check(self.client.get(base + "moves/"), "history")
        self.check(self.client.get("/api/games/", {"status": "playing"}), "list")
        self.check_replay(rng.randrange(move_number + 1))


def play_random_game(client: Any, slug: str, rng: random.Random) -> tuple[int, str]:
    response = client.post("/api/games/", {"variant": slug}, format="json")
    assert response.status_code == 201
    watcher = Watcher(client, slug, response.json()["id"])
    game = watcher.check(response, "new game")
    for turn in range(MAX_MOVES):
        if game["dead_end"]:
            # A casual game at a dead end is still in play, and shows nothing more, until ended.
            ended = client.post(f"/api/games/{watcher.game_id}/end/", {}, format="json")
            game = watcher.check(ended, "end at a dead end")
        if game["status"] != "playing":
            break
        if turn % 5 == 0:
            watcher.try_illegal(rng, game["legal_moves"])
        if turn % 30 == 0:
            watcher.reads(rng, game["move_number"])
        if turn % 7 == 3:
            watcher.check(client.post(f"/api/games/{watcher.game_id}/hint/"), "hint")
        response = client.post(
            f"/api/games/{watcher.game_id}/moves/",
            {"move": rng.choice(game["legal_moves"])},
            format="json",
        )
        assert response.status_code == 201, response.content
        game = watcher.check(response, f"move {turn + 1}")
    watcher.reads(rng, game["move_number"])
    if game["status"] == "playing":
        response = client.post(f"/api/games/{watcher.game_id}/resign/", {}, format="json")
        assert response.status_code == 200
        game = response.json()
    assert watcher.checked > 0
    # Once it is over, the seed is the player's to see.
    assert game["seed"] == watcher.snapshot().deal.seed
    return watcher.game_id, game["status"]


class DealsDrawnBy:
    """Stands in for ``secrets`` in the game service: the "random" deals the server picks come
    from the test's own seeded generator, so a failure names the deals and a rerun plays them
    again (``PRIVACY_SEED=<run> bin/test tests/games/test_privacy.py``)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng, self.dealt = rng, []

    def randbelow(self, bound: int) -> int:
        self.dealt.append(self.rng.randrange(bound))
        return self.dealt[-1]


@pytest.mark.parametrize("slug", SLUGS)
def test_random_games_never_show_a_face_down_card_or_the_seed(
    slug: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = os.environ.get("PRIVACY_SEED", "privacy")
    rng = random.Random(f"{run}-{slug}")
    deals = DealsDrawnBy(random.Random(f"{run}-{slug}-deals"))
    monkeypatch.setattr(play_services, "secrets", deals)
    client = client_for()
    try:
        outcomes = Counter(play_random_game(client, slug, rng)[1] for _ in range(GAMES_PER_VARIANT))
    except AssertionError as failure:
        failure.add_note(
            f"{slug}: deals played {deals.dealt} (PRIVACY_SEED={run} plays them again)"
        )
        raise
    assert sum(outcomes.values()) == GAMES_PER_VARIANT
    assert len(deals.dealt) == GAMES_PER_VARIANT  # every game was a server-chosen deal


def test_the_view_check_catches_a_leak() -> None:
    """The checks above are not vacuous: a view showing one face-down card fails them."""
    variant = get_variant("blondes-and-brunettes")
    full = variant.state_to_json(variant.deal(3))
    view = variant.player_view(variant.deal(3))
    assert_view_hides(view, full)
    stock_top = full["piles"]["stock"]["cards"][-1]
    view["piles"]["stock"]["cards"][-1] = stock_top
    with pytest.raises(AssertionError):
        assert_view_hides(view, full)
    down, up = split_cards(full)
    only_down = next(code for code in down if not up[code])
    with pytest.raises(AssertionError):
        assert_text_hides(f'{{"message": "{only_down} cannot go"}}', full, 10**15, "test")
    with pytest.raises(AssertionError):
        assert_text_hides('{"id": 3}', full, 3, "test")


def test_the_text_checks_catch_a_face_down_card_named_in_words() -> None:
    """Messages name cards in words: a face-down card named so fails the checks, as its code
    does, while a card face down in one deck and face up in the other may be named."""
    variant = get_variant("blondes-and-brunettes")
    full = variant.state_to_json(variant.deal(3))
    down, up = split_cards(full)
    only_down = next(code for code in down if not up[code])
    name = card_name(parse_card(only_down))
    for text in (f"The {name} cannot go on the", f"the {name.lower()}."):
        with pytest.raises(AssertionError):
            assert_text_hides(json.dumps({"message": text}), full, 10**15, "test")
        with pytest.raises(AssertionError):
            assert_outside_view_only_face_up({"error": {"message": text}}, full, "test")
    # Both copies' names and codes: the face-up copy is there for the player to see.
    both = next(code for code in down if up[code])
    text = f"The {card_name(parse_card(both))} ({both}) cannot go on the"
    assert_text_hides(json.dumps({"message": text}), full, 10**15, "test")
    assert_outside_view_only_face_up({"error": {"message": text}}, full, "test")
    # Cards named only face up, in words, pass too.
    shown = sorted(code for code in up if not down[code])
    text = " and ".join(card_name(parse_card(code)) for code in shown)
    assert shown and named_cards(text) == Counter(shown)
    assert_text_hides(json.dumps({"message": text}), full, 10**15, "test")


def dead_end_shows(client: Any, game_id: int) -> tuple[bool, bool]:
    """Whether the game's page shows its seed, and whether its board shows a face-down card."""
    shown = client.get(f"/api/games/{game_id}/").json()
    board = client.get(f"/api/games/{game_id}/replay/").json()["state"]
    full = Game.objects.get(pk=game_id).state
    revealed_seed = shown["seed"] is not None or board["seed"] is not None
    revealed_cards = any(
        card is not None
        for pile_id, pile in board["piles"].items()
        for card in pile["cards"][: face_down_count(pile_id, full["piles"][pile_id])]
    )
    return revealed_seed, revealed_cards


def test_a_dead_end_that_can_be_undone_shows_nothing_and_once_ended_it_cannot_be_undone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A lost random deal may show its seed and hidden cards only if the game is really over:
    if undo could bring it back, the player would play on knowing every face-down card. A
    casual game at a dead end stays in play (undo may take it out), so it shows nothing; ended,
    it shows its cards and no undo brings it back."""
    seed, line = losing_line("grounds-for-divorce")
    # The server draws the random seed; fix its draw so that the losing line is known.
    monkeypatch.setattr("games.play.services.secrets.randbelow", lambda n: seed)
    client = client_for()
    game = new_game(client, "grounds-for-divorce")
    assert game["seed"] is None
    for move in line:
        game = play(client, game["id"], move)
    assert game["status"] == "playing" and game["dead_end"] is True
    assert {"type": "game_lost"} in game["events"]
    assert dead_end_shows(client, game["id"]) == (False, False)

    ended = client.post(f"/api/games/{game['id']}/end/", {}, format="json").json()
    assert ended["status"] == "lost"
    revealed_seed, _ = dead_end_shows(client, game["id"])
    assert revealed_seed, "over: the seed is the player's to see"
    undo = client.post(f"/api/games/{game['id']}/undo/", {}, format="json")
    assert undo.status_code == 409, undo.content
    assert undo.json()["error"]["code"] == "game_finished"
