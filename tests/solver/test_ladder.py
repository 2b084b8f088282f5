"""A day's deal chosen on a ladder of budgets (games.solver.ladder): a game's first candidates
on its small first rung, then every candidate on the full budget; a game without a rung as
before. The daily (games.daily.challenges) and bench/solver_bench.py climb this same code."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from games.rules import VARIANTS, get_variant
from games.solver import LOST, UNKNOWN, WON, Answer, Budget, line_wins, solve
from games.solver.difficulty import rate
from games.solver.ladder import FIRST_CANDIDATES, climb, first_rung
from games.solver.tactics import passes_for

FULL = 5_000_000
BLONDES = "blondes-and-brunettes"
DIVORCE = "grounds-for-divorce"
WINNABILITY = Path(__file__).resolve().parents[2] / "games" / "solver" / "winnability"


@dataclass(frozen=True)
class Said:
    outcome: str


class StandIn:
    """The solver stands in: ``answers`` says each (seed, rung) answer (None: the full
    budget), unknown unless listed; every question comes back in ``asked``."""

    def __init__(self, answers: dict[tuple[int, int | None], str | None]) -> None:
        self.answers = answers
        self.asked: list[tuple[int, int | None]] = []

    def __call__(self, seed: int, rung: int | None) -> Said | None:
        self.asked.append((seed, rung))
        outcome = self.answers.get((seed, rung), UNKNOWN)
        return None if outcome is None else Said(outcome)


SEEDS = list(range(100, 130))


@pytest.mark.parametrize("slug", ["grandfathers-clock", "selective-castle", "gold-mine"])
def test_a_game_without_a_rung_searches_each_candidate_on_the_full_budget_in_turn(slug):
    assert type(get_variant(slug)).solver.daily_first_positions is None
    solver = StandIn({(103, None): WON})
    climbed = climb(slug, SEEDS, solver, FULL)
    assert solver.asked == [(seed, None) for seed in SEEDS[:4]]
    assert climbed.won == (3, Said(WON)) and climbed.rung is None
    assert [index for index, _ in climbed.tried] == [0, 1, 2]


@pytest.mark.parametrize("slug", [BLONDES, DIVORCE])
def test_the_first_rung_takes_the_first_candidate_won_within_it(slug):
    rung = first_rung(slug, FULL)
    assert rung is not None and rung < FULL
    solver = StandIn({(102, rung): WON, (104, rung): WON, (100, None): WON})
    climbed = climb(slug, SEEDS, solver, FULL)
    assert solver.asked == [(100, rung), (101, rung), (102, rung)], "no full search at all"
    assert climbed.won == (2, Said(WON)) and climbed.rung == rung


def test_when_no_first_candidate_wins_on_the_rung_every_candidate_gets_the_full_budget():
    rung = first_rung(BLONDES, FULL)
    # Candidate 25 would win on the rung, but lies past the rung's first candidates.
    solver = StandIn({(101, None): WON, (SEEDS[25], rung): WON})
    climbed = climb(BLONDES, SEEDS, solver, FULL)
    on_rung = [(seed, rung) for seed in SEEDS[:FIRST_CANDIDATES]]
    assert solver.asked == [*on_rung, (100, None), (101, None)]
    assert climbed.won == (1, Said(WON)) and climbed.rung is None
    assert climbed.tried == [(0, Said(UNKNOWN))]


def test_a_day_none_is_won_on_keeps_every_full_answer_in_order_and_a_rungs_proven_loss():
    rung = first_rung(BLONDES, FULL)
    solver = StandIn({(101, rung): LOST, (102, None): LOST, (103, None): None})
    climbed = climb(BLONDES, SEEDS[:5], solver, FULL)
    assert climbed.won is None
    assert (101, None) not in solver.asked, "a loss proven on the rung holds on any budget"
    assert (103, None) in solver.asked
    outcomes = [(index, answer.outcome) for index, answer in climbed.tried]
    assert outcomes == [(0, UNKNOWN), (1, LOST), (2, LOST), (4, UNKNOWN)], "3 could not be solved"


def test_a_rung_not_below_the_full_budget_is_no_rung():
    rung = first_rung(BLONDES, FULL)
    assert first_rung(BLONDES, rung) is None
    assert first_rung(BLONDES, rung + 1) == rung
    solver = StandIn({(100, None): WON})
    assert climb(BLONDES, SEEDS, solver, 3000).won == (0, Said(WON))
    assert solver.asked == [(100, None)]


def test_another_rung_may_stand_in_for_the_games_and_0_is_none():
    solver = StandIn({(100, 500): WON})
    assert climb("gold-mine", SEEDS, solver, FULL, rung=500).rung == 500
    solver = StandIn({(100, None): WON})
    assert climb(BLONDES, SEEDS, solver, FULL, rung=0).rung is None
    assert solver.asked == [(100, None)]


@pytest.mark.parametrize("slug", sorted(VARIANTS))
def test_a_rung_sits_only_where_a_win_on_it_counts_what_the_difficulty_was_measured_on(slug):
    """One pass: a smaller budget only ends the same search sooner. Several passes split the
    budget in shares, so the positions to a win depend on it: the rung must be the budget of
    the stored run the game's difficulty thresholds are the quartiles of."""
    rung = type(get_variant(slug)).solver.daily_first_positions
    if rung is None or len(passes_for(get_variant(slug))) == 1:
        return
    summary = json.loads((WINNABILITY / "summary.json").read_text())
    assert rung == summary[slug]["positions_budget"]


def real(slug: str, seed: int, positions: int) -> Answer:
    variant = get_variant(slug)
    return solve(variant, variant.deal(seed), Budget(positions, 600.0))


def test_blondes_and_brunettes_first_won_on_the_rung_is_the_full_searchs_win_to_the_position():
    rung = first_rung(BLONDES, FULL)
    assert rung is not None
    climbed = climb(BLONDES, range(30), lambda seed, on: real(BLONDES, seed, on or FULL), FULL)
    assert climbed.won is not None and climbed.rung == rung
    index, answer = climbed.won
    variant = get_variant(BLONDES)
    assert answer.outcome == WON and answer.positions <= rung
    assert line_wins(variant, variant.deal(index), answer.moves or [])
    larger = real(BLONDES, index, 10 * rung)
    assert (larger.outcome, larger.positions, larger.moves) == (WON, answer.positions, answer.moves)
    assert rate(BLONDES, larger) == rate(BLONDES, answer)


def test_grounds_for_divorce_won_on_the_rung_counts_what_a_larger_budget_counts():
    """Its wins come within the narrow pass's share of the rung, so a larger budget's narrow
    pass finds the same win at the same position (deal 18: 11,134 positions in the stored run)."""
    rung = first_rung(DIVORCE, FULL)
    assert rung is not None
    on_rung, larger = real(DIVORCE, 18, rung), real(DIVORCE, 18, 5 * rung)
    assert on_rung.outcome == WON and on_rung.positions <= rung
    assert (larger.outcome, larger.positions, larger.moves) == (
        WON,
        on_rung.positions,
        on_rung.moves,
    )
