"""Hints: a legal move worth trying, chosen from what the player sees, never going in circles."""

from __future__ import annotations

import random

import pytest

from games.rules import DEAL, VARIANTS, State, Variant, get_variant
from games.rules.rule_of_thumb import describe

from .helpers import disguised, move, position

SLUGS = sorted(VARIANTS)


def normal(state: State) -> State:
    """A position as ``seen`` holds it: the same board at any move number."""
    return state._replace(move_number=0)


def follow_hints(variant: Variant, seed: int, limit: int = 400) -> tuple[list[State], bool]:
    """The positions of a game that plays every hint; True when it stopped because the hint
    had nothing to offer while legal moves remained."""
    state = variant.deal(seed)
    line, seen = [state], {normal(state)}
    for _ in range(limit):
        suggestion = variant.hint(state, seen)
        if suggestion is None:
            return line, bool(variant.legal_moves(state))
        assert suggestion in variant.legal_moves(state)
        state = variant.apply(state, suggestion)
        assert normal(state) not in seen, "a hint led back to a position already seen"
        seen.add(normal(state))
        line.append(state)
    return line, False


@pytest.mark.parametrize("slug", SLUGS)
def test_following_the_hints_plays_only_legal_moves_and_never_repeats_a_position(slug):
    variant = get_variant(slug)
    for seed in range(12):
        line, _ = follow_hints(variant, seed)
        assert len(line) > 1


@pytest.mark.parametrize("slug", SLUGS)
def test_a_hint_depends_only_on_what_the_player_can_see(slug):
    variant, rng = get_variant(slug), random.Random(slug)
    checked = 0
    for seed in range(8):
        line, _ = follow_hints(variant, seed, limit=60)
        for state in line:
            if not any(pile.face_down for pile in state.piles):
                continue
            for _ in range(3):
                other = disguised(state, rng)
                assert variant.player_view(other) == variant.player_view(state)
                assert variant.hint(other) == variant.hint(state)
                checked += 1
    if any(pile.face_down for pile in variant.deal(0).piles):
        assert checked > 0


def test_following_the_hints_wins_games_that_random_play_does_not():
    variant = get_variant("blondes-and-brunettes")
    wins = 0
    for seed in range(40):
        line, _ = follow_hints(variant, seed)
        wins += variant.status(line[-1]) == "won"
    assert wins >= 3  # random play wins about 1 deal in 70 of this game


# -- preferences, on hand-built positions -------------------------------------------------------

#: Gold Mine's seven piles with nothing to move between them: black cards, none a rank apart.
BLOCKED = {
    f"tableau:{i}": code for i, code in enumerate(["KS", "KC", "JS", "JC", "9S", "9C", "7S"])
}


def test_a_card_that_can_go_home_comes_first():
    variant, state = position(
        "gold-mine", {**BLOCKED, "stock": "2C 9D", "waste": "AH", "tableau:6": "7S 8H"}
    )
    assert move("tableau:6", "tableau:4") in variant.legal_moves(state)
    assert variant.hint(state) == move("waste", "foundation:0")


def test_a_hint_names_the_moving_card_in_words():
    variant, state = position("gold-mine", {**BLOCKED, "stock": "2C 9D", "waste": "AH"})
    assert describe(variant, state, variant.hint(state)) == (
        "Move the Ace of hearts from the waste to foundation 1."
    )
    variant, state = position(
        "grounds-for-divorce", {"tableau:0": "4S | 9D 8D 7D", "tableau:1": "TC", "stock": "2C"}
    )
    assert describe(variant, state, move("tableau:0", "tableau:1", 3)) == (
        "Move the Nine of diamonds and the 2 cards on it from tableau pile 1 to tableau pile 2."
    )
    assert describe(variant, state, DEAL) == "Deal from the stock."


def test_selective_castles_first_card_home_is_of_the_rank_whose_cards_lie_nearest_the_top():
    """The first card home sets every foundation's base rank: not simply the first pile's top
    card (the Six here), but the rank with the fewest cards above its four (the Queens)."""
    variant, state = position(
        "selective-castle",
        {
            "tableau:0": "QC 2S 6D",
            "tableau:1": "6C 4H 5H QD",
            "tableau:2": "6H 7C 8C QH",
            "tableau:3": "6S 9D TD QS",
        },
    )
    assert variant.hint(state) == move("tableau:1", "foundation:0")
    assert describe(variant, state, variant.hint(state)) == (
        "Move the Queen of diamonds from tableau pile 2 to foundation 1. "
        "That makes Queen the base rank: its four cards lie nearest the top."
    )
    # Once the base rank is set, a card going home is just that.
    variant, state = position(
        "selective-castle",
        {"foundation:0": "QD", "tableau:0": "KD", "tableau:1": "QC"},
        base_rank="Q",
    )
    assert describe(variant, state, variant.hint(state)) == (
        "Move the King of diamonds from tableau pile 1 to foundation 1."
    )


def test_following_the_hints_brings_more_of_selective_castle_home():
    """Choosing the base rank by where its cards lie, over the first pile's top card: 2.8 →
    4.1 cards home on average over 200 deals (no deal is won either way; the hints do not
    search)."""
    variant = get_variant("selective-castle")
    home = 0
    for seed in range(60):
        line, _ = follow_hints(variant, seed, limit=600)
        home += sum(len(line[-1].piles[i].cards) for i in variant.home_idx)
    assert home / 60 > 3.5


def test_a_card_from_the_waste_is_brought_into_play_before_dealing():
    variant, state = position("gold-mine", {**BLOCKED, "stock": "2C", "waste": "8H"})
    assert variant.hint(state) == move("waste", "tableau:4")


def test_dealing_comes_before_moves_that_only_shift_cards_about():
    piles = {**BLOCKED, "stock": "2C", "tableau:6": "8D 7S", "tableau:4": "", "tableau:5": ""}
    variant, state = position("gold-mine", piles)
    assert variant.legal_moves(state) == [
        move("tableau:6", "tableau:4"),
        move("tableau:6", "tableau:5"),
        DEAL,
    ]
    assert variant.hint(state) == DEAL


def test_turning_up_a_hidden_card_beats_emptying_a_pile_which_beats_dealing():
    piles = {f"tableau:{i}": "KC" for i in range(10)}
    piles |= {"tableau:0": "9D", "tableau:1": "4S 4S | 8H", "tableau:2": "8C", "tableau:3": "9S"}
    variant, state = position("grounds-for-divorce", piles | {"stock": "2C"})
    assert variant.hint(state) == move("tableau:1", "tableau:0")
    turned_up = variant.apply(state, move("tableau:1", "tableau:0"))
    assert variant.hint(turned_up) == move("tableau:2", "tableau:3")  # empties tableau:2


def test_a_move_back_to_a_position_already_seen_is_never_suggested():
    variant, state = position("gold-mine", {**BLOCKED, "tableau:5": "9C 8H", "tableau:6": "7H"})
    there = move("tableau:5", "tableau:4")
    assert variant.legal_moves(state) == [there]
    after = variant.apply(state, there)
    back = move("tableau:4", "tableau:5")
    assert variant.legal_moves(after) == [back]
    assert variant.hint(after) == back  # without the game's history, the only legal move
    assert variant.hint(after, {normal(state), normal(after)}) is None


def test_when_every_move_goes_round_in_circles_the_hint_says_to_resign():
    """Gold Mine with its stock used up: an Eight going back and forth between two Nines keeps
    the game in play by the rules, so the hint says what is left to do."""
    variant, state = position("gold-mine", {**BLOCKED, "tableau:5": "9C 8H", "tableau:6": "7H"})
    after = variant.apply(state, move("tableau:5", "tableau:4"))
    assert variant.hint(after, {normal(state), normal(after)}) is None
    assert describe(variant, after, None) == (
        "No move leads anywhere new: every legal move goes back to a position this game has "
        "already had. When you see no way forward, resign."
    )
