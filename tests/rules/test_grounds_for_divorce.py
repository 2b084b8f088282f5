"""Grounds for Divorce: hand-built positions for each ruling
(games/rules/RULINGS.md §Grounds for Divorce, and §Every game).

Ten tableau piles build down regardless of suit, with no wrapping; same-suit groups move as a
unit; a face-up run from King to Ace in one suit leaves for the discard at once; the stock
deals one face-up card to each non-empty pile, once through.
"""

import pytest

from games.rules import DEAL, IllegalMove

from .helpers import move, position, show

GAME = "grounds-for-divorce"
PILES = [f"tableau:{i}" for i in range(10)]
#: Ten non-empty piles on which nothing moves: every top card is a Nine.
QUIET = {pile: "9C" for pile in PILES}


def run(suit, high="K", low="A"):
    """One suit from ``high`` down to ``low`` as position text: run("S", "3") == "3S 2S AS"."""
    ranks = "KQJT98765432A"
    return " ".join(rank + suit for rank in ranks[ranks.index(high) : ranks.index(low) + 1])


# -- building -------------------------------------------------------------------------------


def test_builds_down_regardless_of_suit():
    variant, state = position(GAME, {"tableau:0": "9H", "tableau:1": "8S", "stock": "AS"})
    after = variant.apply(state, move("tableau:1", "tableau:0"))
    assert show(variant, after, "tableau:0") == "9H 8S"


def test_refuses_a_card_that_is_not_one_rank_lower_with_a_clear_message():
    variant, state = position(GAME, {"tableau:0": "7C", "tableau:1": "8H", "stock": "AS"})
    with pytest.raises(IllegalMove) as refused:
        variant.apply(state, move("tableau:1", "tableau:0"))
    assert refused.value.code == "wrong_rank"
    assert refused.value.message.startswith("The Eight of hearts cannot go on the Seven of clubs")


def test_nothing_goes_on_an_ace():
    variant, state = position(
        GAME, {"tableau:0": "AS", "tableau:1": "2S", "tableau:2": "KH", "stock": "5D"}
    )
    for source in ("tableau:1", "tableau:2"):  # not a Two, and no wrapping for a King
        with pytest.raises(IllegalMove) as refused:
            variant.apply(state, move(source, "tableau:0"))
        assert refused.value.code == "wrong_rank"
    assert not [m for m in variant.legal_moves(state) if m.target == "tableau:0"]


def test_a_king_goes_only_to_an_empty_pile():
    variant, state = position(GAME, {"tableau:0": "QH", "tableau:1": "9C KS", "stock": "5D"})
    with pytest.raises(IllegalMove) as refused:
        variant.apply(state, move("tableau:1", "tableau:0"))
    assert refused.value.code == "wrong_rank"
    assert "King of spades" in refused.value.message

    after = variant.apply(state, move("tableau:1", "tableau:2"))
    assert show(variant, after, "tableau:1") == "9C"
    assert show(variant, after, "tableau:2") == "KS"


def test_only_the_face_up_cards_of_a_pile_can_move():
    variant, state = position(GAME, {"tableau:0": "9S", "tableau:1": "8S | 7S 6S", "stock": "5D"})
    with pytest.raises(IllegalMove) as refused:
        variant.apply(state, move("tableau:1", "tableau:0", 3))
    assert refused.value.code == "not_available"


# -- groups ---------------------------------------------------------------------------------


def test_a_same_suit_group_moves_as_a_unit():
    variant, state = position(GAME, {"tableau:0": "9H", "tableau:1": "KD 8S 7S 6S", "stock": "5D"})
    assert move("tableau:1", "tableau:0", 3) in variant.legal_moves(state)

    after, events = variant.play(state, move("tableau:1", "tableau:0", 3))
    assert show(variant, after, "tableau:0") == "9H 8S 7S 6S"
    assert show(variant, after, "tableau:1") == "KD"
    assert events == []


def test_a_mixed_suit_group_does_not_move_as_a_unit():
    variant, state = position(GAME, {"tableau:0": "9H", "tableau:1": "8S 7D", "stock": "5D"})
    with pytest.raises(IllegalMove) as refused:
        variant.apply(state, move("tableau:1", "tableau:0", 2))
    assert refused.value.code == "not_a_sequence"
    assert "same suit" in refused.value.message
    assert move("tableau:1", "tableau:0", 2) not in variant.legal_moves(state)


def test_a_groups_bottom_card_must_fit_the_target():
    variant, state = position(GAME, {"tableau:0": "9H", "tableau:1": "7S 6S", "stock": "5D"})
    with pytest.raises(IllegalMove) as refused:
        variant.apply(state, move("tableau:1", "tableau:0", 2))
    assert refused.value.code == "wrong_rank"
    assert refused.value.message.startswith("The Seven of spades cannot go on the Nine of hearts")


# -- empty piles and empty shuffles -----------------------------------------------------------


def test_an_empty_pile_takes_any_single_card():
    variant, state = position(GAME, {"tableau:0": "3D 9H 5C", "stock": "5D"})
    after = variant.apply(state, move("tableau:0", "tableau:4"))
    assert show(variant, after, "tableau:0") == "3D 9H"
    assert show(variant, after, "tableau:4") == "5C"


def test_an_empty_pile_takes_a_same_suit_group_from_part_of_a_pile():
    variant, state = position(GAME, {"tableau:0": "QD 8H 7H", "stock": "5D"})
    assert move("tableau:0", "tableau:1", 2) in variant.legal_moves(state)
    after = variant.apply(state, move("tableau:0", "tableau:1", 2))
    assert show(variant, after, "tableau:0") == "QD"
    assert show(variant, after, "tableau:1") == "8H 7H"


def test_an_empty_pile_refuses_a_mixed_suit_group():
    variant, state = position(GAME, {"tableau:0": "QD 8H 7S", "stock": "5D"})
    with pytest.raises(IllegalMove) as refused:
        variant.apply(state, move("tableau:0", "tableau:1", 2))
    assert refused.value.code == "not_a_sequence"


def test_a_whole_pile_cannot_move_to_an_empty_pile():
    variant, state = position(GAME, {"tableau:0": "8H 7H", "tableau:1": "5C", "stock": "5D"})
    for source, count in (("tableau:0", 2), ("tableau:1", 1)):
        with pytest.raises(IllegalMove) as refused:
            variant.apply(state, move(source, "tableau:2", count))
        assert refused.value.code == "empty_shuffle"
        assert "change nothing" in refused.value.message
    moves = variant.legal_moves(state)
    assert move("tableau:0", "tableau:2", 2) not in moves
    assert move("tableau:1", "tableau:2") not in moves
    assert move("tableau:0", "tableau:2") in moves  # part of a pile


def test_the_face_up_part_of_a_pile_may_move_to_an_empty_pile():
    variant, state = position(GAME, {"tableau:0": "2C 4D | 8H 7H", "stock": "5D"})
    after, events = variant.play(state, move("tableau:0", "tableau:1", 2))
    assert show(variant, after, "tableau:0") == "2C | 4D"
    assert show(variant, after, "tableau:1") == "8H 7H"
    assert events == [{"type": "turned_up", "pile": "tableau:0", "card": "4D"}]


def test_an_uncovered_face_down_card_turns_up_at_once():
    variant, state = position(GAME, {"tableau:0": "6S", "tableau:1": "2D 3C | 5H", "stock": "5D"})
    after, events = variant.play(state, move("tableau:1", "tableau:0"))
    assert show(variant, after, "tableau:1") == "2D | 3C"
    assert events == [{"type": "turned_up", "pile": "tableau:1", "card": "3C"}]


# -- runs to the discard ----------------------------------------------------------------------


def test_a_finished_run_goes_to_the_discard_king_at_the_bottom():
    variant, state = position(
        GAME, {"tableau:0": run("S", "K", "2"), "tableau:1": "9C AS", "stock": "5D"}
    )
    after, events = variant.play(state, move("tableau:1", "tableau:0"))
    assert show(variant, after, "tableau:0") == ""
    assert show(variant, after, "discard") == run("S")
    assert show(variant, after, "discard").split()[-1] == "AS"
    assert events == [{"type": "run_removed", "pile": "tableau:0", "suit": "S"}]


def test_a_run_finished_by_a_group_move_goes_to_the_discard():
    variant, state = position(
        GAME,
        {
            "tableau:0": "4C | " + run("H", "K", "8"),
            "tableau:1": "JD " + run("H", "7"),
            "stock": "5D",
        },
    )
    after, events = variant.play(state, move("tableau:1", "tableau:0", 7))
    assert show(variant, after, "discard") == run("H")
    assert show(variant, after, "tableau:0") == "4C"
    assert show(variant, after, "tableau:1") == "JD"
    assert events == [
        {"type": "run_removed", "pile": "tableau:0", "suit": "H"},
        {"type": "turned_up", "pile": "tableau:0", "card": "4C"},
    ]


def test_removing_a_run_turns_up_the_face_down_card_below():
    variant, state = position(
        GAME, {"tableau:0": "4D 5C | " + run("S", "K", "2"), "tableau:1": "9C AS", "stock": "5D"}
    )
    after, events = variant.play(state, move("tableau:1", "tableau:0"))
    assert show(variant, after, "tableau:0") == "4D | 5C"
    assert events == [
        {"type": "run_removed", "pile": "tableau:0", "suit": "S"},
        {"type": "turned_up", "pile": "tableau:0", "card": "5C"},
    ]


def test_a_king_to_ace_sequence_in_mixed_suits_stays():
    variant, state = position(
        GAME, {"tableau:0": run("S", "K", "2"), "tableau:1": "9C AH", "stock": "5D"}
    )
    after, events = variant.play(state, move("tableau:1", "tableau:0"))
    assert show(variant, after, "tableau:0") == run("S", "K", "2") + " AH"
    assert show(variant, after, "discard") == ""
    assert events == []


def test_the_discard_keeps_runs_in_the_order_removed():
    variant, state = position(
        GAME,
        {"discard": run("H"), "tableau:0": run("S", "K", "2"), "tableau:1": "9C AS", "stock": "5D"},
    )
    after = variant.apply(state, move("tableau:1", "tableau:0"))
    assert show(variant, after, "discard") == run("H") + " " + run("S")


def test_cards_never_leave_the_discard_and_nothing_is_put_on_it():
    variant, state = position(
        GAME, {"discard": run("H"), "tableau:0": "6S", "tableau:1": "9C 5H", "stock": "5D"}
    )
    for source, target in (
        ("discard", "tableau:2"),
        ("discard", "tableau:0"),
        ("tableau:1", "discard"),
    ):
        with pytest.raises(IllegalMove) as refused:
            variant.apply(state, move(source, target))
        assert refused.value.code == "wrong_target"
    assert not [m for m in variant.legal_moves(state) if "discard" in (m.source, m.target)]


# -- dealing ----------------------------------------------------------------------------------


def test_a_deal_gives_each_pile_one_face_up_card_from_the_stocks_top():
    variant, state = position(
        GAME, {**QUIET, "tableau:0": "3C | 5H", "stock": "2D 3D " + run("C", "T", "A")}
    )
    after, events = variant.play(state, DEAL)
    assert show(variant, after, "tableau:0") == "3C | 5H AC"  # the stock's top card, leftmost
    assert show(variant, after, "tableau:1") == "9C 2C"
    assert show(variant, after, "tableau:9") == "9C TC"
    assert show(variant, after, "stock") == "2D 3D"
    assert events == []


def test_the_stock_cannot_be_moved_from_directly():
    variant, state = position(GAME, {**QUIET, "stock": "8D"})
    with pytest.raises(IllegalMove) as refused:
        variant.apply(state, move("stock", "tableau:0"))
    assert refused.value.code == "wrong_target"


def test_a_deal_that_finishes_a_run_sends_it_to_the_discard():
    variant, state = position(
        GAME,
        {**QUIET, "tableau:0": "7D | " + run("H", "K", "2"), "stock": run("C", "T", "2") + " AH"},
    )
    after, events = variant.play(state, DEAL)
    assert show(variant, after, "discard") == run("H")
    assert show(variant, after, "tableau:0") == "7D"
    assert events == [
        {"type": "run_removed", "pile": "tableau:0", "suit": "H"},
        {"type": "turned_up", "pile": "tableau:0", "card": "7D"},
    ]


def test_runs_finished_by_one_deal_go_to_the_discard_leftmost_first():
    # Bottom to top, the stock's cards go to piles 9, 8, …, 0: AH to pile 6, AS to pile 2.
    stock = "2C 3C 4C AH 5C 6C 7C AS 8C 9C"
    variant, state = position(
        GAME,
        {**QUIET, "tableau:2": run("S", "K", "2"), "tableau:6": run("H", "K", "2"), "stock": stock},
    )
    after, events = variant.play(state, DEAL)
    assert show(variant, after, "discard") == run("S") + " " + run("H")
    assert events == [
        {"type": "run_removed", "pile": "tableau:2", "suit": "S"},
        {"type": "run_removed", "pile": "tableau:6", "suit": "H"},
    ]


def test_an_empty_pile_blocks_the_deal():
    # Ten cards on the tableau: enough to fill every pile, so the empty one must be filled first.
    variant, state = position(GAME, {**QUIET, "tableau:0": "9C 9D", "tableau:9": "", "stock": "8D"})
    with pytest.raises(IllegalMove) as refused:
        variant.apply(state, DEAL)
    assert refused.value.code == "deal_blocked"
    assert "empty" in refused.value.message
    assert DEAL not in variant.legal_moves(state)


def test_a_tableau_too_thin_to_fill_its_piles_may_deal_to_its_non_empty_piles():
    # Nine cards for ten piles: the deal is allowed, and the empty pile gets nothing.
    variant, state = position(GAME, {**QUIET, "tableau:4": "", "stock": "KD " + run("C", "T", "2")})
    assert DEAL in variant.legal_moves(state)
    after = variant.apply(state, DEAL)
    assert [show(variant, after, pile) for pile in PILES] == [
        "9C 2C", "9C 3C", "9C 4C", "9C 5C", "", "9C 6C", "9C 7C", "9C 8C", "9C 9C", "9C TC",
    ]  # fmt: skip
    assert show(variant, after, "stock") == "KD"


def test_a_deal_onto_an_empty_tableau_gives_every_pile_a_card():
    variant, state = position(GAME, {"stock": "KD QD " + run("C", "T", "A")})
    after = variant.apply(state, DEAL)
    assert [show(variant, after, pile) for pile in PILES] == run("C", "T").split()[::-1]
    assert show(variant, after, "stock") == "KD QD"


def test_the_last_deal_gives_four_cards_to_the_first_four_piles():
    variant, state = position(GAME, {**QUIET, "stock": "AC 2C 3C 4C"})
    after = variant.apply(state, DEAL)
    assert [show(variant, after, pile) for pile in PILES] == [
        "9C 4C", "9C 3C", "9C 2C", "9C AC", "9C", "9C", "9C", "9C", "9C", "9C",
    ]  # fmt: skip
    assert show(variant, after, "stock") == ""


def test_a_short_last_deal_skips_empty_piles():
    variant, state = position(
        GAME, {"tableau:1": "9C", "tableau:3": "9D", "tableau:4": "9H", "tableau:7": "9S",
               "tableau:8": "9C", "stock": "AC 2C 3C 4C"}
    )  # fmt: skip
    after = variant.apply(state, DEAL)
    assert [show(variant, after, pile) for pile in PILES] == [
        "", "9C 4C", "", "9D 3C", "9H 2C", "", "", "9S AC", "9C", "",
    ]  # fmt: skip


def test_the_stock_is_dealt_only_once():
    variant, state = position(GAME, {**QUIET, "tableau:0": "9H 8S", "tableau:1": "4C"})
    with pytest.raises(IllegalMove) as refused:
        variant.apply(state, DEAL)
    assert refused.value.code == "stock_empty"
    assert "one pass" in refused.value.message
    assert DEAL not in variant.legal_moves(state)


# -- status -----------------------------------------------------------------------------------


def test_a_deal_counts_as_a_move_while_it_is_allowed():
    variant, state = position(GAME, {**QUIET, "stock": "8D"})
    assert variant.legal_moves(state) == [DEAL]
    assert variant.status(state) == "playing"


def test_the_game_is_won_when_every_card_is_in_the_discard():
    variant, state = position(GAME, {"tableau:0": run("D", "K", "2"), "tableau:1": "AD"})
    assert variant.status(state) == "playing"
    after, events = variant.play(state, move("tableau:1", "tableau:0"))
    assert events == [
        {"type": "run_removed", "pile": "tableau:0", "suit": "D"},
        {"type": "game_won"},
    ]
    assert variant.status(after) == "won"


def test_a_won_game_refuses_every_move_as_game_over():
    variant, state = position(GAME, {"discard": run("D")})
    assert variant.status(state) == "won"
    for action in (DEAL, move("discard", "tableau:0")):
        with pytest.raises(IllegalMove) as refused:
            variant.apply(state, action)
        assert refused.value.code == "game_over"


def test_the_game_is_lost_when_no_move_and_no_deal_remain():
    # The only card moves left would be empty shuffles, and the stock is empty.
    variant, state = position(GAME, {"tableau:0": "5H", "tableau:1": "9C"})
    assert variant.legal_moves(state) == []
    assert variant.status(state) == "lost"
    for action in (DEAL, move("tableau:0", "tableau:1"), move("tableau:0", "tableau:5")):
        with pytest.raises(IllegalMove) as refused:
            variant.apply(state, action)
        assert refused.value.code == "game_over"


def test_the_move_that_leaves_no_legal_move_reports_the_loss():
    variant, state = position(
        GAME,
        {"tableau:0": "6S", "tableau:1": "KD | 5H", "tableau:2": "9C", "tableau:3": "9D",
         "tableau:4": "9H", "tableau:5": "9S", "tableau:6": "2C", "tableau:7": "2D",
         "tableau:8": "2H", "tableau:9": "2S"},
    )  # fmt: skip
    assert variant.status(state) == "playing"
    after, events = variant.play(state, move("tableau:1", "tableau:0"))
    assert events == [
        {"type": "turned_up", "pile": "tableau:1", "card": "KD"},
        {"type": "game_lost"},
    ]
    assert variant.status(after) == "lost"
