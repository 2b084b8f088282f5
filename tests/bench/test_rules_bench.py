"""The rules benchmark runs (its figures are read by people, never asserted here)."""

from bench.rules_bench import bench, long_history
from games.rules import get_variant


def test_the_rules_benchmark_produces_every_figure():
    figures = bench(get_variant("gold-mine"), quick=True)
    assert set(figures) == {"positions", "deals/s", "legal_moves/s", "apply/s", "replay 300 ms"}
    assert all(value > 0 for value in figures.values())


def test_the_replayed_history_is_three_hundred_legal_moves():
    variant = get_variant("grandfathers-clock")
    seed, history = long_history(variant, 300)
    assert len(history) == 300
    assert variant.replay(seed, history).move_number == 300
