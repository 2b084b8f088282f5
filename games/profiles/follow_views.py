"""Following players: POST/DELETE /api/players/{username}/follow/ and GET /api/me/following/
(``accounts.follows`` does the work)."""

from __future__ import annotations

from typing import Annotated, TypedDict

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import follows
from accounts.guests import AccountRequired
from games.play.throttling import PlayerThrottle, TooManyRequests
from web.http.errors import ApiErrorBody


class FollowAnswer(TypedDict):
    username: str
    following: Annotated[bool, "Whether you follow the player now."]


class Following(TypedDict):
    following: Annotated[list[follows.Followed], "The players you follow, by name."]


class FollowThrottle(PlayerThrottle):
    """Follows and unfollows, per account and per address (``FOLLOWS_PER_MINUTE``)."""

    methods = frozenset({"POST", "DELETE"})


class FollowView(APIView):
    permission_classes = [AccountRequired]  # a guest: 403 account_required
    throttle_classes = [FollowThrottle]
    throttle_scope = "follow"

    def throttled(self, request: Request, wait: float | None) -> None:
        raise TooManyRequests(
            "You (or the players sharing your address) have followed and unfollowed too many "
            "players in a short time.",
            wait,
        )

    @extend_schema(
        summary="Follow a player (no approval asked; following already: nothing changes)",
        operation_id="players_follow",
        request=None,
        responses={200: FollowAnswer, 400: ApiErrorBody, 403: ApiErrorBody, 404: ApiErrorBody},
    )
    def post(self, request: Request, username: str) -> Response:
        name = follows.follow(user=request.user, username=username)
        return Response({"username": name, "following": True})

    @extend_schema(
        summary="Stop following a player (not following: nothing changes)",
        operation_id="players_unfollow",
        request=None,
        responses={200: FollowAnswer, 403: ApiErrorBody, 404: ApiErrorBody},
    )
    def delete(self, request: Request, username: str) -> Response:
        name = follows.unfollow(user=request.user, username=username)
        return Response({"username": name, "following": False})


class FollowingView(APIView):
    permission_classes = [AccountRequired]

    @extend_schema(
        summary="The players you follow",
        operation_id="me_following",
        responses={200: Following, 403: ApiErrorBody},
    )
    def get(self, request: Request) -> Response:
        return Response({"following": follows.following(request.user)})
