"""A move in a player's words (games/rules/describe.py): the cards named as their faces show them,
the piles as a player says them, what the move set off after it; never a face-down card."""

from __future__ import annotations

from games.rules import Move, Pile, get_variant
from games.rules.cards import parse_card
from games.rules.describe import cards_words, describe, describe_move, pile_words

T = "\ufe0e"  # the text form asked for after each suit


def _with_pile(slug: str, pile_id: str, codes: list[str], face_down: int = 0):
    """A dealt state of ``slug`` with ``pile_id`` holding ``codes`` (bottom first)."""
    variant = get_variant(slug)
    state = variant.deal(1)
    piles = list(state.piles)
    piles[variant.index[pile_id]] = Pile(tuple(parse_card(c) for c in codes), face_down)
    return variant, state._replace(piles=tuple(piles))


def test_one_card_is_named_as_its_face_shows_it_with_the_piles_a_player_says():
    variant, state = _with_pile("selective-castle", "tableau:5", ["2C", "7H"])
    move = Move("move", "tableau:5", "tableau:4", 1)
    assert describe_move(variant, state, move) == f"7♥{T} from pile 6 to pile 5"


def test_several_cards_are_counted_and_named_from_the_bottom_one_to_the_top_one():
    variant, state = _with_pile("selective-castle", "tableau:1", ["KD", "9S", "8H", "7D"])
    move = Move("move", "tableau:1", "tableau:7", 3)
    assert describe_move(variant, state, move) == f"3 cards (9♠{T} to 7♦{T}) from pile 2 to pile 8"


def test_a_ten_is_10_and_foundations_keep_their_names():
    variant, state = _with_pile("grandfathers-clock", "tableau:0", ["TS"])
    move = Move("move", "tableau:0", "foundation:10", 1)
    assert describe_move(variant, state, move) == f"10♠{T} from pile 1 to the 10 o'clock foundation"
    assert pile_words(get_variant("gold-mine"), "foundation:1") == "foundation 2"
    assert pile_words(get_variant("gold-mine"), "waste") == "the waste"


def test_a_deal_is_dealt_from_the_stock():
    variant = get_variant("gold-mine")
    assert describe_move(variant, variant.deal(1), Move("deal")) == "Dealt from the stock"


def test_a_face_down_card_is_never_named_only_counted():
    variant, state = _with_pile("gold-mine", "tableau:2", ["QS", "4H"], face_down=1)
    move = Move("move", "tableau:2", "tableau:3", 2)
    said = describe_move(variant, state, move)
    assert said == "2 cards from pile 3 to pile 4"
    assert "Q" not in said and "4" not in said.split(" from ")[0]


def test_without_the_board_a_move_is_said_by_its_piles():
    variant = get_variant("selective-castle")
    assert describe_move(variant, None, Move("move", "tableau:0", "foundation:0", 1)) == (
        "1 card from pile 1 to foundation 1"
    )


def test_what_a_move_set_off_follows_it_in_words():
    variant, state = _with_pile("gold-mine", "tableau:2", ["QS", "4H"], face_down=1)
    events = [
        {"type": "turned_up", "pile": "tableau:2", "card": "QS"},
        {"type": "base_rank_set", "rank": "7"},
        {"type": "game_won"},
    ]
    said = describe(variant, state, Move("move", "tableau:2", "foundation:0", 1), events)
    assert said == (
        f"4♥{T} from pile 3 to foundation 1; Q♠{T} turned up on pile 3; "
        "the foundations start at Seven; the game is won"
    )


def test_a_run_removed_and_a_pile_filled_are_said_with_their_piles_and_cards():
    divorce = get_variant("grounds-for-divorce")
    assert describe(
        divorce, None, Move("deal"), [{"type": "run_removed", "pile": "tableau:3", "suit": "H"}]
    ) == ("Dealt from the stock; a run of hearts went from pile 4 to the discard")
    blondes = get_variant("blondes-and-brunettes")
    event = {"type": "pile_filled", "pile": "tableau:0", "from": "reserve", "card": "5D"}
    assert describe(blondes, None, Move("deal"), [event]) == (
        f"Dealt from the stock; pile 1 filled from the reserve with 5♦{T}"
    )


def test_no_cards_no_words():
    assert cards_words([]) == ""
