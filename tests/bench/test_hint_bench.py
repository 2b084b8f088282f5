"""bench/hint_bench.py: positions from play, and the solver's share of their hints."""

from __future__ import annotations

import random

from bench.hint_bench import bench, positions_from_play
from games.rules import get_variant


def test_positions_come_from_games_still_being_played_with_their_history():
    variant = get_variant("gold-mine")
    found = positions_from_play(variant, 5, random.Random(1))
    assert len(found) == 5
    for state, seen in found:
        assert variant.status(state) == "playing"
        assert state._replace(move_number=0) not in seen


def test_the_bench_counts_the_solvers_hints():
    line, share = bench("grandfathers-clock", 3, 1.0, 27)
    assert line.split()[:4] == ["grandfathers-clock", "3", "3", "100%"]
    assert share == 1.0
