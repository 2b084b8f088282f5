"""Input validation for the games API (output is built by ``games.selectors``)."""

from __future__ import annotations

from rest_framework import serializers

from games.models import VARIANT_CHOICES, Game
from games.rules import MAX_SEED


class NewGameInput(serializers.Serializer):
    variant = serializers.ChoiceField(choices=VARIANT_CHOICES)
    seed = serializers.IntegerField(
        min_value=0, max_value=MAX_SEED, required=False, allow_null=True
    )


class MoveInput(serializers.Serializer):
    move = serializers.JSONField(
        help_text='{"type": "move", "from": ..., "to": ..., "count": n} or {"type": "deal"}'
    )
    expected_move_number = serializers.IntegerField(min_value=0, required=False, allow_null=True)


class ActionInput(serializers.Serializer):
    expected_move_number = serializers.IntegerField(min_value=0, required=False, allow_null=True)


class GameFilter(serializers.Serializer):
    status = serializers.ChoiceField(choices=Game.Status.choices, required=False)
    variant = serializers.ChoiceField(choices=VARIANT_CHOICES, required=False)


class ReplayQuery(serializers.Serializer):
    step = serializers.IntegerField(min_value=0, required=False)
