"""A proven-winnable deal's difficulty (games.solver.difficulty): four words from the solver's
effort alone, against per-game quartiles of the stored run."""

from __future__ import annotations

import pytest

from games.rules import VARIANTS
from games.solver import LOST, UNKNOWN, WON, Answer
from games.solver.difficulty import LABELS, THRESHOLDS, rate


@pytest.mark.parametrize("slug", sorted(VARIANTS))
def test_each_game_has_rising_bounds(slug):
    easy, medium, hard = THRESHOLDS[slug]
    assert 0 < easy < medium < hard


@pytest.mark.parametrize("slug", sorted(VARIANTS))
def test_more_search_is_never_easier(slug):
    bounds = THRESHOLDS[slug]
    labels = [rate(slug, Answer(WON, [], positions)) for positions in (1, *bounds, bounds[-1] + 1)]
    assert labels == ["easy", "easy", "medium", "hard", "expert"]
    assert labels == sorted(labels, key=LABELS.index)


@pytest.mark.parametrize("outcome", [LOST, UNKNOWN])
def test_only_a_deal_proven_winnable_has_a_difficulty(outcome):
    with pytest.raises(ValueError):
        rate("gold-mine", Answer(outcome, None, 10))
