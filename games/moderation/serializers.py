"""Shapes of the staff API's answers (built by ``games.moderation.review``), for the OpenAPI
schema."""

from __future__ import annotations

from rest_framework import serializers

from games.serializers import GameSummarySerializer, HistoryEntrySerializer


class FullPileSerializer(serializers.Serializer):
    cards = serializers.ListField(
        child=serializers.CharField(), help_text="Bottom to top, every card (face-down too)."
    )
    face_down = serializers.IntegerField()


class FullStateSerializer(serializers.Serializer):
    variant = serializers.CharField()
    seed = serializers.IntegerField()
    move_number = serializers.IntegerField()
    base_rank = serializers.CharField(allow_null=True)
    piles = serializers.DictField(child=FullPileSerializer())


class StaffGameSerializer(GameSummarySerializer):
    owner = serializers.CharField()
    excluded = serializers.BooleanField()
    flagged = serializers.BooleanField(help_text="The game has an open flag.")
    cards_home = serializers.IntegerField()
    board_moves = serializers.IntegerField()


class TimedEntrySerializer(HistoryEntrySerializer):
    gap_ms = serializers.FloatField(help_text="Since the entry before (the first: the start).")


class StepErrorSerializer(serializers.Serializer):
    step = serializers.IntegerField()
    message = serializers.CharField()


class VerificationSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    step = serializers.IntegerField(allow_null=True, help_text="The first step that is wrong.")
    problem = serializers.CharField(allow_null=True)


class FlagSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    reason = serializers.CharField()
    detail = serializers.CharField()
    automatic = serializers.BooleanField()
    created_by = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    cleared_at = serializers.DateTimeField(allow_null=True)
    cleared_by = serializers.CharField(allow_null=True)
    cleared_reason = serializers.CharField()


class StaffReviewSerializer(serializers.Serializer):
    game = StaffGameSerializer()
    step = serializers.IntegerField()
    move_number = serializers.IntegerField()
    entry = TimedEntrySerializer(allow_null=True, help_text="History entry `step` (0: none).")
    before = FullStateSerializer(allow_null=True)
    after = FullStateSerializer(allow_null=True, help_text="Null where the history breaks.")
    error = StepErrorSerializer(allow_null=True)
    verification = VerificationSerializer()
    flags = FlagSerializer(many=True)
    timeline = TimedEntrySerializer(many=True)
