"""How the daily challenges API reads its query (what every feature reads alike:
``games.inputs``)."""

from __future__ import annotations

import re
from typing import Any

from drf_spectacular.utils import extend_schema_field
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
# The schema's pattern is the field's whole rule, so that a client (and the API fuzz test) can
# tell a good month from a bad one without asking: year 0001 to 9999, month 01 to 12.
YEAR_PATTERN = r"([0-9]{3}[1-9]|[0-9]{2}[1-9][0-9]|[0-9][1-9][0-9]{2}|[1-9][0-9]{3})"
MONTH_PATTERN = rf"^{YEAR_PATTERN}-(0[1-9]|1[0-2])$"


@extend_schema_field({"type": "string", "pattern": MONTH_PATTERN, "example": "2026-12"})
class QueryMonth(serializers.CharField):
    """A month in a query string, exactly YYYY-MM: its (year, month)."""

    def to_internal_value(self, value: Any) -> tuple[int, int]:
        text = super().to_internal_value(value)
        if not re.fullmatch(MONTH_PATTERN, text):
            self.fail("invalid")
        return int(text[:4]), int(text[5:])


class MonthQuery(serializers.Serializer):
    month = QueryMonth(
        required=False,
        help_text="A month of UTC days, YYYY-MM; this month by default.",
        error_messages={"invalid": MONTH_MESSAGE},
    )
