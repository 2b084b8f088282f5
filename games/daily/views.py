"""The daily challenges API: the day, attempts, replays, solutions and leaderboards."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.guests import AccountRequired
from games.answers import ERRORS, answer, answer_once
from games.core import days
from games.daily import friends, leaderboards, share
from games.daily import selectors as daily_selectors
from games.daily import services as daily_services
from games.daily.inputs import DAY_MESSAGE, DailyQuery
from games.daily.responses import (
    AlltimeLeaderboard,
    DailyLeaderboard,
    DailyOverview,
    DailySolution,
    WeekLeaderboard,
)
from games.inputs import PageQuery, ReplayQuery, known_variant, valid
from games.play.inputs import idempotency_key
from games.play.responses import Game
from games.play.throttling import GameCreationThrottle, too_many_games
from web.http.errors import ApiError, ApiErrorBody

if TYPE_CHECKING:
    pass


class NoSuchDayView(APIView):
    """A daily path whose day is written YYYY-MM-DD but is not a date (2026-02-30): 404
    ``no_such_day``, in the words ``?date=`` on /api/daily/ uses (a path that names nothing
    is a 404 here, as an unknown game in a path is), for the methods the path takes
    (``http_method_names``, set in ``games.urls``: POST or GET)."""

    permission_classes = [AllowAny]
    authentication_classes = []  # nothing is read or written: a session plays no part
    schema = None  # not an endpoint of its own

    def get(self, request: Request, day: str) -> Response:
        raise ApiError("no_such_day", f"There is no day {day}. {DAY_MESSAGE}", 404)

    post = get


class DailyView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A day's five challenges and your attempt at each (today by default)",
        operation_id="daily_retrieve",
        parameters=[DailyQuery],
        responses={200: DailyOverview, 400: ApiErrorBody},
    )
    def get(self, request: Request) -> Response:
        date = valid(DailyQuery, request.query_params).get("date") or days.today()
        return Response(daily_selectors.daily_overview(date, request.user))


class GameStartView(APIView):
    """Starting a game of a day's deal is starting a game: the same ``game_create`` budgets
    as ``POST /api/games/``, per player and per address (``games.play.throttling``)."""

    throttle_classes = [GameCreationThrottle]
    throttle_scope = "game_create"

    def throttled(self, request: Request, wait: float | None) -> None:
        raise too_many_games(wait)


class DailyAttemptView(GameStartView):
    # One per player per day and game already; counted all the same, for the address's
    # budget (accounts behind one address) and so that its 429 is a new game's.
    permission_classes = [AccountRequired]  # a guest: 403 account_required

    @extend_schema(
        summary="Start your one ranked attempt at a challenge (on its own UTC day, no undo)",
        operation_id="daily_attempt",
        request=None,
        responses={201: Game, **ERRORS, 429: ApiErrorBody},
    )
    def post(self, request: Request, date: dt.date, variant: str) -> Response:
        key = idempotency_key(request, reads_body=False)
        variant_slug = known_variant(variant)
        return answer(
            answer_once(
                request.user,
                key,
                lambda: daily_services.start_daily_attempt(
                    user=request.user, date=date, variant_slug=variant_slug
                ),
                status=201,
            )
        )


class DailyReplayView(GameStartView):
    @extend_schema(
        summary="Play a challenge's deal again as a casual game (after your attempt is over)",
        operation_id="daily_replay",
        request=None,
        responses={201: Game, **ERRORS, 429: ApiErrorBody},
    )
    def post(self, request: Request, date: dt.date, variant: str) -> Response:
        key = idempotency_key(request, reads_body=False)
        variant_slug = known_variant(variant)
        return answer(
            answer_once(
                request.user,
                key,
                lambda: daily_services.start_daily_replay(
                    user=request.user, date=date, variant_slug=variant_slug
                ),
                status=201,
            )
        )


class DailySolutionView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="How a closed day's deal could be won: the solver's line (404 not_yet before)",
        operation_id="daily_solution",
        parameters=[ReplayQuery],
        responses={200: DailySolution, 400: ApiErrorBody, 404: ApiErrorBody},
    )
    def get(self, request: Request, date: dt.date, variant: str) -> Response:
        slug = known_variant(variant)
        query = ReplayQuery(data=request.query_params)
        if not query.is_valid():
            raise ApiError("invalid_step", "Choose a step: a whole number from 0 up.")
        step = query.validated_data.get("step")
        return Response(daily_selectors.daily_solution(date, slug, step))


class DailyLeaderboardView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A day's ranking for one game, with your own rank",
        operation_id="leaderboards_daily",
        parameters=[PageQuery],
        responses={
            200: DailyLeaderboard,
            400: ApiErrorBody,
            404: ApiErrorBody,
        },
    )
    def get(self, request: Request, date: dt.date, variant: str) -> Response:
        page = valid(PageQuery, request.query_params)["page"]
        board = leaderboards.daily_leaderboard(
            date, known_variant(variant), request.user, page=page
        )
        return Response(board)


class DailyShareView(APIView):
    permission_classes = [AccountRequired]  # a guest plays no ranked attempt

    @extend_schema(
        summary="Your day's results as a spoiler-free text to share (a line per game played)",
        operation_id="daily_share",
        responses={200: share.ShareCard, 403: ApiErrorBody, 404: ApiErrorBody},
    )
    def get(self, request: Request, date: dt.date) -> Response:
        site = request.build_absolute_uri("/")
        return Response(share.share_card(date, request.user, site))


class FriendsLeaderboardView(APIView):
    permission_classes = [AccountRequired]  # a guest: 403 account_required

    @extend_schema(
        summary="A day's ranking for one game, of you and the players you follow",
        operation_id="leaderboards_daily_friends",
        responses={200: friends.FriendsBoard, 403: ApiErrorBody, 404: ApiErrorBody},
    )
    def get(self, request: Request, date: dt.date, variant: str) -> Response:
        return Response(friends.friends_board(date, known_variant(variant), request.user))


class AlltimeLeaderboardView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="All-time ranking of one game over ranked attempts",
        operation_id="leaderboards_alltime",
        parameters=[PageQuery],
        responses={
            200: AlltimeLeaderboard,
            400: ApiErrorBody,
            404: ApiErrorBody,
        },
    )
    def get(self, request: Request, variant: str) -> Response:
        page = valid(PageQuery, request.query_params)["page"]
        return Response(leaderboards.alltime_leaderboard(known_variant(variant), page=page))


class WeekLeaderboardView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="The last seven days' ranking of one game, from a player's first ranked game",
        operation_id="leaderboards_week",
        parameters=[PageQuery],
        responses={
            200: WeekLeaderboard,
            400: ApiErrorBody,
            404: ApiErrorBody,
        },
    )
    def get(self, request: Request, variant: str) -> Response:
        page = valid(PageQuery, request.query_params)["page"]
        return Response(leaderboards.week_leaderboard(known_variant(variant), page=page))
