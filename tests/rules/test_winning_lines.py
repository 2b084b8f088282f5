"""Every game can be won through the engine: a real deal and a line of moves that wins it.

The lines live in ``winning_lines.json`` (``{"<slug>": {"seed": N, "moves": [move JSON]}}``),
found by an earlier offline search (the solver, ``games.solver``, finds such lines today); a
browser test plays one of them too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.rules import VARIANTS, get_variant

LINES_FILE = Path(__file__).with_name("winning_lines.json")
SLUGS = [
    "grounds-for-divorce",
    "gold-mine",
    "selective-castle",
    "grandfathers-clock",
    "blondes-and-brunettes",
]


@pytest.fixture(scope="module")
def lines():
    return json.loads(LINES_FILE.read_text())


def test_the_lines_cover_every_game(lines):
    assert set(SLUGS) == set(VARIANTS)
    assert set(lines) <= set(VARIANTS)


@pytest.mark.parametrize("slug", SLUGS)
def test_the_line_wins_its_deal(lines, slug):
    assert slug in lines, f"winning_lines.json has no line for {slug}"
    variant = get_variant(slug)
    seed = lines[slug]["seed"]
    moves = [variant.move_from_json(data) for data in lines[slug]["moves"]]
    assert isinstance(seed, int) and 0 <= seed < 2**53
    assert moves

    state = variant.deal(seed)
    for step, move in enumerate(moves[:-1], start=1):
        assert move in variant.legal_moves(state), f"move {step} ({move}) is not legal"
        state, events = variant.play(state, move)
        assert variant.status(state) == "playing", f"the game ended at move {step}"
        assert {"type": "game_won"} not in events
    assert moves[-1] in variant.legal_moves(state), f"the last move ({moves[-1]}) is not legal"
    state, events = variant.play(state, moves[-1])
    assert {"type": "game_won"} in events
    assert variant.status(state) == "won"

    replayed = variant.replay(seed, lines[slug]["moves"])
    assert replayed == state
    assert variant.status(replayed) == "won"
