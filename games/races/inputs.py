"""How the races API reads a request: opening a room, a quick race, getting ready, the open
rooms' filter (what every feature reads alike: ``games.inputs``)."""

from __future__ import annotations

from rest_framework import serializers

from games.inputs import variant_field, whole_number
from games.play.inputs import StrictBooleanField
from web.http.errors import KnownFieldsOnly

MIN_TIME_LIMIT, MAX_TIME_LIMIT = 60, 3600
TIME_LIMIT_MESSAGE = (
    f"A race's time limit is a whole number of seconds from {MIN_TIME_LIMIT} to {MAX_TIME_LIMIT}."
)
BOOLEAN = {"invalid": "Send true or false."}
NAME_A_FRIEND = "Name a player you follow."


class OpenRaceInput(KnownFieldsOnly):
    variant = variant_field()
    winnable = StrictBooleanField(
        required=False,
        default=False,
        help_text="true: a deal the solver has proven winnable (503 no_winnable_deal when none "
        "is ready).",
        error_messages=BOOLEAN,
    )
    undo = StrictBooleanField(
        required=False,
        default=True,
        help_text="The room's rule: its games take undo (default) or not.",
        error_messages=BOOLEAN,
    )
    listed = StrictBooleanField(
        required=False,
        default=True,
        help_text="On the list of open races (default); false: joined by its link only.",
        error_messages=BOOLEAN,
    )
    time_limit_seconds = serializers.IntegerField(
        min_value=MIN_TIME_LIMIT,
        max_value=MAX_TIME_LIMIT,
        required=False,
        help_text="Default RACE_TIME_LIMIT_SECONDS (600).",
        error_messages=whole_number(TIME_LIMIT_MESSAGE),
    )


class QuickRaceInput(KnownFieldsOnly):
    variant = variant_field()


class ReadyInput(KnownFieldsOnly):
    ready = StrictBooleanField(required=False, default=True, error_messages=BOOLEAN)


class OpenRacesQuery(serializers.Serializer):
    variant = variant_field(required=False)


class InviteInput(KnownFieldsOnly):
    username = serializers.CharField(
        min_length=1,
        max_length=150,
        help_text="A player you follow (your Friends list).",
        error_messages=dict.fromkeys(("blank", "required", "min_length"), NAME_A_FRIEND),
    )
