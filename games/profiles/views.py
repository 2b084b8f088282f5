"""Public player profiles."""

from __future__ import annotations

from typing import TYPE_CHECKING

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.profiles import progress
from games.profiles import selectors as profiles
from games.profiles.responses import PlayerProfile, Progress
from web.http.errors import ApiError, ApiErrorBody

if TYPE_CHECKING:
    pass


class PlayerProfileView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A player's public profile: daily challenge results, streaks, recent results",
        operation_id="players_retrieve",
        responses={200: PlayerProfile, 404: ApiErrorBody},
    )
    def get(self, request: Request, username: str) -> Response:
        player = profiles.public_player(username)
        if player is None:
            raise ApiError("not_found", "There is no such player.", 404)
        return Response(profiles.player_profile(player))


class PlayerProgressView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A player's progress over time: daily challenge results week by week, the "
        "spread of wins, cards home in losses, the days played and the monthly badges",
        operation_id="players_progress",
        responses={200: Progress, 404: ApiErrorBody},
    )
    def get(self, request: Request, username: str) -> Response:
        player = profiles.public_player(username)
        if player is None:
            raise ApiError("not_found", "There is no such player.", 404)
        return Response(progress.public_progress(player))


class MyProgressView(APIView):
    @extend_schema(
        summary="Your progress over time: every finished game, casual and ranked, week by "
        "week, the spread of wins, cards home in losses, the days played and the monthly badges",
        operation_id="me_progress",
        responses={200: Progress, 401: ApiErrorBody},
    )
    def get(self, request: Request) -> Response:
        return Response(progress.own_progress(request.user))
