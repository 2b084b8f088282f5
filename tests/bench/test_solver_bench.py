"""bench/solver_bench.py: per-deal answers written and read back, and its figures."""

from __future__ import annotations

import json

from bench.solver_bench import ladder_seconds, main, preparation_seconds
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


def test_a_days_preparation_on_the_ladder_counts_the_rung_then_the_full_budget():
    """The daily's own ladder (games.solver.ladder): from each deal, its first candidates on
    the rung (each deal's rung answer), then every one on the full budget (the run's rows)."""
    rows = [
        {"seed": 0, "outcome": "unknown", "seconds": 10.0},
        {"seed": 1, "outcome": "won", "seconds": 3.0},
        {"seed": 2, "outcome": "unknown", "seconds": 10.0},
        {"seed": 3, "outcome": "won", "seconds": 2.0},
    ]
    on_rung = {
        0: {"outcome": "unknown", "seconds": 0.25},
        1: {"outcome": "unknown", "seconds": 0.25},  # won past the rung only
        2: {"outcome": "unknown", "seconds": 0.25},
        3: {"outcome": "won", "seconds": 0.5},
    }
    asked: list[int] = []

    def rung_answer(seed: int) -> dict[str, object]:
        asked.append(seed)
        return on_rung[seed]

    times = ladder_seconds("blondes-and-brunettes", rows, rung_answer, 5_000_000)
    assert times == [1.25, 1.0, 0.75, 0.5]
    assert ladder_seconds("blondes-and-brunettes", rows, rung_answer, 5_000_000, rung=0) == (
        preparation_seconds(rows)
    ), "without the rung: every candidate on the full budget, as before the ladder"
    assert ladder_seconds("gold-mine", rows, rung_answer, 5_000_000) == preparation_seconds(rows)
    assert len(asked) == 10, "the rung asked only of a game that has one"


def test_a_run_of_a_game_with_a_first_rung_says_its_preparation_on_the_ladder(tmp_path):
    printed: list[str] = []
    argv = ["blondes-and-brunettes", "--deals", "4", "--positions", "30000", "--out", str(tmp_path)]
    assert main(argv, printed.append) == 0
    assert "first rung 20,000 positions" in printed[-2]
    prep, p95, flat = printed[-1].split()[-3:]
    assert float(prep) <= float(p95) and float(flat) >= 0
    again: list[str] = []
    assert main(["--read", str(tmp_path)], again.append) == 0
    assert again[-1].split()[-3:-1] == ["n/a", "n/a"], "a run's rows hold no rung answers"


def test_the_proofs_of_loss_are_tried_on_a_runs_unknown_deals(tmp_path):
    """--prove-lost: the deals a run left unknown, the static dead ends first (deals 8 and 9
    of Blondes and Brunettes), then the relaxed games on what is left (deal 0's is won)."""
    rows = [
        {"seed": seed, "outcome": "unknown", "positions": 10_000_000, "seconds": 10.0}
        for seed in (0, 8, 9)
    ] + [{"seed": 2, "outcome": "won", "positions": 150_661, "seconds": 0.7}]
    path = tmp_path / "blondes-and-brunettes.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    printed: list[str] = []
    argv = ["blondes-and-brunettes", "--prove-lost", str(tmp_path), "--relax-seconds", "5"]
    assert main(argv, printed.append) == 0
    assert json.loads(printed[-2].split(" ", 3)[-1])["seed"] == 0
    assert json.loads(printed[-2].split(" ", 3)[-1])["ended"] == "won"
    # unknown 3, static 2, tried 1, search won 0 and lost 0, relaxed 0, relaxed won 1, cut 0
    assert printed[-1].split()[1:9] == ["3", "2", "1", "0", "0", "0", "1", "0"]


def test_the_proofs_of_loss_may_first_search_the_deal_again(tmp_path):
    """--search-seconds: deal 5, unknown to the stored run's search, is won by the search as it
    is now (dead ends skipped) before any relaxed game is tried."""
    row = {"seed": 5, "outcome": "unknown", "positions": 10_000_000, "seconds": 10.0}
    (tmp_path / "blondes-and-brunettes.jsonl").write_text(json.dumps(row) + "\n")
    printed: list[str] = []
    argv = ["blondes-and-brunettes", "--prove-lost", str(tmp_path), "--search-seconds", "10"]
    assert main(argv, printed.append) == 0
    assert json.loads(printed[-2].split(" ", 3)[-1])["ended"] == "search won"
    assert printed[-1].split()[1:6] == ["1", "0", "1", "1", "0"]
