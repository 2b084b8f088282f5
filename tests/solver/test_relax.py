"""Proofs of loss by relaxation (games/solver/relax.py) and static dead ends
(games/solver/deadends.py): each relaxed game holds every real move, and on late positions of
each game a loss it proves is a loss the exhaustive search of the real game finds."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import pytest

from games.rules import VARIANTS, State, Variant, get_variant
from games.rules.cards import CODE, IS_RED
from games.solver import LOST, UNKNOWN, WON, Budget, relax, solve
from games.solver.deadends import reserve_blocked
from games.solver.search import PROOF_RESERVE, PROOF_SEARCH
from tests.rules.helpers import position
from tests.solver.helpers import lost_castle
from tests.solver.test_pruning import exhaustive, late_positions


@functools.cache
def late_truths(slug: str) -> list[tuple[State, str]]:
    """The late positions of ``slug`` (tests/solver/test_pruning.py) that the exhaustive search
    of the real game decides, with its answer."""
    variant = get_variant(slug)
    found = [(state, exhaustive(variant, state)) for state in late_positions(slug)]
    return [(state, truth) for state, truth in found if truth is not None]


RELAXED = sorted(slug for slug in VARIANTS if get_variant(slug).solver.relaxations)
RELAXATIONS = [
    (slug, relaxation) for slug in RELAXED for relaxation in get_variant(slug).solver.relaxations
]


def random_positions(variant: Variant, deals: int = 6, moves: int = 120, every: int = 5):
    """Positions of seeded random play, every ``every`` moves."""
    rng = random.Random(variant.slug)
    for seed in range(deals):
        state = variant.deal(seed)
        for number in range(moves):
            legal = variant.legal_moves(state)
            if not legal:
                break
            if number % every == 0:
                yield state
            state = variant.apply(state, rng.choice(legal))


def test_the_games_that_declare_relaxations():
    assert RELAXED == ["blondes-and-brunettes", "gold-mine", "grounds-for-divorce"]


@pytest.mark.parametrize("slug,relaxation", RELAXATIONS)
def test_every_real_move_is_a_move_of_the_relaxed_game(slug, relaxation):
    variant = get_variant(slug)
    game = relax.Relaxed(variant, relaxation)
    key = game.tactics.key
    checked = 0
    for state in random_positions(variant):
        image = game.canonical(state)
        relaxed = {key(child) for child in game.children(image)}
        for move in variant.legal_moves(state):
            after = game.canonical(variant.successor(state, move))
            assert key(after) in relaxed, (slug, relaxation, move, variant.state_to_json(state))
            checked += 1
    assert checked >= 100


def test_the_looser_rules_allow_every_real_move_with_the_same_result():
    variant = get_variant("grounds-for-divorce")
    looser = relax.loosened(variant, any_run=True, deal_anyway=True)
    extra = 0
    for state in random_positions(variant, moves=120, every=4):
        real, loose = variant.legal_moves(state), looser.legal_moves(state)
        assert set(real) <= set(loose)
        extra += len(loose) > len(real)
        for move in real:
            assert looser.successor(state, move) == variant.successor(state, move)
    assert extra, "the looser rules never added a move"


@pytest.mark.parametrize("slug,relaxation", RELAXATIONS)
def test_a_relaxed_search_proves_lost_only_what_the_exhaustive_search_finds_lost(slug, relaxation):
    variant = get_variant(slug)
    answered = {WON: 0, LOST: 0, UNKNOWN: 0}
    for state, truth in late_truths(slug):
        outcome, _ = relax.search(variant, state, relaxation, 5_000, 60.0)
        where = f"{slug} {relaxation}: {variant.state_to_json(state)}"
        # The relaxed game holds the real one: a real win is a relaxed win, never a loss.
        if truth == WON:
            assert outcome != LOST, where
        if outcome == LOST:
            assert truth == LOST, where
        answered[outcome] += 1
    assert answered[WON] >= 2, answered


def test_relaxed_searches_prove_late_positions_lost():
    """Not vacuous: the looser rules of Grounds for Divorce prove lost, with the real search
    left out, late positions the exhaustive search finds lost, and solve says which proved it."""
    variant = get_variant("grounds-for-divorce")
    proven = 0
    for state, truth in late_truths(variant.slug):
        for relaxation in variant.solver.relaxations:
            outcome, _ = relax.search(variant, state, relaxation, 5_000, 60.0)
            proven += outcome == LOST
            assert outcome != LOST or truth == LOST
    assert proven >= 4
    lost = next(state for state, truth in late_truths(variant.slug) if truth == LOST)
    answer = solve(variant, lost, Budget(10**6, 60), relax_budget=Budget(10**5, 60))
    assert (answer.outcome, answer.proof) == (LOST, PROOF_SEARCH)


def _nearly_home(reserve: str) -> tuple[Variant, State]:
    """Blondes and Brunettes on base rank Ace with seven foundations complete and the fourth
    red-based one up to its Ten: a red Jack in the tableau, and in the reserve (``reserve``,
    bottom to top) the black Queen and the red King it still needs."""
    foundations: list[list[str]] = [[] for _ in range(8)]
    for rank in range(1, 14):
        # The four foundations wanting a red card at this rank take D, D, H, H; the four
        # wanting a black one C, C, S, S: every card of the two decks once each.
        taken = {True: 0, False: 0}
        for f in range(8):
            red = (f < 4) != ((rank - 1) % 2 == 1)
            suit = ("DDHH" if red else "CCSS")[taken[red]]
            taken[red] += 1
            foundations[f].append(CODE["CDHS".index(suit) * 13 + rank - 1])
    jack, queen, king = foundations[3][10:]
    assert IS_RED[CODE.index(jack)] and not IS_RED[CODE.index(queen)]
    foundations[3] = foundations[3][:10]
    piles = {f"foundation:{f}": " ".join(cards) for f, cards in enumerate(foundations)}
    piles["tableau:0"] = jack
    piles["reserve"] = reserve.format(queen=queen, king=king)
    return position("blondes-and-brunettes", piles, base_rank="A")


def test_a_reserve_that_cannot_go_home_in_order_is_a_dead_end():
    variant, blocked = _nearly_home("{queen} {king}")  # the King on top, the Queen under it
    assert exhaustive(variant, blocked) == LOST
    assert reserve_blocked(variant, blocked)
    answer = solve(variant, blocked, Budget(1_000, 10))
    assert (answer.outcome, answer.positions, answer.proof) == (LOST, 0, PROOF_RESERVE)
    variant, free = _nearly_home("{king} {queen}")  # the Queen on top: it goes home first
    assert exhaustive(variant, free) == WON
    assert not reserve_blocked(variant, free)


def test_the_reserve_rule_never_calls_a_winnable_late_position_lost():
    variant = get_variant("blondes-and-brunettes")
    truths = late_truths(variant.slug)
    assert sum(truth == LOST for _, truth in truths) >= 3
    for state, truth in truths:
        if reserve_blocked(variant, state):
            assert truth == LOST, variant.state_to_json(state)


WINNABILITY = Path(__file__).parents[2] / "games" / "solver" / "winnability"


def test_no_deal_the_stored_run_won_is_a_reserve_dead_end():
    variant = get_variant("blondes-and-brunettes")
    rows = [json.loads(line) for line in (WINNABILITY / f"{variant.slug}.jsonl").open()]
    won = [row["seed"] for row in rows if row["outcome"] == WON]
    assert len(won) >= 100
    assert not [seed for seed in won if reserve_blocked(variant, variant.deal(seed))]
    # Deals 8 and 9 are dead ends from the start: their reserves cannot go home in order.
    for seed in (8, 9):
        answer = solve(variant, variant.deal(seed), Budget(1_000, 10))
        assert (answer.outcome, answer.positions, answer.proof) == (LOST, 0, PROOF_RESERVE)


def test_the_answer_names_how_a_loss_was_proven():
    variant, state = lost_castle()
    assert solve(variant, state, Budget(10**5, 10)).proof == PROOF_SEARCH
    gold = get_variant("gold-mine")
    answer = solve(gold, gold.deal(0), Budget(10, 10), relax_budget=Budget(10, 10))
    assert answer.outcome == UNKNOWN and answer.proof is None


@pytest.mark.parametrize("slug", RELAXED)
def test_the_solvers_answer_with_relaxations_is_the_exhaustive_searchs(slug):
    """On late positions the exhaustive search decides: with the relaxations after it, the
    solver answers as the exhaustive search; with its own search cut to one position, what the
    relaxations prove lost (said in ``proof``) is lost, and nothing won is called lost."""
    variant = get_variant(slug)
    by_relaxation = 0
    for state, truth in late_truths(slug):
        answer = solve(variant, state, Budget(10**6, 60), relax_budget=Budget(5_000, 60))
        assert answer.outcome == truth
        cut = solve(variant, state, Budget(1, 60), relax_budget=Budget(5_000, 60))
        assert cut.outcome in (truth, UNKNOWN)
        if cut.outcome == LOST and cut.proof.startswith("relaxation"):
            by_relaxation += 1
    if slug == "grounds-for-divorce":
        assert by_relaxation >= 4
