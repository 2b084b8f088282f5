"""How winnable each game is: the Wilson interval, a run's results file, its summary, and
manage.py winnability on the quickest game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.solver import Budget
from games.solver import winnability as w


@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    [
        # Known values of the Wilson score interval at 95 %.
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (5, 10, 0.2366, 0.7634),
        (3, 3, 0.4385, 1.0),
        (81, 263, 0.2553, 0.3662),
        (500, 1000, 0.4691, 0.5309),
    ],
)
def test_wilson_interval_known_values(successes: int, n: int, low: float, high: float) -> None:
    got = w.wilson(successes, n)
    assert got == (pytest.approx(low, abs=1e-4), pytest.approx(high, abs=1e-4))
    assert w.wilson_low(successes, n) == got[0] and w.wilson_high(successes, n) == got[1]


def test_the_winnable_interval_counts_unknown_deals_as_lost_then_as_won() -> None:
    # 6 won, 2 unknown, 2 lost of 10: from wilson_low(6, 10) to wilson_high(8, 10).
    assert w.winnable_interval(6, 2, 10) == (w.wilson(6, 10)[0], w.wilson(8, 10)[1])
    assert w.wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        w.wilson(11, 10)


def test_summarize_counts_outcomes() -> None:
    results = [
        w.DealResult(0, "won", 10, 0.1, 40),
        w.DealResult(1, "lost", 99, 0.2, None),
        w.DealResult(2, "unknown", 500, 1.0, None),
        w.DealResult(3, "won", 12, 0.1, 41),
    ]
    figures = w.summarize(results, Budget(positions=1000, seconds=1.0))
    assert figures["deals"] == 4 and figures["won"] == 2
    assert figures["lost"] == 1 and figures["unknown"] == 1
    assert figures["seconds_budget"] == 1.0 and figures["positions_budget"] == 1000
    assert figures["point"] == 0.5
    low, high = w.winnable_interval(2, 1, 4)
    assert figures["interval"] == [round(low, 4), round(high, 4)]


def test_a_run_resumes_from_its_results_file(tmp_path: Path) -> None:
    path = tmp_path / "clock.jsonl"
    budget = Budget(positions=100_000, seconds=2.0)
    first = w.run("grandfathers-clock", range(0, 2), budget, path)
    path.write_text(path.read_text() + '{"seed": 9, "outcome"')  # a torn last line
    solved = []
    both = w.run("grandfathers-clock", range(0, 3), budget, path, progress=solved.append)
    assert [r.seed for r in solved] == [2]  # seeds 0 and 1 are read back, not solved again
    assert both[:2] == first and [r.seed for r in both] == [0, 1, 2]
    assert all(r.outcome == "won" and r.length for r in both)
    assert [r.seed for r in w.read_results(path)] == [0, 1, 2]  # seed 2 past the torn line


def test_a_large_results_file_is_kept_compressed_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "clock.jsonl"
    budget = Budget(positions=100_000, seconds=2.0)
    first = w.run("grandfathers-clock", [2, 0, 1], budget, path)
    assert w.store(path) == path and path.exists()  # small: left as it is
    assert w.store(path, above=10) == w.compressed(path)
    assert not path.exists() and w.compressed(path).name == "clock.jsonl.gz"
    assert w.read_results(path) == sorted(first, key=lambda r: r.seed)  # kept in seed order

    solved = []
    more = w.run("grandfathers-clock", range(0, 4), budget, path, progress=solved.append)
    assert [r.seed for r in solved] == [3]  # resumed from the compressed file
    assert path.exists() and w.store(path) == w.compressed(path)  # once compressed, stays so
    assert not path.exists() and w.read_results(path) == more
    packed = w.compressed(path).read_bytes()
    w.store(path, above=10)
    assert w.compressed(path).read_bytes() == packed  # the same results, the same bytes


def test_deals_left_unknown_are_searched_again_on_a_larger_budget(tmp_path: Path) -> None:
    path = tmp_path / "clock.jsonl"
    small, large = Budget(positions=20, seconds=600.0), Budget(positions=100_000, seconds=600.0)
    first = w.run("grandfathers-clock", range(0, 2), small, path)
    assert [r.outcome for r in first] == ["unknown", "unknown"]  # 20 positions win no deal

    assert w.run("grandfathers-clock", range(0, 2), large, path) == first  # resumed, not retried
    solved = []
    again = w.run(
        "grandfathers-clock", range(0, 2), large, path, retry_unknown=True, progress=solved.append
    )
    assert [r.seed for r in solved] == [0, 1] and all(r.outcome == "won" for r in again)
    assert w.read_results(path)[-2:] == again  # appended after the unknown lines ...
    assert w.run("grandfathers-clock", range(0, 2), large, path, retry_unknown=True) == again
    assert w.store(path, above=10) == w.compressed(path)
    assert w.read_results(path) == again  # ... and the later line for a seed stands

    figures = w.summarize(again, small, large)
    assert figures["retry_positions_budget"] == 100_000
    assert figures["budget"] == "20 positions, unknown deals again at 100,000"
    assert w.figures_budget_words(figures) == figures["budget"]


def test_deals_left_unknown_that_are_dead_ends_are_solved_again_and_nothing_else(
    tmp_path: Path,
) -> None:
    """Blondes and Brunettes' deal 8 is a reserve dead end (games/solver/deadends.py): a run
    made before the rule was known left it unknown; the recheck proves it lost, with no search,
    and leaves deal 0 (unknown, no dead end) and deal 3 (won) as they were."""
    path = tmp_path / "bb.jsonl"
    rows = [
        w.DealResult(0, "unknown", 200_000, 0.9, None),
        w.DealResult(3, "won", 882, 0.006, 166),
        w.DealResult(8, "unknown", 200_000, 0.5, None),
    ]
    path.write_text("".join(json.dumps(row.to_json()) + "\n" for row in rows))
    budget = Budget(positions=200_000, seconds=600.0)
    solved: list[w.DealResult] = []
    again = w.run(
        "blondes-and-brunettes",
        [0, 3, 8],
        budget,
        path,
        recheck_dead_ends=True,
        progress=solved.append,
    )
    assert [r.seed for r in solved] == [8]
    assert again[:2] == rows[:2]
    assert (again[2].outcome, again[2].positions) == ("lost", 0)
    assert again[2].proof == "static: the reserve cannot be laid home in order"
    assert w.read_results(path)[-1] == again[2]
    assert w.summarize(again, budget)["lost"] == 1


@pytest.mark.django_db
def test_the_command_solves_a_few_deals_and_writes_the_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, summary = tmp_path / "clock.jsonl", tmp_path / "summary.json"
    summary.write_text(json.dumps({"gold-mine": {"deals": 1}}))
    common = ["--seconds", "2", "--out", str(out), "--summary", str(summary)]
    call_command("winnability", "grandfathers-clock", "--deals", "3", "--seed-from", "5", *common)

    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["seed"] for line in lines] == [5, 6, 7]
    assert set(lines[0]) == {"seed", "outcome", "positions", "seconds", "length"}
    figures = json.loads(summary.read_text())
    assert figures["gold-mine"] == {"deals": 1}  # other games' figures are kept
    clock = figures["grandfathers-clock"]
    assert clock["deals"] == 3 and clock["won"] + clock["lost"] + clock["unknown"] == 3
    assert clock["interval"] == [
        round(x, 4) for x in w.winnable_interval(clock["won"], clock["unknown"], 3)
    ]
    said = capsys.readouterr().out
    assert "3 deals" in said and "Wilson 95 %" in said


def test_the_readme_shows_the_summary() -> None:
    """The README's table is the repository's summary.json, as manage.py winnability writes it."""
    summary = w.read_summary()
    assert summary, "games/solver/winnability/summary.json is missing"
    readme = w.README_FILE.read_text(encoding="utf-8")
    shown = readme.split(w.README_START, 1)[1].split(w.README_END, 1)[0]
    assert shown.strip() == w.readme_table(summary).strip()
    for slug, figures in summary.items():
        lines = w.read_results(w.results_path(slug))
        assert len(lines) >= figures["deals"], f"{slug}: the summary's deals have their lines"


def test_update_readme_rewrites_only_the_table(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(f"# Title\n\n{w.README_START}\nstale\n{w.README_END}\n\nAfter.\n")
    figures = {"deals": 20, "won": 20, "lost": 0, "unknown": 0, "seconds_budget": 1.0}
    figures |= {"positions_budget": 2_000_000, "interval": [0.8389, 1.0]}
    by_positions = {**figures, "seconds_budget": 600.0, "positions_budget": 60_000}
    large = {**by_positions, "deals": 10_000, "won": 9_935, "lost": 65, "unknown": 0}
    large |= {"positions_budget": 1_000_000, "interval": [0.9917, 0.9949]}
    summary = {"grandfathers-clock": figures, "gold-mine": by_positions, "selective-castle": large}
    assert w.update_readme(summary, readme)
    text = readme.read_text()
    row = "| Selective Castle | 10,000 | 1,000,000 positions | 9,935 | 65 | 0 | 99.2 % to 99.5 % |"
    assert row in text  # thousands written as they are read
    assert "| Grandfather's Clock | 20 | 1 s | 20 | 0 | 0 | 83.9 % to 100 % |" in text
    assert "| Gold Mine | 20 | 60,000 positions | 20 | 0 | 0 | 83.9 % to 100 % |" in text
    assert "stale" not in text and text.startswith("# Title") and text.endswith("After.\n")
    assert "Preliminary figures" in text
    bare = tmp_path / "bare.md"
    bare.write_text("No markers.\n")
    assert not w.update_readme({}, bare) and bare.read_text() == "No markers.\n"


@pytest.mark.django_db
def test_the_command_searches_the_unknown_deals_again_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, summary = tmp_path / "clock.jsonl", tmp_path / "summary.json"
    common = ["--seconds", "600", "--out", str(out), "--summary", str(summary), "--deals", "2"]
    with pytest.raises(CommandError, match="larger than --positions"):
        call_command("winnability", "grandfathers-clock", "--positions", "20",
                     "--retry-unknown", "20", *common)  # fmt: skip
    call_command(
        "winnability", "grandfathers-clock", "--positions", "20", "--retry-unknown", "100000",
        *common,
    )  # fmt: skip
    clock = json.loads(summary.read_text())["grandfathers-clock"]
    assert (clock["won"], clock["unknown"], clock["retry_positions_budget"]) == (2, 0, 100_000)
    assert "20 positions, unknown deals again at 100,000 each" in capsys.readouterr().out
