"""Every game can be won through the engine: a real deal and a line of moves that wins it.

The lines live in ``winning_lines.json`` (``{"<slug>": {"seed": N, "moves": [move JSON]}}``),
found by an earlier offline search (the solver, ``games.solver``, finds such lines today); a
browser test plays one of them too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.rules import VARIANTS, IllegalMove, Move, get_variant

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


@pytest.mark.parametrize("slug", SLUGS)
def test_following_a_line_checks_each_move_as_playing_it_does(lines, slug):
    """``follow`` (how a solver's line is checked) ends where ``apply`` move by move ends; it
    refuses a line with an illegal move, or with a move after the win, with the same code."""
    variant = get_variant(slug)
    line = lines[slug]
    state = variant.deal(line["seed"])
    played = state
    for move in line["moves"]:
        played = variant.apply(played, move)
    assert variant.follow(state, line["moves"]) == played
    assert variant.is_won(played)

    with pytest.raises(IllegalMove) as after_the_win:
        variant.follow(state, [*line["moves"], line["moves"][-1]])
    assert after_the_win.value.code == "game_over"

    midway = len(line["moves"]) // 2
    reached = variant.follow(state, line["moves"][:midway])
    legal = variant.legal_moves(reached)
    illegal = next(
        move
        for source in variant.pile_ids
        for target in variant.pile_ids
        if (move := Move("move", source, target, 1)) not in legal and source != target
    )
    with pytest.raises(IllegalMove) as refused:
        variant.follow(state, [*line["moves"][:midway], illegal])
    with pytest.raises(IllegalMove) as by_apply:
        variant.apply(reached, illegal)
    assert refused.value.code == by_apply.value.code
