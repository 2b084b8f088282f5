"""The accounts API's answers other than an account (``UserSerializer``), as its views build
them (TypedDicts: the OpenAPI schema reads them, ``web.http.schema``)."""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict


class CsrfToken(TypedDict):
    csrf_token: Annotated[str, "Send as the X-CSRFToken header on unsafe session requests."]


class SessionsEnded(TypedDict):
    ended: int


class Detail(TypedDict):
    detail: str


class Token(TypedDict):
    token: Annotated[str, "Send as `Authorization: Token <key>`."]


class PlayerSettings(TypedDict):
    """An account's settings (``accounts.preferences``)."""

    speed: Annotated[Literal["off", "fast", "normal", "slow"], "Card animation."]
    autoplay: Annotated[
        Literal["off", "safe", "all"], "Automatic play to the foundations: safe cards only, or all."
    ]
    sound: bool
    card_back: Literal["blue", "red", "green", "black"]
    table: Annotated[Literal["green", "blue", "red", "grey"], "The felt's colour."]
    left_handed: Annotated[bool, "On a phone: the buttons and the stock on the left."]
    winnable_only: Annotated[bool, "New random deals are ones the solver has proven winnable."]
    saved: Annotated[bool, "Whether the account has saved any; false: these are the defaults."]
    saved_at: Annotated[str | None, "When they were last saved (ISO 8601); null when never."]
