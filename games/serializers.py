"""What the games API's features share to read requests: query fields (a whole number, a
day, a game's slug), the replay step and page queries; and GET /api/variants/'s answer.
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


# -- GET /api/variants/'s answer (games.catalogue), for the OpenAPI schema -----------------
# (Every other answer is declared once, as a TypedDict: each feature's ``responses``.)


class OpeningSerializer(serializers.Serializer):
    cards = serializers.IntegerField(help_text="Cards the opening deal puts on the pile.")
    face_down = serializers.IntegerField(help_text="How many of them lie face down.")


class VariantPileSerializer(serializers.Serializer):
    id = serializers.CharField()
    kind = serializers.CharField()
    title = serializers.CharField(help_text='As a label names it: "Tableau pile 4", "Stock".')
    name = serializers.CharField(
        help_text='As a sentence names it: "tableau pile 4", "the 12 o\'clock foundation".'
    )
    label = serializers.CharField(
        allow_null=True, help_text="What the table writes beside the pile (a clock's hour)."
    )
    complete_rank = serializers.CharField(
        allow_null=True,
        help_text="A foundation complete when this rank is on top; null: at 13 cards.",
    )
    opening = OpeningSerializer()


class TableSlotSerializer(serializers.Serializer):
    pile = serializers.CharField(required=False, help_text="A pile's id; absent for a spacer.")
    span = serializers.FloatField(required=False, help_text="Width in card widths.")
    show = serializers.IntegerField(required=False, help_text="Top cards a waste fans.")
    gap = serializers.FloatField(required=False, help_text="A spacer's width in card widths.")


class TableSizeSerializer(serializers.Serializer):
    units = serializers.FloatField(required=False, help_text="Width in card widths.")
    tall = serializers.FloatField(help_text="Height to keep in view, in card widths.")


class TableRowSerializer(serializers.Serializer):
    clock = serializers.BooleanField(help_text="Foundations round a dial, 12 o'clock first.")
    tableau = serializers.BooleanField(help_text="Its piles fan down.")
    justify = serializers.CharField(allow_null=True)
    slots = TableSlotSerializer(many=True)
    beside = TableSizeSerializer(
        allow_null=True, help_text="A clock's table beside the tableau, on a wide board."
    )
    frame = TableSizeSerializer(
        allow_null=True, help_text="A clock's table as a compact frame, on a narrow board."
    )


class TableSerializer(serializers.Serializer):
    units = serializers.FloatField(help_text="The table's width in card widths.")
    tall = serializers.FloatField(help_text="The height to keep in view, in card widths.")
    rows = TableRowSerializer(many=True)


class VariantSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField()
    decks = serializers.IntegerField()
    piles = VariantPileSerializer(many=True)
    table = TableSerializer()
    foundation_start = serializers.CharField(
        allow_null=True, help_text='How an empty foundation starts: "ace", "base_rank" or null.'
    )
    foundation_start_rank = serializers.CharField(
        allow_null=True, help_text="The rank every empty foundation takes, when fixed."
    )
    chooses_base_rank_on_first_foundation_move = serializers.BooleanField()


class PageQuery(serializers.Serializer):
    # A bound keeps the rows skipped within what the database can count.
    page = QueryWholeNumber(
        min_value=1,
        max_value=MAX_PAGE,
        required=False,
        default=1,
        error_messages=whole_number(f"A page number is a whole number from 1 to {MAX_PAGE}."),
    )
