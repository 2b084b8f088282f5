"""How the games API's features read a request, in the API's words: what they share (a whole
number, a day and a game's slug in a query, the replay step and page queries, the JSON body,
a known game) and ``valid``, which runs a feature's own serializer. Each feature's own request
readers are its ``inputs`` (``games.play.inputs``, ``games.daily.inputs``); its answers, its
``responses``."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from rest_framework import serializers
from rest_framework.request import Request

from games.models import VARIANT_CHOICES
from games.rules import VARIANTS
from web.http.errors import ApiError

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


#: As known_variant says it, with the unknown slug's repr.
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


def valid(serializer_class: type, data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def body(request: Request) -> dict[str, Any]:
    """The JSON body as an object (an empty body counts as ``{}``)."""
    data = request.data
    if not isinstance(data, dict):
        raise ApiError("malformed_json", "The request body must be a JSON object.")
    return data


def known_variant(slug: str) -> str:
    if slug not in VARIANTS:
        raise ApiError("unknown_variant", UNKNOWN_VARIANT_MESSAGE.format(input=slug), 404)
    return slug
