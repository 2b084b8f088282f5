"""A proven-winnable deal's difficulty (games.solver.difficulty): four words from the solver's
effort alone, against per-game quartiles of the stored run."""

from __future__ import annotations

import pytest

from games.rules import VARIANTS, get_variant
from games.solver import LOST, UNKNOWN, WON, Answer
from games.solver.difficulty import LABELS, rate, thresholds


@pytest.mark.parametrize("slug", sorted(VARIANTS))
def test_each_game_has_rising_bounds(slug):
    easy, medium, hard = thresholds(get_variant(slug))
    assert 0 < easy < medium < hard


@pytest.mark.parametrize("slug", sorted(VARIANTS))
def test_more_search_is_never_easier(slug):
    bounds = thresholds(get_variant(slug))
    labels = [rate(slug, Answer(WON, [], positions)) for positions in (1, *bounds, bounds[-1] + 1)]
    assert labels == ["easy", "easy", "medium", "hard", "expert"]
    assert labels == sorted(labels, key=LABELS.index)
    by_variant = [rate(get_variant(slug), Answer(WON, [], p)) for p in (1, *bounds, bounds[-1] + 1)]
    assert by_variant == labels, "the game as a variant or as its slug: the same label"


@pytest.mark.parametrize("outcome", [LOST, UNKNOWN])
def test_only_a_deal_proven_winnable_has_a_difficulty(outcome):
    with pytest.raises(ValueError):
        rate("gold-mine", Answer(outcome, None, 10))
