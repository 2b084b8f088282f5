"""bench/solver_bench.py: per-deal answers written and read back, and its figures."""

from __future__ import annotations

import json

from bench.solver_bench import main, preparation_seconds
from games.solver.winnability import store


def test_a_run_writes_each_answer_and_reads_them_back(tmp_path):
    printed: list[str] = []
    assert main(["grandfathers-clock", "--deals", "3", "--out", str(tmp_path)], printed.append) == 0
    rows = [
        json.loads(line)
        for line in (tmp_path / "grandfathers-clock.jsonl").read_text().splitlines()
    ]
    assert [row["seed"] for row in rows] == [0, 1, 2]
    assert all(row["outcome"] == "won" and row["length"] > 0 for row in rows)
    assert printed[-1].split()[:5] == ["grandfathers-clock", "3", "3", "0", "0"]
    again: list[str] = []
    assert main(["--read", str(tmp_path)], again.append) == 0
    assert again[-1].split()[:5] == printed[-1].split()[:5]
    store(tmp_path / "grandfathers-clock.jsonl", above=0)  # kept compressed, as large runs are
    packed: list[str] = []
    assert main(["--read", str(tmp_path)], packed.append) == 0
    assert packed[-1] == again[-1]


def test_a_days_preparation_runs_from_each_deal_to_the_first_won_one():
    rows = [
        {"outcome": "unknown", "seconds": 10.0},
        {"outcome": "won", "seconds": 1.0},
        {"outcome": "lost", "seconds": 2.0},
        {"outcome": "won", "seconds": 0.5},
        {"outcome": "unknown", "seconds": 10.0},
    ]
    assert preparation_seconds(rows) == [11.0, 1.0, 2.5, 0.5]
