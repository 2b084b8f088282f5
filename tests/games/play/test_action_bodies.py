"""A move's or an action's body read without its serializer agrees with the serializer."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.play.serializers import ActionInput, MoveInput, valid_without_serializer

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)
numbers = st.none() | st.booleans() | st.integers(-3, 10**20) | st.floats() | st.text(max_size=4)
members = st.sampled_from(["move", "expected_move_number", "moves", "", "expected"])
bodies = (
    st.dictionaries(members, json_values, max_size=3)
    | st.fixed_dictionaries({"move": json_values, "expected_move_number": numbers})
    | st.fixed_dictionaries({"expected_move_number": numbers})
    | json_values
)


def serializer_reading(serializer_class: type, data: Any) -> dict[str, Any] | None:
    serializer = serializer_class(data=data)
    try:
        valid = serializer.is_valid()
    except Exception:  # KnownFieldsOnly raises its unknown_field refusal
        return None
    return dict(serializer.validated_data) if valid else None


@pytest.mark.parametrize("serializer_class", [MoveInput, ActionInput])
@settings(max_examples=500)
@given(data=bodies)
def test_a_body_read_plainly_is_what_the_serializer_reads(serializer_class, data):
    plain = valid_without_serializer(serializer_class, data)
    if plain is not None:
        assert plain == serializer_reading(serializer_class, data)


@pytest.mark.parametrize(
    "serializer_class, data",
    [
        (MoveInput, {"move": {"type": "deal"}}),
        (MoveInput, {"move": {"type": "deal"}, "expected_move_number": 7}),
        (MoveInput, {"move": 0, "expected_move_number": None}),
        (ActionInput, {}),
        (ActionInput, {"expected_move_number": 0}),
    ],
)
def test_bodies_as_clients_send_them_are_read_plainly(serializer_class, data):
    assert valid_without_serializer(serializer_class, data) == data


@pytest.mark.parametrize(
    "serializer_class, data",
    [
        (MoveInput, {}),
        (MoveInput, {"move": None}),
        (MoveInput, {"move": {"type": "move", "count": float("inf")}}),
        (MoveInput, {"move": {}, "expected_move_number": -1}),
        (MoveInput, {"move": {}, "expected_move_number": True}),
        (MoveInput, {"move": {}, "expected_move_number": "3"}),
        (MoveInput, {"move": {}, "expected_move_number": 3.0}),
        (MoveInput, {"move": {}, "extra": 1}),
        (ActionInput, {"move": {}}),
        (ActionInput, [1]),
    ],
)
def test_anything_else_is_left_to_the_serializer(serializer_class, data):
    assert valid_without_serializer(serializer_class, data) is None
