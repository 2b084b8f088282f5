"""How the daily challenges API reads its query (what every feature reads alike:
``games.inputs``)."""

from __future__ import annotations

from rest_framework import serializers

from games.inputs import QueryDay

DAY_MESSAGE = "A day is a date of the calendar, written YYYY-MM-DD."


class DailyQuery(serializers.Serializer):
    date = QueryDay(
        required=False,
        help_text="A UTC day; today by default.",
        error_messages={"invalid": DAY_MESSAGE},
    )
