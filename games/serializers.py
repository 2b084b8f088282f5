"""What the games API's features share to read requests: query fields (a whole number, a
day, a game's slug), the replay step and page queries.
Each feature's own inputs are its ``serializers``; its answers, its ``responses``."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from rest_framework import serializers

from games.models import VARIANT_CHOICES

MAX_PAGE = 1_000_000


def whole_number(message: str) -> dict[str, str]:
    """One message for every way an IntegerField refuses a value (not a whole number, too
    small, too big, a string of digits too long to read), in place of DRF's wording."""
    return dict.fromkeys(("invalid", "min_value", "max_value", "max_string_length"), message)


class QueryWholeNumber(serializers.IntegerField):
    """A whole number in a query string, written as a link writes it: ASCII digits only.
    DRF's IntegerField also reads "1.0", " 3" and other scripts' digits ("٣"), which a
    paginator or a later reader of the raw parameter would not."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, str) and not re.fullmatch(r"[0-9]+", data):
            self.fail("invalid")
        return super().to_internal_value(data)


class QueryDay(serializers.DateField):
    """A day in a query string, exactly YYYY-MM-DD (as in the API's paths); DRF's DateField
    also reads 2024-1-1 and 20240101."""

    def to_internal_value(self, value: Any) -> dt.date:
        if not (isinstance(value, str) and re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value)):
            self.fail("invalid", format="YYYY-MM-DD")
        return super().to_internal_value(value)


#: As games.inputs.known_variant says it, with the unknown slug's repr.
UNKNOWN_VARIANT_MESSAGE = "There is no game called {input!r}."


def variant_field(**kwargs: Any) -> serializers.ChoiceField:
    """A game's slug; an unknown one in the words of the daily and leaderboard paths."""
    return serializers.ChoiceField(
        choices=VARIANT_CHOICES,
        error_messages={"invalid_choice": UNKNOWN_VARIANT_MESSAGE},
        **kwargs,
    )


class ReplayQuery(serializers.Serializer):
    step = QueryWholeNumber(
        min_value=0,
        required=False,
        error_messages=whole_number("Choose a step: a whole number from 0 up."),
    )


class PageQuery(serializers.Serializer):
    # A bound keeps the rows skipped within what the database can count.
    page = QueryWholeNumber(
        min_value=1,
        max_value=MAX_PAGE,
        required=False,
        default=1,
        error_messages=whole_number(f"A page number is a whole number from 1 to {MAX_PAGE}."),
    )
