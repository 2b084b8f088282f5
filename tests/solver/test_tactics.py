"""What the search knows of each game (games.solver.tactics): which piles are interchangeable
in the transposition table's key, and which moves home are safe to make alone."""

from __future__ import annotations

import pytest

from games.rules import VARIANTS, Move, get_variant
from games.solver.tactics import Tactics
from tests.rules.helpers import position


def swapped(state, i, j):
    piles = list(state.piles)
    piles[i], piles[j] = piles[j], piles[i]
    return state._replace(piles=tuple(piles))


@pytest.mark.parametrize("slug", sorted(VARIANTS))
def test_positions_that_differ_only_in_which_tableau_pile_is_which_share_a_key(slug):
    variant = get_variant(slug)
    tactics = Tactics(variant)
    state = variant.deal(5)
    if slug == "gold-mine":  # its piles start empty
        state = position(slug, {"tableau:0": "KS QH", "stock": "2H"})[1]
    first, second = tactics.tableau[0], tactics.tableau[3]
    other = swapped(state, first, second)
    assert other != state
    same = tactics.key(other) == tactics.key(state)
    # Grounds for Divorce deals the stock to its piles from left to right: their places count
    # while the stock has cards.
    assert same == (slug != "grounds-for-divorce")


def test_grounds_for_divorce_piles_are_interchangeable_once_the_stock_is_out():
    variant = get_variant("grounds-for-divorce")
    tactics = Tactics(variant)
    state = variant.deal(5)
    piles = list(state.piles)
    piles[variant.index["stock"]] = piles[variant.index["stock"]]._replace(cards=(), face_down=0)
    state = state._replace(piles=tuple(piles))
    assert tactics.key(swapped(state, tactics.tableau[0], tactics.tableau[3])) == tactics.key(state)


def test_the_move_number_is_not_part_of_a_position():
    variant = get_variant("gold-mine")
    tactics = Tactics(variant)
    state = variant.deal(5)
    assert tactics.key(state._replace(move_number=9)) == tactics.key(state)


def test_clock_foundations_keep_their_hours_in_the_key():
    variant = get_variant("grandfathers-clock")
    tactics = Tactics(variant)
    state = variant.deal(5)
    assert tactics.key(swapped(state, 0, 1)) != tactics.key(state)


@pytest.mark.parametrize("slug", ["gold-mine", "selective-castle", "blondes-and-brunettes"])
def test_foundations_that_take_the_same_cards_are_interchangeable(slug):
    variant = get_variant(slug)
    tactics = Tactics(variant)
    state = variant.deal(5)
    f0, f1 = tactics.foundations[0], tactics.foundations[1]
    piles = list(state.piles)
    piles[f0] = piles[tactics.tableau[0]]._replace(face_down=0)
    state = state._replace(piles=tuple(piles))
    assert tactics.key(swapped(state, f0, f1)) == tactics.key(state)


def home(slug, source, target="foundation:0"):
    return Move("move", source, target, 1)


def test_a_gold_mine_ace_goes_home_at_once():
    variant, state = position("gold-mine", {"tableau:0": "5D AS", "stock": "2S 3H"})
    tactics = Tactics(variant)
    move = home("gold-mine", "tableau:0")
    assert move in variant.legal_moves(state)
    assert tactics.safe_move(state, variant.legal_moves(state)) == move


def test_a_gold_mine_card_that_could_still_hold_a_card_is_not_moved_home_at_once():
    """The Two of spades could hold the Ace of hearts... which goes home anyway; the Three of
    spades could hold the Two of hearts, still in the stock: not safe."""
    variant, state = position(
        "gold-mine",
        {"foundation:0": "AS 2S", "foundation:1": "AH", "tableau:0": "3S", "stock": "2H"},
    )
    tactics = Tactics(variant)
    moves = variant.legal_moves(state)
    assert home("gold-mine", "tableau:0") in moves
    assert tactics.safe_move(state, moves) is None


def test_choosing_selective_castles_base_rank_is_never_automatic():
    variant, state = position("selective-castle", {"tableau:0": "AS", "tableau:1": "KD"})
    tactics = Tactics(variant)
    moves = variant.legal_moves(state)
    assert any(m.target.startswith("foundation") for m in moves)
    assert tactics.safe_move(state, moves) is None


def test_selective_castle_sends_a_card_home_once_nothing_could_rest_on_it():
    ranks = "A23456789TJQK"
    piles = {f"foundation:{i}": " ".join(r + s for r in ranks[:-1]) for i, s in enumerate("CDH")}
    piles["foundation:3"] = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS"
    piles |= {"tableau:0": "KC", "tableau:1": "KD", "tableau:2": "KS KH"}
    variant, state = position("selective-castle", piles, base_rank="A")
    moves = variant.legal_moves(state)
    assert Tactics(variant).safe_move(state, moves) is not None


def test_blondes_and_brunettes_never_empties_a_pile_at_once_while_the_stock_can_refill_it():
    """The Six of spades could go home, and nothing could rest on it any more, but its pile
    would take the stock's top card: which card comes next changes, so the move is searched
    like any other."""
    piles = {
        "foundation:0": "5H",
        "tableau:0": "6S",
        "tableau:1": "6C",
        "stock": "KD",
    }
    variant, state = position("blondes-and-brunettes", piles, base_rank="5")
    moves = variant.legal_moves(state)
    assert Move("move", "tableau:0", "foundation:0", 1) in moves
    assert Tactics(variant).safe_move(state, moves) is None
