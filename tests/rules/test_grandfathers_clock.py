"""Grandfather's Clock: hand-built positions for each ruling
(games/rules/RULINGS.md §Grandfather's Clock, and §Every game).

Twelve foundations set out as a clock face (``foundation:0`` is 12 o'clock), each built up in
suit, an Ace on a King, until its top card shows its hour; eight face-up tableau piles build
down regardless of suit, a King on an Ace; single cards only; no stock.
"""

import pytest

from games.rules import DEAL, IllegalMove, get_variant
from games.rules.cards import CODE

from .helpers import move, position, show

GAME = "grandfathers-clock"

# The clock face as dealt, foundation:0 (12 o'clock) first.
STARTS = ["9C", "TH", "JS", "QD", "KC", "2H", "3S", "4D", "5C", "6H", "7S", "8D"]
CLOCK = {f"foundation:{hour}": card for hour, card in enumerate(STARTS)}

# Every foundation complete: the 1 to 4 o'clock piles with five cards, the others with four.
COMPLETE = {
    "foundation:0": "9C TC JC QC",
    "foundation:1": "TH JH QH KH AH",
    "foundation:2": "JS QS KS AS 2S",
    "foundation:3": "QD KD AD 2D 3D",
    "foundation:4": "KC AC 2C 3C 4C",
    "foundation:5": "2H 3H 4H 5H",
    "foundation:6": "3S 4S 5S 6S",
    "foundation:7": "4D 5D 6D 7D",
    "foundation:8": "5C 6C 7C 8C",
    "foundation:9": "6H 7H 8H 9H",
    "foundation:10": "7S 8S 9S TS",
    "foundation:11": "8D 9D TD JD",
}

# Added to a position whose game must not be over: 8S can always move to an empty pile.
IN_PLAY = {"tableau:7": "5S 8S"}


def refusal(variant, state, the_move):
    with pytest.raises(IllegalMove) as refused:
        variant.apply(state, the_move)
    return refused.value


# -- the deal ---------------------------------------------------------------------------------


def test_the_deal_sets_out_the_clock_face_exactly():
    variant = get_variant(GAME)
    for seed in (0, 1, 987654321):
        state = variant.deal(seed)
        assert [show(variant, state, f"foundation:{i}") for i in range(12)] == STARTS
    assert show(variant, state, "foundation:0") == "9C"  # 12 o'clock
    assert show(variant, state, "foundation:1") == "TH"  # 1 o'clock
    assert show(variant, state, "foundation:11") == "8D"  # 11 o'clock


def test_the_other_forty_cards_lie_face_up_on_eight_piles_of_five():
    variant = get_variant(GAME)
    state = variant.deal(31337)
    data = variant.state_to_json(state)
    piles = data["piles"]
    tableau = [piles[f"tableau:{i}"] for i in range(8)]
    assert [len(pile["cards"]) for pile in tableau] == [5] * 8
    assert all(pile["face_down"] == 0 for pile in tableau)
    dealt = [card for pile in tableau for card in pile["cards"]]
    assert sorted(dealt + STARTS) == sorted(CODE)
    assert set(piles) == {f"tableau:{i}" for i in range(8)} | set(CLOCK)
    assert data["base_rank"] is None
    assert variant.status(state) == "playing"


# -- foundations --------------------------------------------------------------------------------


def test_foundations_build_up_in_suit():
    variant, state = position(GAME, {**CLOCK, **IN_PLAY, "tableau:0": "4H TC"})
    assert move("tableau:0", "foundation:0") in variant.legal_moves(state)
    after, events = variant.play(state, move("tableau:0", "foundation:0"))
    assert show(variant, after, "foundation:0") == "9C TC"
    assert show(variant, after, "tableau:0") == "4H"
    assert events == []


def test_a_foundation_refuses_a_card_of_another_suit():
    variant, state = position(GAME, {**CLOCK, **IN_PLAY, "tableau:0": "TD"})
    refused = refusal(variant, state, move("tableau:0", "foundation:0"))
    assert refused.code == "wrong_suit"
    assert refused.message.startswith("The Ten of diamonds cannot go on the Nine of clubs")
    assert move("tableau:0", "foundation:0") not in variant.legal_moves(state)


def test_a_foundation_refuses_a_card_that_is_not_one_rank_higher():
    variant, state = position(GAME, {**CLOCK, **IN_PLAY, "tableau:0": "JC", "tableau:1": "8C"})
    refused = refusal(variant, state, move("tableau:0", "foundation:0"))
    assert refused.code == "wrong_rank"
    assert refused.message.startswith("The Jack of clubs cannot go on the Nine of clubs")
    # Nor does a foundation build down.
    assert refusal(variant, state, move("tableau:1", "foundation:0")).code == "wrong_rank"


def test_an_ace_goes_on_a_king_on_a_foundation():
    variant, state = position(GAME, {**CLOCK, "tableau:0": "AC"})
    after = variant.apply(state, move("tableau:0", "foundation:4"))
    assert show(variant, after, "foundation:4") == "KC AC"


def test_the_twelve_o_clock_foundation_is_complete_at_its_queen():
    variant, state = position(
        GAME, {**CLOCK, **IN_PLAY, "foundation:0": "9C TC JC QC", "tableau:0": "AC"}
    )
    refused = refusal(variant, state, move("tableau:0", "foundation:0"))
    assert refused.code == "foundation_complete"
    assert "12 o'clock" in refused.message
    assert not any(m.target == "foundation:0" for m in variant.legal_moves(state))


def test_the_one_o_clock_foundation_is_complete_with_five_cards_at_its_ace():
    variant, state = position(GAME, {**CLOCK, "foundation:1": "TH JH QH KH", "tableau:0": "3H AH"})
    after = variant.apply(state, move("tableau:0", "foundation:1"))
    assert show(variant, after, "foundation:1") == "TH JH QH KH AH"
    variant, state = position(
        GAME, {**CLOCK, **IN_PLAY, "foundation:1": "TH JH QH KH AH", "tableau:0": "3H"}
    )
    refused = refusal(variant, state, move("tableau:0", "foundation:1"))
    assert refused.code == "foundation_complete"
    assert "1 o'clock" in refused.message


def test_the_one_to_four_o_clock_foundations_take_a_fifth_card():
    variant, state = position(
        GAME,
        {
            **CLOCK,
            "foundation:2": "JS QS KS AS",
            "foundation:3": "QD KD AD 2D",
            "foundation:4": "KC AC 2C 3C",
            "tableau:0": "2S",
            "tableau:1": "3D",
            "tableau:2": "4C",
        },
    )
    moves = variant.legal_moves(state)
    for pile, foundation in (("tableau:0", 2), ("tableau:1", 3), ("tableau:2", 4)):
        assert move(pile, f"foundation:{foundation}") in moves
    after = variant.apply(state, move("tableau:2", "foundation:4"))
    assert show(variant, after, "foundation:4") == "KC AC 2C 3C 4C"


def test_the_other_foundations_are_complete_with_four_cards():
    variant, state = position(
        GAME,
        {
            **CLOCK,
            **IN_PLAY,
            "foundation:5": "2H 3H 4H",
            "foundation:11": "8D 9D TD JD",
            "tableau:0": "KD",
            "tableau:1": "5H",
        },
    )
    after = variant.apply(state, move("tableau:1", "foundation:5"))
    assert show(variant, after, "foundation:5") == "2H 3H 4H 5H"
    refused = refusal(variant, state, move("tableau:0", "foundation:11"))
    assert refused.code == "foundation_complete"
    assert "11 o'clock" in refused.message
    refused = refusal(variant, after, move("tableau:0", "foundation:5"))
    assert refused.code == "foundation_complete"
    assert "5 o'clock" in refused.message


def test_cards_never_leave_a_foundation():
    variant, state = position(
        GAME, {**CLOCK, **IN_PLAY, "foundation:0": "9C TC", "tableau:0": "JD"}
    )
    refused = refusal(variant, state, move("foundation:0", "tableau:0"))
    assert refused.code == "wrong_target"
    assert "foundation" in refused.message
    assert refusal(variant, state, move("foundation:1", "foundation:0")).code == "wrong_target"
    assert not any(m.source.startswith("foundation") for m in variant.legal_moves(state))


# -- tableau ------------------------------------------------------------------------------------


def test_the_tableau_builds_down_regardless_of_suit():
    variant, state = position(GAME, {**CLOCK, "tableau:0": "7D", "tableau:1": "AS 6S"})
    after, events = variant.play(state, move("tableau:1", "tableau:0"))
    assert show(variant, after, "tableau:0") == "7D 6S"
    assert show(variant, after, "tableau:1") == "AS"
    assert events == []


def test_the_tableau_refuses_a_card_that_is_not_one_rank_lower():
    variant, state = position(
        GAME, {**CLOCK, **IN_PLAY, "tableau:0": "7D", "tableau:1": "8C", "tableau:2": "4C"}
    )
    refused = refusal(variant, state, move("tableau:1", "tableau:0"))
    assert refused.code == "wrong_rank"
    assert refused.message.startswith("The Eight of clubs cannot go on the Seven of diamonds")
    assert refusal(variant, state, move("tableau:2", "tableau:0")).code == "wrong_rank"


def test_a_king_goes_on_an_ace_in_the_tableau():
    variant, state = position(GAME, {**CLOCK, "tableau:0": "AD", "tableau:1": "9S KS"})
    assert move("tableau:1", "tableau:0") in variant.legal_moves(state)
    after = variant.apply(state, move("tableau:1", "tableau:0"))
    assert show(variant, after, "tableau:0") == "AD KS"


def test_only_single_cards_move():
    variant, state = position(GAME, {**CLOCK, "tableau:0": "8C", "tableau:1": "4H 7D 6S"})
    refused = refusal(variant, state, move("tableau:1", "tableau:0", 2))
    assert refused.code == "single_cards_only"
    variant, state = position(GAME, {**CLOCK, "tableau:0": "JC TC"})
    refused = refusal(variant, state, move("tableau:0", "foundation:0", 2))
    assert refused.code == "single_cards_only"
    assert all(m.count == 1 for m in variant.legal_moves(state))


def test_an_empty_pile_takes_any_single_card():
    variant, state = position(GAME, {**CLOCK, "tableau:0": "3H 9D", "tableau:1": "5D QS"})
    moves = variant.legal_moves(state)
    assert move("tableau:0", "tableau:5") in moves
    assert move("tableau:1", "tableau:2") in moves
    after = variant.apply(state, move("tableau:1", "tableau:5"))
    assert show(variant, after, "tableau:5") == "QS"
    assert show(variant, after, "tableau:1") == "5D"


def test_moving_a_one_card_pile_onto_an_empty_pile_is_an_empty_shuffle():
    variant, state = position(GAME, {**CLOCK, **IN_PLAY, "tableau:0": "6D"})
    refused = refusal(variant, state, move("tableau:0", "tableau:3"))
    assert refused.code == "empty_shuffle"
    assert not any(m.source == "tableau:0" for m in variant.legal_moves(state))


# -- no stock -------------------------------------------------------------------------------------


def test_there_is_no_stock_to_deal_from():
    variant, state = position(GAME, {**CLOCK, **IN_PLAY, "tableau:0": "9D"})
    refused = refusal(variant, state, DEAL)
    assert refused.code == "no_stock"
    assert DEAL not in variant.legal_moves(state)
    assert refusal(variant, state, move("stock", "tableau:0")).code == "unknown_pile"


# -- status -------------------------------------------------------------------------------------


def test_the_game_is_won_when_every_foundation_is_complete():
    variant, state = position(GAME, COMPLETE)
    assert variant.status(state) == "won"
    assert variant.legal_moves(state) == []
    assert refusal(variant, state, move("foundation:1", "tableau:0")).code == "game_over"
    assert refusal(variant, state, DEAL).code == "game_over"


def test_the_move_that_completes_the_last_foundation_wins():
    variant, state = position(GAME, {**COMPLETE, "foundation:11": "8D 9D TD", "tableau:3": "JD"})
    assert variant.status(state) == "playing"
    after, events = variant.play(state, move("tableau:3", "foundation:11"))
    assert events == [{"type": "game_won"}]
    assert variant.status(after) == "won"


def test_with_no_legal_move_left_the_game_is_lost():
    # Two one-card piles that fit nowhere: moving either to an empty pile is an empty shuffle.
    variant, state = position(GAME, {**CLOCK, "tableau:0": "2C", "tableau:1": "4C"})
    assert variant.legal_moves(state) == []
    assert variant.status(state) == "lost"
    assert refusal(variant, state, move("tableau:0", "tableau:1")).code == "game_over"
    assert refusal(variant, state, DEAL).code == "game_over"


def test_the_move_that_leaves_no_legal_move_reports_the_game_lost():
    variant, state = position(GAME, {**CLOCK, "tableau:0": "2C", "tableau:1": "4C TC"})
    assert variant.status(state) == "playing"
    after, events = variant.play(state, move("tableau:1", "foundation:0"))
    assert events == [{"type": "game_lost"}]
    assert variant.status(after) == "lost"
