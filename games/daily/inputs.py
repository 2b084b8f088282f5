"""How the daily challenges API reads its query (what every feature reads alike:
``games.inputs``)."""

from __future__ import annotations

import re
from typing import Any

from rest_framework import serializers

from games.inputs import QueryDay

DAY_MESSAGE = "A day is a date of the calendar, written YYYY-MM-DD."


class DailyQuery(serializers.Serializer):
    date = QueryDay(
        required=False,
        help_text="A UTC day; today by default.",
        error_messages={"invalid": DAY_MESSAGE},
    )


MONTH_MESSAGE = "A month is written YYYY-MM, from 0001-01 to 9999-12."


class QueryMonth(serializers.CharField):
    """A month in a query string, exactly YYYY-MM: its (year, month)."""

    def to_internal_value(self, value: Any) -> tuple[int, int]:
        text = super().to_internal_value(value)
        if not re.fullmatch(r"[0-9]{4}-[0-9]{2}", text):
            self.fail("invalid")
        year, month = int(text[:4]), int(text[5:])
        if year < 1 or not 1 <= month <= 12:
            self.fail("invalid")
        return year, month


class MonthQuery(serializers.Serializer):
    month = QueryMonth(
        required=False,
        help_text="A month of UTC days, YYYY-MM; this month by default.",
        error_messages={"invalid": MONTH_MESSAGE},
    )
