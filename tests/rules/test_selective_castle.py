"""Selective Castle: hand-built positions for each ruling
(games/rules/RULINGS.md §Selective Castle, and §Every game).

One deck, all face up on eight tableau piles, four foundations and no stock. The first card put
on any foundation sets the base rank; foundations build up in suit and the tableau down in any
suit, both wrapping between King and Ace; single cards only.
"""

import pytest

from games.rules import DEAL, IllegalMove, get_variant
from games.rules.cards import CODE, new_deck
from games.rules.shuffle import shuffled

from .helpers import move, position, show

GAME = "selective-castle"

# A complete foundation of each suit from base rank 7: seven up to King, then Ace up to six.
HEARTS = "7H 8H 9H TH JH QH KH AH 2H 3H 4H 5H 6H"
CLUBS = "7C 8C 9C TC JC QC KC AC 2C 3C 4C 5C 6C"
DIAMONDS = "7D 8D 9D TD JD QD KD AD 2D 3D 4D 5D 6D"
SPADES = "7S 8S 9S TS JS QS KS AS 2S 3S 4S 5S 6S"

# Added to a position whose game must not be over: 3C can always move to an empty pile.
IN_PLAY = {"tableau:7": "2D 3C"}


def refusal(variant, state, the_move):
    with pytest.raises(IllegalMove) as refused:
        variant.apply(state, the_move)
    return refused.value


# -- the deal ---------------------------------------------------------------------------------


def test_the_deal_gives_seven_cards_to_piles_0_to_3_and_six_to_piles_4_to_7_all_face_up():
    variant = get_variant(GAME)
    state = variant.deal(2024)
    data = variant.state_to_json(state)
    piles = data["piles"]
    assert [len(piles[f"tableau:{i}"]["cards"]) for i in range(8)] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert all(piles[f"tableau:{i}"]["face_down"] == 0 for i in range(8))
    assert all(piles[f"foundation:{i}"]["cards"] == [] for i in range(4))
    assert set(piles) == {f"tableau:{i}" for i in range(8)} | {f"foundation:{i}" for i in range(4)}
    assert sorted(card for pile in piles.values() for card in pile["cards"]) == sorted(CODE)
    assert data["base_rank"] is None
    assert variant.status(state) == "playing"


def test_the_deal_goes_round_the_piles_one_card_at_a_time():
    variant = get_variant(GAME)
    deck = [CODE[card] for card in shuffled(new_deck(), GAME, 77)]
    state = variant.deal(77)
    for i in range(8):
        assert show(variant, state, f"tableau:{i}") == " ".join(deck[i::8])


# -- foundations --------------------------------------------------------------------------------


def test_the_first_card_on_any_foundation_sets_the_base_rank():
    variant, state = position(GAME, {**IN_PLAY, "tableau:0": "4D QS", "tableau:1": "9C"})
    # Before any card is home, every top card may start any foundation.
    moves = variant.legal_moves(state)
    assert move("tableau:0", "foundation:2") in moves
    assert move("tableau:1", "foundation:0") in moves
    after, events = variant.play(state, move("tableau:0", "foundation:2"))
    assert show(variant, after, "foundation:2") == "QS"
    assert events == [{"type": "base_rank_set", "rank": "Q"}]
    assert variant.state_to_json(after)["base_rank"] == "Q"


def test_after_the_base_rank_is_set_an_empty_foundation_takes_only_that_rank():
    variant, state = position(
        GAME, {"foundation:0": "7H", "tableau:0": "8C", "tableau:1": "7S"}, base_rank="7"
    )
    refused = refusal(variant, state, move("tableau:0", "foundation:1"))
    assert refused.code == "wrong_rank"
    assert "Eight of clubs" in refused.message and "Seven" in refused.message
    assert move("tableau:0", "foundation:1") not in variant.legal_moves(state)
    assert move("tableau:1", "foundation:1") in variant.legal_moves(state)


def test_another_suit_of_the_base_rank_starts_a_second_foundation():
    variant, state = position(
        GAME, {**IN_PLAY, "foundation:0": "7H", "tableau:0": "KD 7S"}, base_rank="7"
    )
    after, events = variant.play(state, move("tableau:0", "foundation:3"))
    assert show(variant, after, "foundation:3") == "7S"
    assert show(variant, after, "tableau:0") == "KD"
    assert events == []  # the base rank is set once only
    assert variant.state_to_json(after)["base_rank"] == "7"


def test_foundations_build_up_in_suit():
    variant, state = position(GAME, {"foundation:0": "7H", "tableau:0": "8H"}, base_rank="7")
    after = variant.apply(state, move("tableau:0", "foundation:0"))
    assert show(variant, after, "foundation:0") == "7H 8H"
    assert show(variant, after, "tableau:0") == ""


def test_a_foundation_refuses_a_card_of_another_suit():
    variant, state = position(
        GAME, {**IN_PLAY, "foundation:0": "7H", "tableau:0": "8D"}, base_rank="7"
    )
    refused = refusal(variant, state, move("tableau:0", "foundation:0"))
    assert refused.code == "wrong_suit"
    assert refused.message.startswith("The Eight of diamonds cannot go on the Seven of hearts")


def test_a_foundation_refuses_a_card_that_is_not_one_rank_higher():
    variant, state = position(
        GAME,
        {**IN_PLAY, "foundation:0": "7H 8H", "tableau:0": "TH", "tableau:1": "6H"},
        base_rank="7",
    )
    refused = refusal(variant, state, move("tableau:0", "foundation:0"))
    assert refused.code == "wrong_rank"
    assert refused.message.startswith("The Ten of hearts cannot go on the Eight of hearts")
    # Nor does a foundation build down.
    assert refusal(variant, state, move("tableau:1", "foundation:0")).code == "wrong_rank"


def test_an_ace_goes_on_a_king_on_a_foundation():
    variant, state = position(
        GAME, {"foundation:0": "7H 8H 9H TH JH QH KH", "tableau:0": "AH"}, base_rank="7"
    )
    assert move("tableau:0", "foundation:0") in variant.legal_moves(state)
    after = variant.apply(state, move("tableau:0", "foundation:0"))
    assert show(variant, after, "foundation:0") == "7H 8H 9H TH JH QH KH AH"


def test_the_thirteenth_card_completes_a_foundation_and_the_last_one_wins():
    variant, state = position(
        GAME,
        {
            "foundation:0": HEARTS,
            "foundation:1": CLUBS,
            "foundation:2": DIAMONDS,
            "foundation:3": SPADES.removesuffix(" 6S"),
            "tableau:5": "6S",
        },
        base_rank="7",
    )
    assert variant.status(state) == "playing"
    after, events = variant.play(state, move("tableau:5", "foundation:3"))
    assert show(variant, after, "foundation:3") == SPADES
    assert events == [{"type": "game_won"}]
    assert variant.status(after) == "won"


def test_cards_never_leave_a_foundation():
    variant, state = position(
        GAME, {**IN_PLAY, "foundation:0": "7H 8H", "tableau:0": "9S"}, base_rank="7"
    )
    refused = refusal(variant, state, move("foundation:0", "tableau:0"))
    assert refused.code == "wrong_target"
    assert "foundation" in refused.message
    refused = refusal(variant, state, move("foundation:0", "foundation:1"))
    assert refused.code == "wrong_target"
    assert not any(m.source.startswith("foundation") for m in variant.legal_moves(state))


# -- tableau ------------------------------------------------------------------------------------


def test_the_tableau_builds_down_regardless_of_suit():
    variant, state = position(GAME, {"tableau:0": "7D", "tableau:1": "KC 6D", "tableau:2": "6S"})
    moves = variant.legal_moves(state)
    assert move("tableau:1", "tableau:0") in moves
    assert move("tableau:2", "tableau:0") in moves
    after, events = variant.play(state, move("tableau:2", "tableau:0"))
    assert show(variant, after, "tableau:0") == "7D 6S"
    assert show(variant, after, "tableau:2") == ""
    assert events == []


def test_the_tableau_refuses_a_card_that_is_not_one_rank_lower():
    variant, state = position(GAME, {"tableau:0": "7D", "tableau:1": "8S", "tableau:2": "5C"})
    refused = refusal(variant, state, move("tableau:1", "tableau:0"))
    assert refused.code == "wrong_rank"
    assert refused.message.startswith("The Eight of spades cannot go on the Seven of diamonds")
    assert refusal(variant, state, move("tableau:2", "tableau:0")).code == "wrong_rank"


def test_a_king_goes_on_an_ace_in_the_tableau():
    variant, state = position(GAME, {"tableau:0": "AS", "tableau:1": "QD KH"})
    after = variant.apply(state, move("tableau:1", "tableau:0"))
    assert show(variant, after, "tableau:0") == "AS KH"
    # Nothing but a King goes on an Ace.
    variant, state = position(GAME, {"tableau:0": "AS", "tableau:1": "2D"})
    assert refusal(variant, state, move("tableau:1", "tableau:0")).code == "wrong_rank"


def test_only_single_cards_move():
    variant, state = position(GAME, {"tableau:0": "8C", "tableau:1": "4H 7D 6S"})
    refused = refusal(variant, state, move("tableau:1", "tableau:0", 2))
    assert refused.code == "single_cards_only"
    variant, state = position(GAME, {"foundation:0": "6S", "tableau:1": "8S 7S"}, base_rank="6")
    assert refusal(variant, state, move("tableau:1", "foundation:0", 2)).code == "single_cards_only"
    assert all(m.count == 1 for m in variant.legal_moves(state))


def test_an_empty_pile_takes_any_single_card():
    variant, state = position(GAME, {"tableau:0": "3H 9D", "tableau:1": "5C QS"})
    moves = variant.legal_moves(state)
    assert move("tableau:0", "tableau:4") in moves
    assert move("tableau:1", "tableau:7") in moves
    after = variant.apply(state, move("tableau:1", "tableau:4"))
    assert show(variant, after, "tableau:4") == "QS"
    assert show(variant, after, "tableau:1") == "5C"


def test_moving_a_one_card_pile_onto_an_empty_pile_is_an_empty_shuffle():
    variant, state = position(
        GAME, {"foundation:0": "7H", "tableau:0": "9D", "tableau:1": "5C QS"}, base_rank="7"
    )
    refused = refusal(variant, state, move("tableau:0", "tableau:3"))
    assert refused.code == "empty_shuffle"
    assert "tableau pile 1" in refused.message
    assert not any(m.source == "tableau:0" for m in variant.legal_moves(state))


def test_cards_move_only_from_a_pile_that_has_them():
    variant, state = position(GAME, {"tableau:0": "9D", "tableau:1": "8C"})
    assert refusal(variant, state, move("tableau:2", "tableau:0")).code == "pile_empty"
    assert refusal(variant, state, move("tableau:1", "tableau:1")).code == "same_pile"


# -- no stock -------------------------------------------------------------------------------------


def test_there_is_no_stock_to_deal_from():
    variant, state = position(GAME, {"tableau:0": "9D", "tableau:1": "8C"})
    refused = refusal(variant, state, DEAL)
    assert refused.code == "no_stock"
    assert DEAL not in variant.legal_moves(state)
    assert refusal(variant, state, move("stock", "tableau:0")).code == "unknown_pile"
    assert refusal(variant, state, move("tableau:0", "waste")).code == "unknown_pile"


# -- status -------------------------------------------------------------------------------------


def test_a_position_with_every_card_on_the_foundations_is_won_and_takes_no_move():
    variant, state = position(
        GAME,
        {
            "foundation:0": HEARTS,
            "foundation:1": CLUBS,
            "foundation:2": DIAMONDS,
            "foundation:3": SPADES,
        },
        base_rank="7",
    )
    assert variant.status(state) == "won"
    assert variant.legal_moves(state) == []
    assert refusal(variant, state, move("foundation:0", "tableau:0")).code == "game_over"
    assert refusal(variant, state, DEAL).code == "game_over"


def test_with_no_legal_move_left_the_game_is_lost():
    # Two one-card piles that fit nowhere: moving either to an empty pile is an empty shuffle.
    variant, state = position(
        GAME, {"foundation:0": "7H", "tableau:0": "2S", "tableau:1": "4S"}, base_rank="7"
    )
    assert variant.legal_moves(state) == []
    assert variant.status(state) == "lost"
    refused = refusal(variant, state, move("tableau:0", "tableau:1"))
    assert refused.code == "game_over"
    assert refusal(variant, state, DEAL).code == "game_over"


def test_the_move_that_leaves_no_legal_move_reports_the_game_lost():
    variant, state = position(
        GAME,
        {
            "foundation:0": "7H",
            "foundation:1": "7C 8C",
            "tableau:0": "2S",
            "tableau:1": "2C",
            "tableau:2": "4S",
            "tableau:3": "4C",
            "tableau:4": "9S",
            "tableau:5": "KD 9C",
            "tableau:6": "JS",
            "tableau:7": "JC",
        },
        base_rank="7",
    )
    assert variant.status(state) == "playing"
    assert variant.legal_moves(state) == [move("tableau:5", "foundation:1")]
    after, events = variant.play(state, move("tableau:5", "foundation:1"))
    assert events == [{"type": "game_lost"}]
    assert variant.status(after) == "lost"
