"""Gold Mine: hand-built positions for each ruling (games/rules/RULINGS.md §Gold Mine, and
§Every game).

One deck, all of it in the stock; a deal turns up to three cards onto the waste, one pass only.
Seven tableau piles build down in alternating colours with no wrapping and take alternating-
colour groups; four foundations build up in suit from an Ace; only the waste's top is available.
"""

import pytest

from games.rules import DEAL, IllegalMove, get_variant

from .helpers import move, position, show

GAME = "gold-mine"
PILES = [f"tableau:{i}" for i in range(7)]
#: Seven piles on which nothing moves: black cards only, none one rank below another.
BLOCKED = dict(zip(PILES, ["KS", "KC", "JS", "JC", "9S", "9C", "7S"], strict=True))


def suit_up(suit, high="K"):
    """Ace up to ``high`` in one suit, as position text: suit_up("S", "3") == "AS 2S 3S"."""
    ranks = "A23456789TJQK"
    return " ".join(rank + suit for rank in ranks[: ranks.index(high) + 1])


# -- the stock and the waste ------------------------------------------------------------------


def test_nothing_is_dealt_before_the_first_action():
    variant = get_variant(GAME)
    state = variant.deal(7)
    piles = variant.state_to_json(state)["piles"]
    assert len(piles["stock"]["cards"]) == 52
    assert piles["stock"]["face_down"] == 52
    assert all(not pile["cards"] for pile_id, pile in piles.items() if pile_id != "stock")


def test_a_deal_turns_three_cards_from_the_stocks_top_onto_the_waste():
    variant, state = position(GAME, {"stock": "2C 9D 5S KH 3H", "waste": "7C"})
    after, events = variant.play(state, DEAL)
    # One at a time: 3H (the stock's top) first, then KH, then 5S, which ends on top.
    assert show(variant, after, "waste") == "7C 3H KH 5S"
    assert show(variant, after, "stock") == "2C 9D"
    assert events == []
    assert move("waste", "tableau:0") in variant.legal_moves(after)


@pytest.mark.parametrize(("stock", "waste"), [("9D 5S", "5S 9D"), ("5S", "5S")])
def test_the_last_deal_turns_whatever_the_stock_has_left(stock, waste):
    variant, state = position(GAME, {"stock": stock})
    after = variant.apply(state, DEAL)
    assert show(variant, after, "waste") == waste
    assert show(variant, after, "stock") == ""


def test_the_stock_is_dealt_only_once():
    variant, state = position(GAME, {"waste": "4C 9H"})
    with pytest.raises(IllegalMove) as refused:
        variant.apply(state, DEAL)
    assert refused.value.code == "stock_empty"
    assert "one pass" in refused.value.message
    assert DEAL not in variant.legal_moves(state)


def test_a_deal_is_allowed_whenever_the_stock_has_cards():
    variant, state = position(GAME, {"stock": "5D", "waste": "8C", "tableau:3": "QH"})
    assert DEAL in variant.legal_moves(state)  # empty piles do not block it
    variant, state = position(GAME, {**BLOCKED, "stock": "5D"})
    assert variant.legal_moves(state) == [DEAL]
    assert variant.status(state) == "playing"


def test_only_the_waste_top_card_is_available():
    variant, state = position(GAME, {"waste": "5H 4S", "tableau:0": "6C", "stock": "2D"})
    with pytest.raises(IllegalMove) as refused:
        variant.apply(state, move("waste", "tableau:0", 2))
    assert refused.value.code == "single_cards_only"
    assert not [m for m in variant.legal_moves(state) if m.source == "waste" and m.count > 1]
    assert move("waste", "tableau:0") not in variant.legal_moves(state)  # 4S on 6C


def test_nothing_goes_on_the_waste_or_the_stock():
    variant, state = position(GAME, {"waste": "6S", "tableau:0": "KD 5H", "stock": "2D"})
    for source, target in (("tableau:0", "waste"), ("tableau:0", "stock"), ("waste", "stock")):
        with pytest.raises(IllegalMove) as refused:
            variant.apply(state, move(source, target))
        assert refused.value.code == "wrong_target"
    assert not [m for m in variant.legal_moves(state) if m.target in ("waste", "stock")]


def test_the_stock_cannot_be_played_from_directly():
    variant, state = position(GAME, {"stock": "2D 5H"})
    with pytest.raises(IllegalMove) as refused:
        variant.apply(state, move("stock", "tableau:0"))
    assert refused.value.code == "wrong_target"


# -- the tableau ------------------------------------------------------------------------------


def test_builds_down_in_alternating_colours():
    variant, state = position(GAME, {"waste": "9S", "tableau:0": "TD", "tableau:1": "TC"})
    with pytest.raises(IllegalMove) as refused:
        variant.apply(state, move("waste", "tableau:1"))
    assert refused.value.code == "wrong_colour"
    assert refused.value.message.startswith("The Nine of spades cannot go on the Ten of clubs")

    after = variant.apply(state, move("waste", "tableau:0"))
    assert show(variant, after, "tableau:0") == "TD 9S"
    assert show(variant, after, "waste") == ""


def test_refuses_a_card_that_is_not_one_rank_lower():
    variant, state = position(GAME, {"waste": "8S", "tableau:0": "TD"})
    with pytest.raises(IllegalMove) as refused:
        variant.apply(state, move("waste", "tableau:0"))
    assert refused.value.code == "wrong_rank"
    assert refused.value.message.startswith("The Eight of spades cannot go on the Ten of diamonds")


def test_no_wrapping_a_king_does_not_go_on_an_ace():
    variant, state = position(GAME, {"waste": "KS", "tableau:0": "AH", "stock": "2D"})
    with pytest.raises(IllegalMove) as refused:
        variant.apply(state, move("waste", "tableau:0"))
    assert refused.value.code == "wrong_rank"
    assert not [m for m in variant.legal_moves(state) if m.target == "tableau:0"]


def test_an_alternating_colour_group_moves_as_a_unit():
    variant, state = position(GAME, {"tableau:0": "JH", "tableau:1": "KD TS 9H 8C"})
    assert move("tableau:1", "tableau:0", 3) in variant.legal_moves(state)
    after, events = variant.play(state, move("tableau:1", "tableau:0", 3))
    assert show(variant, after, "tableau:0") == "JH TS 9H 8C"
    assert show(variant, after, "tableau:1") == "KD"
    assert events == []


def test_a_same_colour_group_does_not_move_as_a_unit():
    variant, state = position(GAME, {"tableau:0": "JH", "tableau:1": "TS 9C", "stock": "2D"})
    with pytest.raises(IllegalMove) as refused:
        variant.apply(state, move("tableau:1", "tableau:0", 2))
    assert refused.value.code == "not_a_sequence"
    assert "alternating colours" in refused.value.message
    assert move("tableau:1", "tableau:0", 2) not in variant.legal_moves(state)


def test_a_groups_bottom_card_must_fit_the_target():
    variant, state = position(GAME, {"tableau:0": "JH", "tableau:1": "TD 9S", "stock": "2D"})
    with pytest.raises(IllegalMove) as refused:
        variant.apply(state, move("tableau:1", "tableau:0", 2))
    assert refused.value.code == "wrong_colour"


def test_a_move_cannot_take_more_cards_than_the_pile_holds():
    variant, state = position(GAME, {"tableau:0": "JH", "tableau:1": "TS 9H", "stock": "2D"})
    with pytest.raises(IllegalMove) as refused:
        variant.apply(state, move("tableau:1", "tableau:0", 3))
    assert refused.value.code == "not_available"
    assert refused.value.message == "Tableau pile 2 holds only 2 cards."


def test_an_empty_pile_takes_any_card_from_the_waste():
    variant, state = position(GAME, {"waste": "7D"})
    after = variant.apply(state, move("waste", "tableau:3"))
    assert show(variant, after, "tableau:3") == "7D"
    assert show(variant, after, "waste") == ""


def test_an_empty_pile_takes_a_group_from_part_of_a_pile():
    variant, state = position(GAME, {"tableau:0": "KD 8S 7H"})
    assert move("tableau:0", "tableau:1", 2) in variant.legal_moves(state)
    after = variant.apply(state, move("tableau:0", "tableau:1", 2))
    assert show(variant, after, "tableau:0") == "KD"
    assert show(variant, after, "tableau:1") == "8S 7H"


def test_a_whole_pile_cannot_move_to_an_empty_pile():
    variant, state = position(GAME, {"tableau:0": "8S 7H", "tableau:1": "KC", "stock": "2D"})
    for source, count in (("tableau:0", 2), ("tableau:1", 1)):
        with pytest.raises(IllegalMove) as refused:
            variant.apply(state, move(source, "tableau:2", count))
        assert refused.value.code == "empty_shuffle"
    moves = variant.legal_moves(state)
    assert move("tableau:0", "tableau:2", 2) not in moves
    assert move("tableau:1", "tableau:2") not in moves
    assert move("tableau:0", "tableau:2") in moves  # part of a pile


# -- foundations ------------------------------------------------------------------------------


def test_only_an_ace_starts_a_foundation():
    variant, state = position(GAME, {"waste": "AS 2S", "stock": "5D"})
    with pytest.raises(IllegalMove) as refused:
        variant.apply(state, move("waste", "foundation:0"))
    assert refused.value.code == "wrong_rank"
    assert refused.value.message == "The Two of spades cannot start a foundation: only an Ace can."

    after = variant.apply(
        variant.apply(state, move("waste", "tableau:0")), move("waste", "foundation:2")
    )
    assert show(variant, after, "foundation:2") == "AS"


def test_foundations_build_up_in_suit():
    variant, state = position(
        GAME,
        {"foundation:0": "AS", "waste": "3S", "tableau:0": "2H", "tableau:1": "2S", "stock": "5D"},
    )
    for source, code in (("tableau:0", "wrong_suit"), ("waste", "wrong_rank")):
        with pytest.raises(IllegalMove) as refused:
            variant.apply(state, move(source, "foundation:0"))
        assert refused.value.code == code
    after = variant.apply(state, move("tableau:1", "foundation:0"))
    after = variant.apply(after, move("waste", "foundation:0"))
    assert show(variant, after, "foundation:0") == "AS 2S 3S"


def test_a_foundation_takes_one_card_at_a_time():
    variant, state = position(GAME, {"foundation:0": "AS", "tableau:0": "KD 2S AH", "stock": "5D"})
    with pytest.raises(IllegalMove) as refused:
        variant.apply(state, move("tableau:0", "foundation:0", 2))
    assert refused.value.code == "single_cards_only"
    card_moves = [m for m in variant.legal_moves(state) if m != DEAL]
    assert move("tableau:0", "foundation:1") in card_moves  # AH alone starts a foundation
    assert not [m for m in card_moves if m.target.startswith("foundation") and m.count > 1]


def test_cards_never_leave_a_foundation():
    variant, state = position(GAME, {"foundation:0": "AS 2S", "tableau:0": "3H", "stock": "5D"})
    for target in ("tableau:0", "tableau:1", "foundation:1", "waste"):
        with pytest.raises(IllegalMove) as refused:
            variant.apply(state, move("foundation:0", target))
        assert refused.value.code == "wrong_target"
    card_moves = [m for m in variant.legal_moves(state) if m != DEAL]
    assert not [m for m in card_moves if m.source.startswith("foundation")]


# -- status -----------------------------------------------------------------------------------


def test_the_game_is_won_when_every_card_is_on_the_foundations():
    variant, state = position(
        GAME,
        {"foundation:0": suit_up("S"), "foundation:1": suit_up("H"), "foundation:2": suit_up("C"),
         "foundation:3": suit_up("D", "Q"), "waste": "KD"},
    )  # fmt: skip
    assert variant.status(state) == "playing"
    after, events = variant.play(state, move("waste", "foundation:3"))
    assert events == [{"type": "game_won"}]
    assert variant.status(after) == "won"
    assert variant.legal_moves(after) == []


def test_a_won_game_refuses_every_move_as_game_over():
    variant, state = position(
        GAME, {f"foundation:{i}": suit_up(suit) for i, suit in enumerate("SHCD")}
    )
    for action in (DEAL, move("foundation:0", "tableau:0")):
        with pytest.raises(IllegalMove) as refused:
            variant.apply(state, action)
        assert refused.value.code == "game_over"
        assert "won" in refused.value.message


def test_the_game_is_lost_when_the_stock_is_empty_and_no_move_remains():
    variant, state = position(GAME, {**BLOCKED, "waste": "8C 9H", "foundation:0": "AD"})
    assert variant.legal_moves(state) == []
    assert variant.status(state) == "lost"
    for action in (DEAL, move("waste", "tableau:0"), move("tableau:6", "foundation:1")):
        with pytest.raises(IllegalMove) as refused:
            variant.apply(state, action)
        assert refused.value.code == "game_over"


def test_the_move_that_leaves_no_legal_move_reports_the_loss():
    # After the Ace goes home only 9S is left, and moving a whole pile to an empty one is no move.
    variant, state = position(GAME, {"waste": "AH", "tableau:0": "9S"})
    after, events = variant.play(state, move("waste", "foundation:0"))
    assert events == [{"type": "game_lost"}]
    assert variant.status(after) == "lost"
