"""The JSON notation (games/rules/RULINGS.md §Notation): states, moves, and the player's view."""

from __future__ import annotations

import re

import pytest

from games.rules import DEAL, IllegalMove, Move, NotationError, get_variant, move_from_json

from .helpers import move


def test_the_player_view_hides_face_down_cards_and_the_whole_stock():
    variant = get_variant("grounds-for-divorce")
    state = variant.deal(31)
    view = variant.player_view(state)
    assert view["seed"] is None
    assert view["piles"]["stock"] == {"cards": [None] * 54, "face_down": 54}
    tableau = view["piles"]["tableau:0"]
    assert tableau["cards"][:4] == [None] * 4 and tableau["face_down"] == 4
    assert tableau["cards"][4] == variant.state_to_json(state)["piles"]["tableau:0"]["cards"][4]


def test_the_player_view_shows_the_seed_only_when_asked():
    variant = get_variant("gold-mine")
    state = variant.deal(31)
    assert variant.player_view(state, reveal_seed=True)["seed"] == 31
    assert variant.state_to_json(state)["seed"] == 31


def test_a_state_json_has_the_fields_of_rules_md():
    variant = get_variant("blondes-and-brunettes")
    data = variant.state_to_json(variant.deal(5))
    assert set(data) == {"variant", "seed", "move_number", "base_rank", "piles"}
    assert data["variant"] == "blondes-and-brunettes" and data["move_number"] == 0
    assert isinstance(data["base_rank"], str) and len(data["base_rank"]) == 1
    assert list(data["piles"]) == list(variant.pile_ids)


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda d: d.update(variant="gold-mine"), "variant"),
        (lambda d: d["piles"].pop("tableau:3"), "piles"),
        (lambda d: d["piles"]["tableau:0"]["cards"].append("1X"), "not a card"),
        (lambda d: d["piles"]["tableau:0"].update(face_down=9), "face_down"),
        (lambda d: d["piles"]["tableau:0"].update(face_down=5), "face up"),
        (lambda d: d.update(base_rank="Z"), "rank"),
        (lambda d: d.update(seed=-4), "seed"),
        (lambda d: d.update(move_number="3"), "move_number"),
    ],
)
def test_a_malformed_state_is_refused_with_a_reason(change, fragment):
    variant = get_variant("grounds-for-divorce")
    data = variant.state_to_json(variant.deal(1))
    change(data)
    with pytest.raises(NotationError, match=fragment) as refused:
        variant.state_from_json(data)
    assert refused.value.code == "malformed_state"


def test_moves_read_from_json():
    assert move_from_json({"type": "deal"}) == DEAL
    assert move_from_json({"type": "move", "from": "waste", "to": "tableau:2", "count": 1}) == (
        move("waste", "tableau:2")
    )
    assert move_from_json({"type": "move", "from": "tableau:1", "to": "tableau:2"}).count == 1
    assert move("tableau:3", "foundation:1", 2).to_json() == {
        "type": "move",
        "from": "tableau:3",
        "to": "foundation:1",
        "count": 2,
    }
    assert str(move("tableau:3", "tableau:1", 2)) == "tableau:3 -> tableau:1 x2"


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "deal",
        {},
        {"type": "shuffle"},
        {"type": "deal", "count": 3},
        {"type": "move", "from": "tableau:1"},
        {"type": "move", "from": "tableau:1", "to": 4},
        {"type": "move", "from": "tableau:1", "to": "tableau:2", "count": 0},
        {"type": "move", "from": "tableau:1", "to": "tableau:2", "count": True},
        {"type": "move", "from": "tableau:1", "to": "tableau:2", "count": 1.0},
        {"type": "move", "from": "tableau:1", "to": "tableau:2", "count": 10**9},
        {"type": "move", "from": "tableau:1", "to": "tableau:2", "extra": 1},
    ],
)
def test_a_move_of_the_wrong_shape_is_refused(data):
    with pytest.raises(IllegalMove) as refused:
        move_from_json(data)
    assert refused.value.code == "malformed_move"


def test_apply_takes_a_move_in_its_json_notation_as_well():
    variant = get_variant("gold-mine")
    state = variant.deal(1)
    assert variant.apply(state, {"type": "deal"}) == variant.apply(state, DEAL)
    for data in ({"type": "shuffle"}, "deal", None, ["deal"]):
        with pytest.raises(IllegalMove) as refused:
            variant.apply(state, data)
        assert refused.value.code == "malformed_move"


def test_a_pile_the_game_does_not_have_is_named_in_the_refusal():
    variant = get_variant("selective-castle")
    with pytest.raises(IllegalMove, match="'waste'") as refused:
        variant.apply(variant.deal(1), move("waste", "tableau:1"))
    assert refused.value.code == "unknown_pile"


@pytest.mark.parametrize("count", [0, -1, True, "2"])
def test_a_move_object_with_a_bad_count_is_refused(count):
    variant = get_variant("gold-mine")
    with pytest.raises(IllegalMove) as refused:
        variant.apply(variant.deal(1), Move("move", "tableau:1", "tableau:2", count))
    assert refused.value.code == "malformed_move"


def test_refusal_messages_name_only_face_up_cards():
    variant = get_variant("grounds-for-divorce")
    state = variant.deal(12)
    visible = {
        code for pile in variant.player_view(state)["piles"].values() for code in pile["cards"]
    }
    for source in variant.pile_ids:
        for target in variant.pile_ids:
            for count in (1, 2, 5):
                try:
                    variant.apply(state, move(source, target, count))
                except IllegalMove as refused:
                    named = set(re.findall(r"\b[A2-9TJQK][CDHS]\b", refused.message))
                    assert named <= visible, refused.message
