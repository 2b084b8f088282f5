"""bench/reach_census.py: a deal's first positions, grouped by what the tableau cannot undo."""

from __future__ import annotations

from bench.reach_census import census


def test_positions_are_counted_once_and_grouped_coarser_and_coarser():
    figures = census("blondes-and-brunettes", 0, 3_000)
    assert figures["met"] >= 3_000 and not figures["exhausted"]
    assert figures["levels_without_waste"] < figures["levels"] <= figures["expanded"] < 3_000


def test_a_game_without_a_waste_groups_the_same_with_and_without_it():
    figures = census("selective-castle", 0, 2_000)
    assert figures["levels"] == figures["levels_without_waste"]


def test_the_census_can_start_in_the_middle_of_a_game():
    assert census("blondes-and-brunettes", 0, 500)["home_at_start"] == 1  # the base card
    assert census("blondes-and-brunettes", 0, 500, moves=40)["home_at_start"] > 1
