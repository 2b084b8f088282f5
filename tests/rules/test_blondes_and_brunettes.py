"""Blondes and Brunettes: hand-built positions for each ruling
(games/rules/RULINGS.md §Blondes and Brunettes, and §Every game).

Two decks. A face-up reserve of ten whose top goes to the foundations only; eight foundations
that start with the base rank (set by the card dealt to ``foundation:0``) and build up in
alternating colours, King to Ace, to 13 cards; nine tableau piles that build down in alternating
colours, a King on an Ace, single cards only, and refill at once from the stock, then the waste;
a stock dealt one card at a time to the waste, once.
"""

import pytest

from games.rules import DEAL, IllegalMove, get_variant
from games.rules.cards import CODE, new_deck
from games.rules.shuffle import shuffled

from .helpers import move, position, show

GAME = "blondes-and-brunettes"

# Keeps the game in play in positions about a refusal: a deal is a move while the stock has cards.
IN_PLAY = {"stock": "KS"}

# Nine black tableau tops (no black card goes on a black one), none a Five (the base rank) or a
# red Six (what 5S on foundation:0 wants), and a reserve top that fits no foundation either.
LOCKED = {
    "foundation:0": "5S",
    "reserve": "4D JH",
    **{f"tableau:{i}": card for i, card in enumerate(["2C", "2S", "3C", "3S", "4C", "4S", "9C"])},
    "tableau:7": "9S",
    "tableau:8": "8C",
}

# Every card home, from base rank Ace: two foundations of each colour pairing, twice.
SPADES_FIRST = "AS 2H 3S 4H 5S 6H 7S 8H 9S TH JS QH KS"
HEARTS_FIRST = "AH 2S 3H 4S 5H 6S 7H 8S 9H TS JH QS KH"
CLUBS_FIRST = "AC 2D 3C 4D 5C 6D 7C 8D 9C TD JC QD KC"
DIAMONDS_FIRST = "AD 2C 3D 4C 5D 6C 7D 8C 9D TC JD QC KD"
ALL_HOME = {
    f"foundation:{i}": run
    for i, run in enumerate([SPADES_FIRST, HEARTS_FIRST, CLUBS_FIRST, DIAMONDS_FIRST] * 2)
}


def refusal(variant, state, the_move):
    with pytest.raises(IllegalMove) as refused:
        variant.apply(state, the_move)
    return refused.value


# -- the deal ---------------------------------------------------------------------------------


def test_the_deal_lays_out_reserve_base_card_tableau_and_stock():
    variant = get_variant(GAME)
    state = variant.deal(4242)
    data = variant.state_to_json(state)
    piles = data["piles"]
    assert len(piles["reserve"]["cards"]) == 10
    assert piles["reserve"]["face_down"] == 0
    assert len(piles["foundation:0"]["cards"]) == 1
    assert data["base_rank"] == piles["foundation:0"]["cards"][0][0]
    assert all(piles[f"foundation:{i}"]["cards"] == [] for i in range(1, 8))
    for i in range(9):
        assert len(piles[f"tableau:{i}"]["cards"]) == 1
        assert piles[f"tableau:{i}"]["face_down"] == 0
    assert len(piles["stock"]["cards"]) == 84
    assert piles["stock"]["face_down"] == 84
    assert piles["waste"]["cards"] == []
    assert sorted(card for pile in piles.values() for card in pile["cards"]) == sorted(CODE * 2)
    assert variant.status(state) == "playing"


def test_the_deal_goes_reserve_then_base_card_then_tableau_and_the_rest_is_the_stock():
    variant = get_variant(GAME)
    deck = [CODE[card] for card in shuffled(new_deck(2), GAME, 99)]
    state = variant.deal(99)
    assert show(variant, state, "reserve") == " ".join(deck[:10])  # the last dealt on top
    assert show(variant, state, "foundation:0") == deck[10]
    assert [show(variant, state, f"tableau:{i}") for i in range(9)] == deck[11:20]
    assert show(variant, state, "stock") == " ".join(deck[20:])
    assert variant.state_to_json(state)["base_rank"] == deck[10][0]


# -- the stock ----------------------------------------------------------------------------------


def test_a_deal_turns_the_stocks_top_card_face_up_onto_the_waste():
    variant, state = position(
        GAME, {"foundation:0": "5S", "stock": "2H 3S", "waste": "9C"}, base_rank="5"
    )
    assert DEAL in variant.legal_moves(state)
    after, events = variant.play(state, DEAL)
    assert show(variant, after, "waste") == "9C 3S"
    assert show(variant, after, "stock") == "2H"
    assert events == []


def test_the_stock_is_dealt_once_only():
    variant, state = position(
        GAME, {"foundation:0": "5S", "waste": "9C 3S", "tableau:0": "4H"}, base_rank="5"
    )
    refused = refusal(variant, state, DEAL)
    assert refused.code == "stock_empty"
    assert "stock" in refused.message
    assert DEAL not in variant.legal_moves(state)


# -- reserve and waste --------------------------------------------------------------------------


def test_the_reserve_top_goes_to_a_foundation():
    variant, state = position(
        GAME, {"foundation:0": "5S", "reserve": "8D 5C 6H", "tableau:0": "7S"}, base_rank="5"
    )
    assert move("reserve", "foundation:0") in variant.legal_moves(state)
    after, events = variant.play(state, move("reserve", "foundation:0"))
    assert show(variant, after, "foundation:0") == "5S 6H"
    assert show(variant, after, "reserve") == "8D 5C"
    assert events == []
    after = variant.apply(after, move("reserve", "foundation:4"))
    assert show(variant, after, "foundation:4") == "5C"


def test_the_reserve_top_does_not_go_to_the_tableau():
    variant, state = position(
        GAME, {**IN_PLAY, "foundation:0": "5S", "reserve": "4D", "tableau:0": "5C"}, base_rank="5"
    )
    refused = refusal(variant, state, move("reserve", "tableau:0"))
    assert refused.code == "wrong_target"
    assert "reserve" in refused.message and "foundation" in refused.message
    assert not any(m.source == "reserve" for m in variant.legal_moves(state))


def test_nothing_goes_onto_the_reserve_or_the_waste():
    variant, state = position(
        GAME,
        {**IN_PLAY, "foundation:0": "5S", "reserve": "8D", "waste": "9C", "tableau:0": "7H"},
        base_rank="5",
    )
    refused = refusal(variant, state, move("tableau:0", "reserve"))
    assert refused.code == "wrong_target"
    assert "reserve" in refused.message
    assert refusal(variant, state, move("tableau:0", "waste")).code == "wrong_target"
    assert refusal(variant, state, move("waste", "reserve")).code == "wrong_target"
    assert refusal(variant, state, move("reserve", "waste")).code == "wrong_target"
    assert not any(m.target in ("reserve", "waste") for m in variant.legal_moves(state))


def test_the_waste_top_goes_to_the_tableau_or_a_foundation():
    variant, state = position(
        GAME, {"foundation:0": "5C", "waste": "JD 6H", "tableau:0": "7S"}, base_rank="5"
    )
    moves = variant.legal_moves(state)
    assert move("waste", "tableau:0") in moves
    assert move("waste", "foundation:0") in moves
    after, events = variant.play(state, move("waste", "tableau:0"))
    assert show(variant, after, "tableau:0") == "7S 6H"
    assert show(variant, after, "waste") == "JD"
    assert events == []
    after = variant.apply(state, move("waste", "foundation:0"))
    assert show(variant, after, "foundation:0") == "5C 6H"
    assert show(variant, after, "waste") == "JD"


def test_only_single_cards_move():
    variant, state = position(
        GAME,
        {
            **IN_PLAY,
            "foundation:0": "5S",
            "reserve": "7D 6C",
            "waste": "7C 6D",
            "tableau:0": "7D",
            "tableau:1": "9D 6S 5H",
        },
        base_rank="5",
    )
    # 6S 5H runs down in alternating colours and would fit on 7D, but only one card moves.
    refused = refusal(variant, state, move("tableau:1", "tableau:0", 2))
    assert refused.code == "single_cards_only"
    assert refusal(variant, state, move("waste", "tableau:0", 2)).code == "single_cards_only"
    assert refusal(variant, state, move("reserve", "foundation:0", 2)).code == "single_cards_only"
    assert all(m.count == 1 for m in variant.legal_moves(state))


# -- foundations --------------------------------------------------------------------------------


def test_an_empty_foundation_takes_any_card_of_the_base_rank():
    variant, state = position(
        GAME,
        {"foundation:0": "5C", "tableau:0": "KC 5C", "tableau:1": "KC 5H", "tableau:2": "KC 5D"},
        base_rank="5",
    )
    moves = variant.legal_moves(state)
    for pile in ("tableau:0", "tableau:1", "tableau:2"):
        for foundation in range(1, 8):
            assert move(pile, f"foundation:{foundation}") in moves
    after, events = variant.play(state, move("tableau:1", "foundation:7"))
    assert show(variant, after, "foundation:7") == "5H"
    assert events == []


def test_an_empty_foundation_refuses_any_other_rank():
    variant, state = position(
        GAME, {**IN_PLAY, "foundation:0": "5S", "tableau:0": "6D"}, base_rank="5"
    )
    refused = refusal(variant, state, move("tableau:0", "foundation:1"))
    assert refused.code == "wrong_rank"
    assert "Six of diamonds" in refused.message and "Five" in refused.message
    assert move("tableau:0", "foundation:1") not in variant.legal_moves(state)


def test_foundations_build_up_in_alternating_colours_in_any_suit():
    variant, state = position(
        GAME, {"foundation:0": "5S", "tableau:0": "KC 6H", "tableau:1": "KC 6D"}, base_rank="5"
    )
    moves = variant.legal_moves(state)
    assert move("tableau:0", "foundation:0") in moves
    assert move("tableau:1", "foundation:0") in moves
    after = variant.apply(state, move("tableau:1", "foundation:0"))
    assert show(variant, after, "foundation:0") == "5S 6D"


def test_a_foundation_refuses_a_card_of_the_same_colour():
    variant, state = position(
        GAME,
        {**IN_PLAY, "foundation:0": "5S", "tableau:0": "KD 6C", "tableau:1": "KD 6S"},
        base_rank="5",
    )
    refused = refusal(variant, state, move("tableau:0", "foundation:0"))
    assert refused.code == "wrong_colour"
    assert refused.message.startswith("The Six of clubs cannot go on the Five of spades")
    assert refusal(variant, state, move("tableau:1", "foundation:0")).code == "wrong_colour"


def test_a_foundation_refuses_a_card_that_is_not_one_rank_higher():
    variant, state = position(
        GAME,
        {**IN_PLAY, "foundation:0": "5S 6H", "tableau:0": "KD 8C", "tableau:1": "KD 5C"},
        base_rank="5",
    )
    refused = refusal(variant, state, move("tableau:0", "foundation:0"))
    assert refused.code == "wrong_rank"
    assert refused.message.startswith("The Eight of clubs cannot go on the Six of hearts")
    # Nor does a foundation build down.
    assert refusal(variant, state, move("tableau:1", "foundation:0")).code == "wrong_rank"


def test_an_ace_goes_on_a_king_on_a_foundation():
    variant, state = position(
        GAME,
        {"foundation:0": "5S 6H 7S 8H 9S TH JS QH KS", "tableau:0": "KC AD"},
        base_rank="5",
    )
    assert move("tableau:0", "foundation:0") in variant.legal_moves(state)
    after = variant.apply(state, move("tableau:0", "foundation:0"))
    assert show(variant, after, "foundation:0") == "5S 6H 7S 8H 9S TH JS QH KS AD"


def test_a_foundation_of_thirteen_cards_is_complete():
    variant, state = position(
        GAME,
        {
            **IN_PLAY,
            "foundation:0": "5S 6H 7S 8H 9S TH JS QH KS AH 2S 3H 4S",
            "tableau:0": "KC 5D",
        },
        base_rank="5",
    )
    refused = refusal(variant, state, move("tableau:0", "foundation:0"))
    assert refused.code == "foundation_complete"
    assert "complete" in refused.message
    moves = variant.legal_moves(state)
    assert move("tableau:0", "foundation:0") not in moves
    assert move("tableau:0", "foundation:1") in moves


def test_cards_never_leave_a_foundation():
    variant, state = position(
        GAME, {**IN_PLAY, "foundation:0": "5S 6H", "tableau:0": "7S"}, base_rank="5"
    )
    refused = refusal(variant, state, move("foundation:0", "tableau:0"))
    assert refused.code == "wrong_target"
    assert "foundation" in refused.message
    assert refusal(variant, state, move("foundation:0", "foundation:1")).code == "wrong_target"
    assert not any(m.source == "foundation:0" for m in variant.legal_moves(state))


# -- tableau ------------------------------------------------------------------------------------


def test_the_tableau_builds_down_in_alternating_colours():
    variant, state = position(
        GAME, {"foundation:0": "5S", "tableau:0": "7S", "tableau:1": "KC 6H"}, base_rank="5"
    )
    after, events = variant.play(state, move("tableau:1", "tableau:0"))
    assert show(variant, after, "tableau:0") == "7S 6H"
    assert show(variant, after, "tableau:1") == "KC"
    assert events == []


def test_the_tableau_refuses_a_card_of_the_same_colour_or_the_wrong_rank():
    variant, state = position(
        GAME,
        {
            **IN_PLAY,
            "foundation:0": "5S",
            "tableau:0": "7S",
            "tableau:1": "KD 6C",
            "tableau:2": "KC 4H",
            "tableau:3": "KC 8H",
        },
        base_rank="5",
    )
    refused = refusal(variant, state, move("tableau:1", "tableau:0"))
    assert refused.code == "wrong_colour"
    assert refused.message.startswith("The Six of clubs cannot go on the Seven of spades")
    assert refusal(variant, state, move("tableau:2", "tableau:0")).code == "wrong_rank"
    assert refusal(variant, state, move("tableau:3", "tableau:0")).code == "wrong_rank"


def test_a_king_goes_on_an_ace_of_the_other_colour_in_the_tableau():
    variant, state = position(
        GAME,
        {"foundation:0": "5S", "tableau:0": "AS", "tableau:1": "9D KH", "tableau:2": "9D KC"},
        base_rank="5",
    )
    moves = variant.legal_moves(state)
    assert move("tableau:1", "tableau:0") in moves
    assert move("tableau:2", "tableau:0") not in moves
    assert refusal(variant, state, move("tableau:2", "tableau:0")).code == "wrong_colour"
    after = variant.apply(state, move("tableau:1", "tableau:0"))
    assert show(variant, after, "tableau:0") == "AS KH"


# -- filling emptied tableau piles ----------------------------------------------------------------


def test_an_emptied_pile_is_filled_at_once_from_the_top_of_the_stock():
    variant, state = position(
        GAME, {"foundation:0": "5S", "stock": "2D QD", "tableau:3": "6H"}, base_rank="5"
    )
    after, events = variant.play(state, move("tableau:3", "foundation:0"))
    assert show(variant, after, "foundation:0") == "5S 6H"
    assert show(variant, after, "tableau:3") == "QD"  # face up
    assert show(variant, after, "stock") == "2D"
    assert events == [{"type": "pile_filled", "pile": "tableau:3", "from": "stock", "card": "QD"}]
    assert after.move_number == state.move_number + 1


def test_a_pile_emptied_onto_another_tableau_pile_is_filled_too():
    variant, state = position(
        GAME,
        {"foundation:0": "5S", "stock": "2D QD", "tableau:0": "7S", "tableau:5": "6H"},
        base_rank="5",
    )
    after, events = variant.play(state, move("tableau:5", "tableau:0"))
    assert show(variant, after, "tableau:0") == "7S 6H"
    assert show(variant, after, "tableau:5") == "QD"
    assert events == [{"type": "pile_filled", "pile": "tableau:5", "from": "stock", "card": "QD"}]


def test_with_the_stock_empty_an_emptied_pile_is_filled_from_the_waste():
    variant, state = position(
        GAME, {"foundation:0": "5S", "waste": "8S 2D", "tableau:3": "6H"}, base_rank="5"
    )
    after, events = variant.play(state, move("tableau:3", "foundation:0"))
    assert show(variant, after, "tableau:3") == "2D"
    assert show(variant, after, "waste") == "8S"
    assert events == [{"type": "pile_filled", "pile": "tableau:3", "from": "waste", "card": "2D"}]


def test_with_stock_and_waste_empty_an_emptied_pile_stays_empty():
    variant, state = position(
        GAME,
        {"foundation:0": "5S", "tableau:0": "KC JD", "tableau:3": "6H"},
        base_rank="5",
    )
    after, events = variant.play(state, move("tableau:3", "foundation:0"))
    assert show(variant, after, "tableau:3") == ""
    assert events == []
    assert variant.status(after) == "playing"


def test_an_empty_pile_then_takes_any_tableau_top_but_not_a_whole_one_card_pile():
    variant, state = position(
        GAME,
        {"foundation:0": "5S", "tableau:0": "KC 2H JD", "tableau:1": "9S"},
        base_rank="5",
    )
    moves = variant.legal_moves(state)
    assert move("tableau:0", "tableau:4") in moves
    assert move("tableau:1", "tableau:4") not in moves
    after, events = variant.play(state, move("tableau:0", "tableau:4"))
    assert show(variant, after, "tableau:4") == "JD"
    assert show(variant, after, "tableau:0") == "KC 2H"
    assert events == []
    refused = refusal(variant, state, move("tableau:1", "tableau:4"))
    assert refused.code == "empty_shuffle"


# -- status -------------------------------------------------------------------------------------


def test_a_position_with_every_card_on_the_foundations_is_won_and_takes_no_move():
    variant, state = position(GAME, ALL_HOME, base_rank="A")
    assert variant.status(state) == "won"
    assert variant.legal_moves(state) == []
    assert refusal(variant, state, move("foundation:0", "tableau:0")).code == "game_over"
    assert refusal(variant, state, DEAL).code == "game_over"


def test_the_move_that_puts_the_last_card_home_wins():
    last = DIAMONDS_FIRST.removesuffix(" KD")
    variant, state = position(
        GAME, {**ALL_HOME, "foundation:7": last, "tableau:6": "KD"}, base_rank="A"
    )
    assert variant.status(state) == "playing"
    after, events = variant.play(state, move("tableau:6", "foundation:7"))
    assert events == [{"type": "game_won"}]
    assert variant.status(after) == "won"


def test_a_deal_counts_as_a_move_while_the_stock_has_cards():
    variant, state = position(GAME, {**LOCKED, "stock": "KS"}, base_rank="5")
    assert variant.legal_moves(state) == [DEAL]
    assert variant.status(state) == "playing"
    # The dealt King fits nowhere and the stock is spent: the deal loses the game.
    after, events = variant.play(state, DEAL)
    assert show(variant, after, "waste") == "KS"
    assert events == [{"type": "game_lost"}]
    assert variant.status(after) == "lost"


def test_with_the_stock_spent_and_no_legal_move_the_game_is_lost():
    variant, state = position(GAME, {**LOCKED, "waste": "KS"}, base_rank="5")
    assert variant.legal_moves(state) == []
    assert variant.status(state) == "lost"
    assert refusal(variant, state, move("reserve", "foundation:0")).code == "game_over"
    assert refusal(variant, state, DEAL).code == "game_over"


def test_the_move_that_leaves_no_legal_move_reports_the_game_lost():
    variant, state = position(GAME, {**LOCKED, "tableau:8": "8C 6H"}, base_rank="5")
    assert variant.status(state) == "playing"
    after, events = variant.play(state, move("tableau:8", "foundation:0"))
    assert show(variant, after, "foundation:0") == "5S 6H"
    assert events == [{"type": "game_lost"}]
    assert variant.status(after) == "lost"
