"""The analysis's search along a line (games.analysis.search), Django-free: the last winnable
position and the losing move, found by about log2(moves) searches; the honest range when
the proofs run out; a deal lost from the start; a game left winnable."""

from __future__ import annotations

import pytest

from games.analysis.search import Budgets, expected_searches, line_from, locate, solve_position
from games.rules import get_variant
from games.solver import LOST, UNKNOWN, Budget
from tests.games.analysis.lines import BIG, LOSING, LOST_DEALS, lost_at, random_tail

ENOUGH = Budgets(BIG, seconds=120)


@pytest.mark.parametrize("slug", sorted(LOSING))
def test_the_move_that_lost_the_deal_is_found_in_about_log2_searches(slug: str) -> None:
    seed, line, k = lost_at(slug)
    variant = get_variant(slug)
    states = line_from(variant, variant.deal(seed), line)
    finding = locate(variant, states, solve_position, ENOUGH)
    assert finding.kind == "lost_at"
    assert (finding.winnable, finding.lost) == (k, k + 1)
    assert len(finding.searches) <= expected_searches(len(line))
    # The solver's line from the last winnable position wins it.
    assert finding.line
    assert variant.is_won(variant.follow(states[k], finding.line))


@pytest.mark.parametrize("slug", sorted(LOST_DEALS))
def test_a_deal_lost_from_the_start_is_said_so_after_two_searches(slug: str) -> None:
    import random

    variant = get_variant(slug)
    seed = LOST_DEALS[slug]
    line = random_tail(slug, variant.deal(seed), random.Random(1))
    finding = locate(variant, line_from(variant, variant.deal(seed), line), solve_position, ENOUGH)
    assert finding.kind == "lost_from_start"
    assert finding.lost == 0 and finding.winnable is None
    assert len(finding.searches) <= 2


def test_a_game_left_while_it_could_still_be_won_is_said_so_with_a_line() -> None:
    slug = "grandfathers-clock"
    variant = get_variant(slug)
    seed, line, k = lost_at(slug)
    states = line_from(variant, variant.deal(seed), line[:k])  # resigned before the loss
    finding = locate(variant, states, solve_position, ENOUGH)
    assert finding.kind == "winnable_at_end" and finding.winnable == k
    assert len(finding.searches) == 1
    assert variant.is_won(variant.follow(states[-1], finding.line))


def test_with_a_tiny_budget_the_answer_is_a_range_that_holds_the_true_losing_move() -> None:
    slug = "gold-mine"
    variant = get_variant(slug)
    seed, line, k = lost_at(slug)
    states = line_from(variant, variant.deal(seed), line)
    tiny = Budgets(Budget(positions=20, seconds=1), seconds=60)
    finding = locate(variant, states, solve_position, tiny)
    assert finding.kind == "range"
    assert any(search["outcome"] == UNKNOWN for search in finding.searches)
    # Honest: every bound is proven, on its side of the true losing move.
    assert finding.winnable is None or finding.winnable <= k
    assert finding.lost is not None and finding.lost >= k + 1
    assert (finding.winnable, finding.lost) != (k, k + 1)
    assert len(finding.searches) <= 2 * expected_searches(len(line))


def test_searches_that_all_run_out_stop_at_twice_a_binary_searchs_count() -> None:
    slug = "selective-castle"
    variant = get_variant(slug)
    seed, line, _k = lost_at(slug)
    states = line_from(variant, variant.deal(seed), line)

    def undecided(slug: str, state: object, budget: Budget) -> tuple[str, list | None]:
        return UNKNOWN, None

    finding = locate(variant, states, undecided, ENOUGH)
    assert finding.kind == "range" and finding.winnable is None
    assert len(finding.searches) == 2 * expected_searches(len(line))


def test_an_undecided_position_is_not_searched_again_and_its_neighbours_are() -> None:
    slug = "grandfathers-clock"
    variant = get_variant(slug)
    seed, line, _k = lost_at(slug)
    states = line_from(variant, variant.deal(seed), line)
    undecided = set(range(1, len(states) - 1))  # all but the deal and the dead end

    def searcher(slug: str, state: object, budget: Budget) -> tuple[str, list | None]:
        index = states.index(state)
        if index in undecided:
            return UNKNOWN, None
        return solve_position(slug, state, budget)  # type: ignore[arg-type]

    finding = locate(variant, states, searcher, ENOUGH)
    positions = [search["position"] for search in finding.searches]
    assert len(positions) == len(set(positions))
    assert sorted(positions) == list(range(len(states) - 1))  # each once, the end needs none
    assert finding.kind == "range"
    assert (finding.winnable, finding.lost) == (0, len(states) - 1)


def test_the_analysis_budget_stops_the_searches() -> None:
    slug = "grandfathers-clock"
    variant = get_variant(slug)
    seed, line, _k = lost_at(slug)
    states = line_from(variant, variant.deal(seed), line)
    finding = locate(variant, states, solve_position, Budgets(BIG, seconds=0))
    # Only the end is looked at (the engine's dead end needs no search).
    assert len(finding.searches) <= 1
    assert finding.kind == "range"
    assert finding.lost == len(line) or finding.searches[0]["outcome"] != LOST
