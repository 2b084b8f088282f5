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


# -- the stronger rules (issue 37): each also proved by tests/solver/test_pruning.py ----------


def core_for(variant):
    from games.solver import core

    return core.Core(variant)


def test_blondes_and_brunettes_keys_a_card_by_its_rank_and_colour_alone():
    """Its rules never look at a suit: the Five of hearts and the Five of diamonds in each
    other's places make the same position to them (and to the key), the Five of spades not."""
    piles = {"tableau:0": "5H", "tableau:1": "9C 5D", "reserve": "5S", "stock": "KD"}
    variant, state = position("blondes-and-brunettes", piles, base_rank="5")
    swapped_reds = position(
        "blondes-and-brunettes", piles | {"tableau:0": "5D", "tableau:1": "9C 5H"}, base_rank="5"
    )[1]
    black = position(
        "blondes-and-brunettes", piles | {"tableau:0": "5S", "reserve": "5H"}, base_rank="5"
    )[1]
    tactics, core = Tactics(variant), core_for(variant)
    assert swapped_reds != state
    assert tactics.key(swapped_reds) == tactics.key(state)
    assert core.key(swapped_reds) == core.key(state)
    assert tactics.key(black) != tactics.key(state)
    assert core.key(black) != core.key(state)


@pytest.mark.parametrize("slug", ["gold-mine", "selective-castle", "grounds-for-divorce"])
def test_games_whose_rules_look_at_suits_keep_them_in_the_key(slug):
    variant = get_variant(slug)
    tactics = Tactics(variant)
    assert tactics.keycard == tuple(range(52))


def test_grounds_for_divorce_leaves_its_discard_out_of_the_key():
    """What the discard holds is every card not elsewhere, and nothing leaves it: runs that
    left in another order make the same position."""
    spades = " ".join(f"{rank}S" for rank in "KQJT98765432A")
    hearts = " ".join(f"{rank}H" for rank in "KQJT98765432A")
    piles = {"tableau:0": "3C QH", "tableau:1": "KD", "stock": "2C"}
    variant, state = position("grounds-for-divorce", piles | {"discard": f"{spades} {hearts}"})
    other = position("grounds-for-divorce", piles | {"discard": f"{hearts} {spades}"})[1]
    assert other != state
    assert Tactics(variant).key(other) == Tactics(variant).key(state)
    assert core_for(variant).key(other) == core_for(variant).key(state)


def test_a_gold_mine_card_goes_home_at_once_when_the_cards_it_could_hold_can_follow_it():
    """The Five of spades could still hold the red Fours, but they can go home at once (their
    suits stand at Three), and what could rest on them, the Three of clubs, can too (clubs stand
    at Two): the rule for alternating colours (tactics.SAFE_ALTERNATE)."""
    piles = {
        "foundation:0": "AS 2S 3S 4S",
        "foundation:1": "AH 2H 3H",
        "foundation:2": "AD 2D 3D",
        "foundation:3": "AC 2C",
        "tableau:0": "5S",
        "tableau:1": "KH 4H",
        "stock": "4D 3C",
    }
    variant, state = position("gold-mine", piles)
    moves = variant.legal_moves(state)
    move = home("gold-mine", "tableau:0", "foundation:0")
    assert move in moves
    assert Tactics(variant).safe_move(state, moves) == move
    assert core_for(variant).safe_move(state) == move
    # Clubs at Ace only: the Three of clubs could not follow a Four home, so not at once.
    fewer = position("gold-mine", piles | {"foundation:3": "AC", "stock": "4D 3C 2C"})[1]
    assert Tactics(variant).safe_move(fewer, variant.legal_moves(fewer)) is None
    assert core_for(variant).safe_move(fewer) is None


def test_a_selective_castle_card_goes_home_at_once_when_every_suit_is_two_below_it():
    """Base Ace: the Five of clubs could hold any Four, but every suit stands at Three, so any
    Four can go home instead and nothing left could rest on it (tactics.SAFE_ANY_SUIT)."""
    piles = {
        "foundation:0": "AC 2C 3C 4C",
        "foundation:1": "AD 2D 3D",
        "foundation:2": "AH 2H 3H",
        "foundation:3": "AS 2S 3S",
        "tableau:0": "5C",
        "tableau:1": "KD 4D",
        "tableau:2": "QS 4S",
    }
    variant, state = position("selective-castle", piles, base_rank="A")
    moves = variant.legal_moves(state)
    move = home("selective-castle", "tableau:0", "foundation:0")
    assert move in moves
    assert Tactics(variant).safe_move(state, moves) == move
    assert core_for(variant).safe_move(state) == move
    # Spades at Two: a Four of spades could not follow the Five's guest home (the Four of
    # diamonds may still go at once: its own guests, the Threes, all could).
    behind = position("selective-castle", piles | {"foundation:3": "AS 2S"}, base_rank="A")[1]
    assert Tactics(variant).safe_move(behind, variant.legal_moves(behind)) != move
    assert core_for(variant).safe_move(behind) != move


def test_each_games_solver_facts_sit_with_the_game():
    from games.rules.solving import SolverProfile
    from games.solver import tactics
    from games.solver.difficulty import thresholds

    for variant in VARIANTS.values():
        profile = type(variant).solver
        assert isinstance(profile, SolverProfile)
        assert len(tactics.passes_for(variant)) == len(profile.passes)
        assert thresholds(variant) == profile.difficulty
        assert Tactics(variant).folds_deals == profile.folds_deals
    assert tactics.PREPARATION_ORDER == (
        "grandfathers-clock",
        "selective-castle",
        "blondes-and-brunettes",
        "gold-mine",
        "grounds-for-divorce",
    )


# -- moves to or from identical piles ------------------------------------------------------


def test_a_gold_mine_card_is_tried_on_one_of_the_empty_piles_alone():
    """The Five of hearts may go to any of six empty piles: the same position, once."""
    variant, state = position("gold-mine", {"tableau:0": "KS", "waste": "5H", "stock": "2H"})
    tactics = Tactics(variant)
    moves = variant.legal_moves(state)
    to_empty = [m for m in moves if m.source == "waste" and m.target.startswith("tableau")]
    assert len(to_empty) == 6
    kept = tactics.distinct(state, moves)
    assert [m for m in kept if m.source == "waste" and m.target.startswith("tableau")] == [
        Move("move", "waste", "tableau:1", 1)
    ]
    assert [m for m in moves if m not in kept] == to_empty[1:]
    assert Move("deal") in kept


def test_blondes_and_brunettes_tries_a_card_on_one_of_the_foundations_its_key_cannot_tell_apart():
    """Two foundations of a red Five and a black Six each are one pile to the key (it knows
    cards by rank and colour): the red Seven goes to one of them; the third, started by a black
    Five, stays a target of its own, and so does each pile the Seven could leave."""
    piles = {
        "foundation:0": "5H 6S",
        "foundation:1": "5D 6C",
        "foundation:2": "5S",
        "tableau:0": "7D",
        "tableau:1": "7H",
        "tableau:2": "6D",
        "stock": "KD",
    }
    variant, state = position("blondes-and-brunettes", piles, base_rank="5")
    tactics = Tactics(variant)
    moves = variant.legal_moves(state)
    kept = tactics.distinct(state, moves)
    assert Move("move", "tableau:0", "foundation:0", 1) in kept
    assert Move("move", "tableau:0", "foundation:1", 1) in moves
    assert Move("move", "tableau:0", "foundation:1", 1) not in kept
    assert Move("move", "tableau:2", "foundation:2", 1) in kept
    # The Seven of hearts is the Seven of diamonds to the key: their piles are identical.
    assert not any(m.source == "tableau:1" for m in kept)


def test_a_search_counts_fewer_positions_and_meets_the_same_ones_for_the_identical_piles_left_out():
    """Gold Mine's deal 1: the same win, the same positions met, in fewer positions than a search
    trying every empty pile (the children it leaves out repeat a position it has met)."""
    from games.solver.search import Budget, _Search
    from games.solver.tactics import passes_for

    variant = get_variant("gold-mine")
    state = variant.deal(1)
    settings = passes_for(variant)[0]
    pruned = _Search(variant, Budget(100_000, 600), settings)
    won, line = pruned.run(state)
    every = _Search(variant, Budget(100_000, 600), settings)
    every.tactics.distinct = lambda state, moves: moves  # every empty pile tried
    assert every.run(state) == (won, line) and won == "won"
    assert len(every.seen) == len(pruned.seen)
    assert pruned.positions < every.positions


def test_a_look_ahead_hint_searches_the_games_hint_passes_where_it_has_them():
    """Gold Mine proves deals with five passes, but a hint's small budget split five ways
    leaves the last ones too few positions: its hint searches three. Every other game's hint
    searches the game's own passes."""
    from games.solver.tactics import hint_passes_for, passes_for

    for slug, variant in VARIANTS.items():
        hint, passes = hint_passes_for(variant), passes_for(variant)
        if slug == "gold-mine":
            assert len(hint) == 3 < len(passes) == 5
            assert hint[:2] == passes[:2]
        else:
            assert hint == passes


def test_the_solver_keeps_no_table_of_games():
    """What the solver knows of a game sits with the game (its module's ``solver``): no module
    of the solver names a game by its slug (issue 49)."""
    from pathlib import Path

    import games.solver

    sources = sorted(Path(games.solver.__file__).parent.glob("*.[pc]*"))
    assert any(path.name == "_core.c" for path in sources)
    for path in sources:
        if path.suffix not in {".py", ".c"}:
            continue
        text = path.read_text()
        named = [slug for slug in VARIANTS if f'"{slug}"' in text or f"'{slug}'" in text]
        assert not named, f"{path.name} names {named}"
