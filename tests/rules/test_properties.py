"""Properties that hold in every position of every game, over random deals and playouts."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import MAX_SEED, VARIANTS, IllegalMove, State, Variant
from games.rules.cards import card_name

from .playouts import applicable_moves, every_conceivable_move, random_playout

SLUGS = sorted(VARIANTS)
seeds = st.integers(min_value=0, max_value=MAX_SEED)
playouts = st.tuples(st.sampled_from(SLUGS), seeds, st.randoms(use_true_random=False))


def all_cards(state: State) -> Counter[int]:
    return Counter(card for pile in state.piles for card in pile.cards)


def hidden_cards(state: State) -> Counter[int]:
    return Counter(card for pile in state.piles for card in pile.cards[: pile.face_down])


#: A card code standing alone, as in "7H" (messages name cards in words instead).
CODE_IN_TEXT = re.compile(r"(?<![A-Za-z0-9])[A2-9TJQK][CDHS](?![A-Za-z0-9])")
#: Cards by name ("Queen of hearts"), as ``card_name`` writes them.
BY_NAME = {card_name(card).lower(): card for card in range(52)}
NAME_IN_TEXT = re.compile("|".join(BY_NAME), re.IGNORECASE)


@settings(max_examples=60, deadline=None)
@given(playouts)
def test_cards_are_conserved_and_inputs_never_change(case):
    slug, seed, rng = case
    variant = VARIANTS[slug]
    state = variant.deal(seed)
    deck = all_cards(state)
    assert sum(deck.values()) == 52 * variant.decks
    for _ in range(80):
        moves = variant.legal_moves(state)
        if not moves:
            break
        before = variant.state_to_json(state)
        after = variant.apply(state, rng.choice(moves))
        assert variant.state_to_json(state) == before, "apply changed its input"
        assert all_cards(after) == deck
        assert after.move_number == state.move_number + 1
        state = after


@settings(max_examples=60, deadline=None)
@given(playouts)
def test_states_and_moves_round_trip_through_json(case):
    slug, seed, rng = case
    variant = VARIANTS[slug]
    for state in random_playout(variant, seed, rng, 60):
        text = json.dumps(variant.state_to_json(state))
        assert variant.state_from_json(json.loads(text)) == state
        for move in variant.legal_moves(state):
            assert variant.move_from_json(json.loads(json.dumps(move.to_json()))) == move


@settings(max_examples=60, deadline=None)
@given(playouts)
def test_the_player_view_never_shows_a_face_down_or_stock_card(case):
    slug, seed, rng = case
    variant = VARIANTS[slug]
    for state in random_playout(variant, seed, rng, 60):
        view = variant.player_view(state)
        assert view["seed"] is None
        for pile_id, pile in zip(variant.pile_ids, state.piles, strict=True):
            shown = view["piles"][pile_id]
            assert len(shown["cards"]) == len(pile.cards)
            assert shown["cards"][: pile.face_down] == [None] * pile.face_down
            assert None not in shown["cards"][pile.face_down :]
        if "stock" in variant.index:
            assert set(view["piles"]["stock"]["cards"]) <= {None}
        visible = Counter(code for pile in view["piles"].values() for code in pile["cards"] if code)
        expected = all_cards(state) - hidden_cards(state)
        assert visible == Counter({variant_code(card): n for card, n in expected.items()})


def variant_code(card: int) -> str:
    from games.rules.cards import CODE

    return CODE[card]


@settings(max_examples=40, deadline=None)
@given(playouts)
def test_every_listed_move_applies_and_status_agrees_with_the_list(case):
    slug, seed, rng = case
    variant = VARIANTS[slug]
    for state in random_playout(variant, seed, rng, 60):
        moves = variant.legal_moves(state)
        assert len(moves) == len(set(moves)), "duplicate moves"
        for move in moves:
            variant.apply(state, move)
        status = variant.status(state)
        if moves:
            assert status == "playing"
        else:
            assert status in ("won", "lost")
            assert (status == "won") == all(not state.piles[i].cards for i in variant.away_idx)


@settings(max_examples=25, deadline=None)
@given(playouts)
def test_a_move_that_is_not_listed_raises_and_changes_nothing(case):
    slug, seed, rng = case
    variant = VARIANTS[slug]
    candidates = every_conceivable_move(variant, max_count=3)
    for state in random_playout(variant, seed, rng, 60)[::12]:
        listed = set(variant.legal_moves(state))
        before = variant.state_to_json(state)
        assert applicable_moves(variant, state, candidates) == {m for m in listed if m.count <= 3}
        for move in rng.sample(candidates, 40):
            if move not in listed:
                with pytest.raises(IllegalMove) as refused:
                    variant.apply(state, move)
                assert refused.value.code and refused.value.message
        assert variant.state_to_json(state) == before


@settings(max_examples=20, deadline=None)
@given(playouts)
def test_a_refusal_names_cards_in_words_and_only_face_up_ones(case):
    slug, seed, rng = case
    variant = VARIANTS[slug]
    candidates = every_conceivable_move(variant, max_count=3)
    for state in random_playout(variant, seed, rng, 60)[::15]:
        face_up = all_cards(state) - hidden_cards(state)
        listed = set(variant.legal_moves(state))
        for move in rng.sample(candidates, 150):
            if move in listed:
                continue
            with pytest.raises(IllegalMove) as refused:
                variant.apply(state, move)
            message = refused.value.message
            assert not CODE_IN_TEXT.search(message), message
            named = [BY_NAME[name.lower()] for name in NAME_IN_TEXT.findall(message)]
            assert all(face_up[card] for card in named), message
            if refused.value.code in ("wrong_rank", "wrong_suit", "wrong_colour"):
                moving = state.piles[variant.index[move.source]].cards[-move.count]
                assert named[:1] == [moving], message


@pytest.mark.parametrize("slug", SLUGS)
def test_random_games_reach_an_end_the_engine_agrees_on(slug):
    """Long random games: every one that stops has a status of won or lost, with the event."""
    variant: Variant = VARIANTS[slug]
    rng = random.Random(slug)
    endings = Counter()
    for seed in range(12):
        state = variant.deal(seed)
        events = []
        for _ in range(2000):
            moves = variant.legal_moves(state)
            if not moves:
                break
            state, events = variant.play(state, rng.choice(moves))
        status = variant.status(state)
        endings[status] += 1
        if status != "playing":
            assert {"type": f"game_{status}"} in events
            with pytest.raises(IllegalMove) as refused:
                variant.apply(state, variant.legal_moves(variant.deal(seed))[0])
            assert refused.value.code == "game_over"
    assert endings["won"] + endings["lost"] > 0


@pytest.mark.parametrize("slug", SLUGS)
def test_cards_home_counts_the_foundations_or_discard(slug):
    variant = VARIANTS[slug]
    state = variant.deal(4)
    home = {"grandfathers-clock": 12, "blondes-and-brunettes": 1}.get(slug, 0)
    assert variant.cards_home(state) == home
    for state in random_playout(variant, 4, random.Random(4), 200):
        on_home = sum(
            len(pile.cards)
            for pile_id, pile in zip(variant.pile_ids, state.piles, strict=True)
            if pile_id.startswith(("foundation", "discard"))
        )
        assert variant.cards_home(state) == on_home
