"""Deals: deterministic from the seed, pinned forever by golden layouts, laid out as each game's
section of games/rules/RULINGS.md says (§Seeds for the seeds)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from games.rules import DEAL_VERSION, MAX_SEED, VARIANTS, get_variant
from games.rules.shuffle import SplitMix64, shuffled

from .helpers import show

GOLDEN = json.loads((Path(__file__).parent / "golden_deals.json").read_text())


@pytest.mark.parametrize(
    ("slug", "seed"), [(slug, int(seed)) for slug, deals in GOLDEN.items() for seed in deals]
)
def test_golden_deals_never_change(slug, seed):
    """Deal algorithm version 1 must deal these layouts in every later release."""
    variant = get_variant(slug)
    state = variant.deal(seed)
    layout = {pile_id: show(variant, state, pile_id) for pile_id in variant.pile_ids}
    layout["base_rank"] = variant.state_to_json(state)["base_rank"]
    assert layout == GOLDEN[slug][str(seed)]
    assert DEAL_VERSION == 1


def test_the_generator_is_splitmix64_as_published():
    # Reference outputs of Vigna's splitmix64.c for the seeds 0 and 1234567.
    assert SplitMix64(0).next() == 0xE220A8397B1DCDAF
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in range(3)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
    ]


@pytest.mark.parametrize("slug", sorted(VARIANTS))
def test_a_deal_is_the_same_every_time_and_differs_between_seeds(slug):
    variant = get_variant(slug)
    assert variant.deal(77) == variant.deal(77)
    assert variant.deal(77) != variant.deal(78)


def test_the_same_seed_gives_unrelated_deals_in_different_games():
    deck = list(range(52)) * 2
    assert shuffled(deck, "grounds-for-divorce", 5) != shuffled(deck, "blondes-and-brunettes", 5)


@pytest.mark.parametrize("slug", sorted(VARIANTS))
@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, 1.5, "7", True, None])
def test_seeds_outside_the_range_are_refused(slug, seed):
    with pytest.raises(ValueError, match="seed"):
        get_variant(slug).deal(seed)


@pytest.mark.parametrize("slug", sorted(VARIANTS))
def test_a_deal_is_dealt_by_the_version_it_names(slug):
    variant = get_variant(slug)
    assert variant.deal(2026, DEAL_VERSION) == variant.deal(2026)


@pytest.mark.parametrize("version", [0, DEAL_VERSION + 1, True, "1", None])
def test_a_deal_version_the_engine_does_not_know_is_refused_not_dealt_otherwise(version):
    with pytest.raises(ValueError, match="deal algorithm version"):
        get_variant("gold-mine").deal(2026, version)


@pytest.mark.parametrize("slug", sorted(VARIANTS))
def test_every_deal_holds_each_card_once_per_deck(slug):
    variant = get_variant(slug)
    for seed in (0, 99, MAX_SEED):
        counts = Counter(card for pile in variant.deal(seed).piles for card in pile.cards)
        assert counts == Counter({card: variant.decks for card in range(52)})


def sizes(slug, seed=3):
    variant = get_variant(slug)
    state = variant.deal(seed)
    return {
        pid: (len(p.cards), p.face_down)
        for pid, p in zip(variant.pile_ids, state.piles, strict=True)
    }


def test_grounds_for_divorce_deals_ten_piles_of_four_down_one_up_and_54_in_stock():
    layout = sizes("grounds-for-divorce")
    assert layout["stock"] == (54, 54)
    assert layout["discard"] == (0, 0)
    assert all(layout[f"tableau:{i}"] == (5, 4) for i in range(10))


def test_grounds_for_divorce_deals_round_by_round():
    variant = get_variant("grounds-for-divorce")
    deck = shuffled(list(range(52)) * 2, variant.slug, 11)
    state = variant.deal(11)
    assert state.piles[variant.index["tableau:0"]].cards == tuple(deck[0:50:10])
    assert state.piles[variant.index["tableau:9"]].cards == tuple(deck[9:50:10])
    assert state.piles[variant.index["stock"]].cards == tuple(deck[50:])


def test_gold_mine_starts_with_every_card_in_the_stock_and_nothing_dealt():
    layout = sizes("gold-mine")
    assert layout["stock"] == (52, 52)
    assert all(n == (0, 0) for pid, n in layout.items() if pid != "stock")


def test_selective_castle_deals_seven_cards_to_piles_0_to_3_and_six_to_4_to_7():
    layout = sizes("selective-castle")
    assert [layout[f"tableau:{i}"] for i in range(8)] == [(7, 0)] * 4 + [(6, 0)] * 4
    assert all(layout[f"foundation:{i}"] == (0, 0) for i in range(4))


def test_grandfathers_clock_sets_out_the_dial_then_deals_forty_face_up():
    variant = get_variant("grandfathers-clock")
    state = variant.deal(8)
    tops = [show(variant, state, f"foundation:{i}") for i in range(12)]
    assert tops == ["9C", "TH", "JS", "QD", "KC", "2H", "3S", "4D", "5C", "6H", "7S", "8D"]
    assert [sizes("grandfathers-clock", 8)[f"tableau:{i}"] for i in range(8)] == [(5, 0)] * 8


def test_blondes_and_brunettes_deals_reserve_base_card_and_nine_piles():
    variant = get_variant("blondes-and-brunettes")
    state = variant.deal(4)
    layout = sizes(variant.slug, 4)
    assert layout["reserve"] == (10, 0)
    assert layout["foundation:0"] == (1, 0)
    assert all(layout[f"foundation:{i}"] == (0, 0) for i in range(1, 8))
    assert all(layout[f"tableau:{i}"] == (1, 0) for i in range(9))
    assert layout["stock"] == (84, 84)
    assert layout["waste"] == (0, 0)
    base_card = state.piles[variant.index["foundation:0"]].cards[0]
    assert state.base_rank == base_card % 13 + 1
    deck = shuffled(list(range(52)) * 2, variant.slug, 4)
    assert state.piles[variant.index["reserve"]].cards == tuple(deck[:10])
    assert base_card == deck[10]
