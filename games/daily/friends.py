"""A daily leaderboard's friends' view: the players one follows (``accounts.follows``) and
oneself, each with their rank on the whole board (the number the board, a profile and a shared
result all give, so "3rd" means the same everywhere), in the board's order. It is the public
board filtered: nothing in it that anyone watching the board does not see already."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Annotated, Any, TypedDict

from django.contrib.auth.models import AbstractBaseUser

from accounts.follows import followed_ids
from accounts.guests import is_guest
from games.daily import leaderboards
from games.daily.responses import LeaderboardEntry
from web.http.schema import IsoDate


class FriendsBoard(TypedDict):
    date: IsoDate
    variant: str
    count: Annotated[int, "Attempts on the whole board."]
    results: Annotated[
        list[LeaderboardEntry],
        "You and the players you follow on the board, best first, with their rank on the whole "
        "board.",
    ]


def friend_ids(user: Any) -> set[int] | None:
    """Whose entries a friends' board shows to ``user``: the players followed and the player;
    None for a visitor or a guest, who follow nobody."""
    if user is None or not user.is_authenticated or is_guest(user):
        return None
    return followed_ids(user.pk) | {user.pk}


def among(ranking: Iterable[tuple[int, Any]], ids: set[int]) -> list[Any]:
    """The entries of a ranking (owner id, entry) whose owner is in ``ids``, in its order."""
    return [entry for owner, entry in ranking if owner in ids]


def friends_board(date: dt.date, variant: str, user: AbstractBaseUser) -> FriendsBoard:
    """The day's board of one game for ``user`` (an account) and the players they follow."""
    ranking = leaderboards.daily_ranking(date, variant)
    return {
        "date": date,
        "variant": variant,
        "count": len(ranking),
        "results": among(ranking, friend_ids(user) or set()),
    }
