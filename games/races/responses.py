"""The races API's answers (TypedDicts: the OpenAPI schema reads them, ``web.http.schema``)."""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from games.models import VARIANT_CHOICES
from games.races.models import Race as RaceRow
from web.http.schema import OneOf, Time

Standing = Literal["waiting", "playing", "won", "stuck", "resigned", "out_of_time"]


class RaceEntrant(TypedDict):
    """A player's progress in the race: never their cards or their moves."""

    username: str
    guest: bool
    ready: Annotated[bool, "Ready to start (the race starts when every player is)."]
    standing: Annotated[
        Standing,
        "waiting (not started), playing, won, stuck (a dead end: no legal move left), "
        "resigned, out_of_time (still in play at the time limit).",
    ]
    cards_home: int
    moves: Annotated[int, "Moves on the board (undone ones not counted)."]
    time_seconds: Annotated[
        float,
        "From the countdown's end: to the win, else to the last move (a player still in play "
        "while the race runs: until now).",
    ]
    place: Annotated[int | None, "1 for the best, ties sharing a place; null until the end."]
    game: Annotated[int | None, "The player's game, once the race is over (else null)."]
    replay: Annotated[
        str | None, "The player's replay (GET, ?step=), once the race is over; else null."
    ]


class RaceInvited(TypedDict):
    """A player you invited to the race."""

    username: str
    declined: Annotated[bool, 'They said "Not now": they are not asked again for this race.']


class RaceYou(TypedDict):
    """What of the race is the asker's own."""

    joined: bool
    opener: bool
    game: Annotated[
        int | None, "Your game in the race, from the countdown's end (play it at /api/games/…)."
    ]
    invited: Annotated[
        list[RaceInvited],
        "While the race waits, the players you invited to it (else empty), the first first.",
    ]


class RacePublic(TypedDict):
    code: Annotated[str, "The room's code: its link is /races/<code>/."]
    link: str
    variant: Annotated[str, OneOf(VARIANT_CHOICES)]
    winnable: bool
    undo: Annotated[bool, "The room's rule: its games take undo."]
    listed: Annotated[bool, "On the list of open races (else joined by its link only)."]
    phase: Annotated[str, OneOf(RaceRow.State.choices)]
    opener: str | None
    max_players: int
    time_limit_seconds: int
    created_at: Time
    starts_at: Annotated[Time | None, "The countdown's end: moves are taken from then."]
    ends_at: Annotated[Time | None, "When the time limit ends the race."]
    ended_at: Time | None
    now: Annotated[Time, "The server's time, for the countdown and the clock."]
    seed: Annotated[int | None, "The deal's number, once the race is over; else null."]
    rematch: Annotated[str | None, "The code of the room's next race, once one is asked for."]
    players: Annotated[list[RaceEntrant], "In the order they joined; ranked once it is over."]


class Race(RacePublic):
    """A race as the asker sees it: everyone's progress, and what is theirs."""

    you: RaceYou


class OpenRace(TypedDict):
    """A room waiting for players."""

    code: str
    link: str
    variant: Annotated[str, OneOf(VARIANT_CHOICES)]
    winnable: bool
    undo: bool
    time_limit_seconds: int
    opener: str | None
    players: int
    max_players: int
    created_at: Annotated[Time, "Waiting since."]


class OpenRaces(TypedDict):
    results: Annotated[list[OpenRace], "The oldest first, at most 50."]


class PlayerRace(TypedDict):
    """One of a player's races that are over, as their profile lists it."""

    code: str
    link: Annotated[str, "The race's page (/races/<code>/): its result and every replay."]
    variant: Annotated[str, OneOf(VARIANT_CHOICES)]
    name: str
    place: Annotated[int | None, "The player's place (1 for the best, ties sharing one)."]
    players: Annotated[int, "How many raced."]
    standing: Annotated[Standing, "How the player's game ended: won, stuck, resigned, …"]
    ended_at: Time


class RaceInvitation(TypedDict):
    """A friend's invitation to a race waiting for players."""

    code: str
    link: Annotated[str, "The race's room: join it there (POST /api/races/<code>/join/)."]
    variant: Annotated[str, OneOf(VARIANT_CHOICES)]
    name: str
    sender: Annotated[str, "Who invited you (a player you may follow or not)."]
    created_at: Time


class RaceInvitations(TypedDict):
    results: Annotated[list[RaceInvitation], "Still open (the race waits), the newest first."]
