"""The staff review API."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.errors import GameError
from games.inputs import ReplayQuery
from games.moderation import review
from games.moderation.responses import StaffReview
from games.play import selectors as play_selectors
from games.play.inputs import asked_step
from web.http.errors import ApiErrorBody


class CanReviewGames(BasePermission):
    """Staff who may view games in the admin, as its review page asks: being staff is not
    enough (a staff account given other permissions only sees no card here either)."""

    message = (
        "Only staff allowed to review games can open this. Ask an administrator for the "
        "permission to view games."
    )

    def has_permission(self, request: Request, view: Any) -> bool:
        return play_selectors.may_review_games(request.user)


class StaffGameReviewView(APIView):
    """Any game as staff review it: hidden cards included, so staff only."""

    permission_classes = [CanReviewGames]

    @extend_schema(
        summary="Staff: review a game (every card at a step, timed history, flags, verification)",
        operation_id="staff_games_review",
        parameters=[ReplayQuery],
        responses={
            200: StaffReview,
            400: ApiErrorBody,
            403: ApiErrorBody,
            404: OpenApiResponse(
                ApiErrorBody,
                description=(
                    '"not_found", or "not_yet": a game dealt the deal of a day not closed, '
                    "or of a race not over (games.core.sealing)."
                ),
            ),
        },
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = review.staff_game(game_id)
        if review.sealed(game):
            raise GameError("not_yet", review.sealed_message(game))
        step = asked_step(request, game)
        return Response(review.staff_review(game, step))
