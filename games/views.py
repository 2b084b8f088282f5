"""The games API: thin views over ``games.services`` (writes) and ``games.selectors`` (reads)."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from django.core.paginator import EmptyPage, Paginator
from django.http import StreamingHttpResponse
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny, BasePermission
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import daily, selectors, services
from games.idempotency import already_answered, respond_once
from games.rules import VARIANTS
from games.serializers import (
    DAY_MESSAGE,
    UNKNOWN_VARIANT_MESSAGE,
    ActionInput,
    AlltimeLeaderboardSerializer,
    DailyLeaderboardSerializer,
    DailyOverviewSerializer,
    DailyQuery,
    DailySolutionSerializer,
    ExportSerializer,
    GameFilter,
    GamePageSerializer,
    GameSerializer,
    HintSerializer,
    HistoryEntrySerializer,
    MoveInput,
    NewGameInput,
    PageQuery,
    PlayerProfileSerializer,
    ReplayQuery,
    ReplaySerializer,
    StatsSerializer,
    VariantSerializer,
    plainly_valid,
)
from games.staff_serializers import StaffReviewSerializer
from web.errors import ApiError, ApiErrorSerializer
from web.handlers import streaming_content

if TYPE_CHECKING:
    from games.models import Game

ERRORS = {400: ApiErrorSerializer, 404: ApiErrorSerializer, 409: ApiErrorSerializer}


def valid(serializer_class: type, data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def valid_action(serializer_class: type[MoveInput | ActionInput], data: Any) -> dict[str, Any]:
    """A move's or an action's body, validated as ``valid`` would (the serializer refuses)."""
    found = plainly_valid(serializer_class, data)
    return found if found is not None else valid(serializer_class, data)


def asked_step(request: Request, game: Game) -> int:
    """``?step=`` (the last one by default). Whatever is not a step of the game's history
    (-1, "abc" or 99) is the same 400 ``invalid_step``, naming the steps to choose from."""
    query = ReplayQuery(data=request.query_params)
    if not query.is_valid():
        raise selectors.invalid_step(game)
    return query.validated_data.get("step", game.move_number)


def body(request: Request) -> dict[str, Any]:
    """The JSON body as an object (an empty body counts as ``{}``)."""
    data = request.data
    if not isinstance(data, dict):
        raise ApiError("malformed_json", "The request body must be a JSON object.")
    return data


class VariantListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="The five games, with their piles",
        operation_id="variants_list",
        responses=VariantSerializer(many=True),
    )
    def get(self, request: Request) -> Response:
        return Response(selectors.variant_catalogue())


class _Paginator(Paginator):
    def validate_number(self, number: Any) -> int:
        try:
            return super().validate_number(number)
        except EmptyPage:
            if int(number) < 1:
                raise
            raise selectors.no_such_page(int(number), self.num_pages) from None


class GamePages(PageNumberPagination):
    """DRF's pages of 20, with the leaderboards' 404 for a page after the last one, at the
    page number ``PageQuery`` has read (DRF would read the raw parameter again)."""

    django_paginator_class = _Paginator

    def __init__(self, number: int) -> None:
        self.number = number

    def get_page_number(self, request: Request, paginator: Paginator) -> int:
        return self.number


class GameListView(APIView):
    @extend_schema(
        summary="Your games, newest first",
        operation_id="games_list",
        parameters=[GameFilter, PageQuery],
        responses={200: GamePageSerializer, 400: ApiErrorSerializer, 404: ApiErrorSerializer},
    )
    def get(self, request: Request) -> Response:
        filters = valid(GameFilter, request.query_params)
        # A page past the last one is the paginator's 404.
        paginator = GamePages(valid(PageQuery, request.query_params)["page"])
        page = paginator.paginate_queryset(
            selectors.own_games(request.user, **filters), request, view=self
        )
        return paginator.get_paginated_response([selectors.game_summary(g) for g in page])

    @extend_schema(
        summary="Start a game (a random deal unless you give a seed; a proven-winnable one "
        "with winnable: true)",
        operation_id="games_create",
        request=NewGameInput,
        responses={201: GameSerializer, **ERRORS, 503: ApiErrorSerializer},
    )
    def post(self, request: Request) -> Response:
        def action() -> Response:
            data = valid(NewGameInput, body(request))
            outcome = services.create_game(
                user=request.user,
                variant_slug=data["variant"],
                seed=data.get("seed"),
                winnable=data["winnable"],
            )
            return Response(
                outcome.representation,
                status=status.HTTP_201_CREATED,
            )

        return respond_once(request, action)


class GameDetailView(APIView):
    @extend_schema(
        summary="One of your games: the board as you see it and the legal moves",
        operation_id="games_retrieve",
        responses={200: GameSerializer, 404: ApiErrorSerializer},
    )
    def get(self, request: Request, game_id: int) -> Response:
        return Response(selectors.game_representation(selectors.own_game(request.user, game_id)))


class GameMovesView(APIView):
    @extend_schema(
        summary="The game's whole history",
        operation_id="games_moves_list",
        responses={200: HistoryEntrySerializer(many=True), 404: ApiErrorSerializer},
    )
    def get(self, request: Request, game_id: int) -> Response:
        return Response(selectors.history(selectors.own_game(request.user, game_id)))

    @extend_schema(
        summary="Make a move (validated by the rules engine)",
        operation_id="games_moves_create",
        request=MoveInput,
        responses={201: GameSerializer, **ERRORS},
    )
    def post(self, request: Request, game_id: int) -> Response:
        def action() -> Response:
            data = valid_action(MoveInput, body(request))
            outcome = services.play_move(
                user=request.user,
                game_id=game_id,
                move=data["move"],
                expected_move_number=data.get("expected_move_number"),
            )
            return Response(
                outcome.representation_with_events(),
                status=status.HTTP_201_CREATED,
            )

        return respond_once(request, action)


class GameActionView(APIView):
    """An action with no body beyond an optional ``expected_move_number``."""

    service: Any

    def post(self, request: Request, game_id: int) -> Response:
        def action() -> Response:
            data = valid_action(ActionInput, body(request))
            result = self.service(
                user=request.user,
                game_id=game_id,
                expected_move_number=data.get("expected_move_number"),
            )
            return self.answer(result)

        return respond_once(request, action)

    def answer(self, outcome: Any) -> Response:
        return Response(outcome.representation_with_events())


class GameUndoView(GameActionView):
    service = staticmethod(services.undo_move)

    @extend_schema(
        summary="Take back the last move (casual games), recorded in the history",
        operation_id="games_undo",
        request=ActionInput,
        responses={200: GameSerializer, **ERRORS},
    )
    def post(self, request: Request, game_id: int) -> Response:
        return super().post(request, game_id)


class GameResignView(GameActionView):
    service = staticmethod(services.resign_game)

    @extend_schema(
        summary="Give up the game",
        operation_id="games_resign",
        request=ActionInput,
        responses={200: GameSerializer, **ERRORS},
    )
    def post(self, request: Request, game_id: int) -> Response:
        return super().post(request, game_id)


class GameHintView(GameActionView):
    service = staticmethod(services.request_hint)

    @extend_schema(
        summary="Suggest a move (casual games); the game counts its hints",
        operation_id="games_hint",
        request=ActionInput,
        responses={200: HintSerializer, **ERRORS},
    )
    def post(self, request: Request, game_id: int) -> Response:
        # The search runs first, outside every transaction (respond_once holds one for an
        # Idempotency-Key); the hint is then counted in a short one. A refusal found here is
        # given there, in order, as for any action. A retry whose answer is already stored
        # searches nothing.
        worked_out = None
        if not already_answered(request):
            try:
                data = valid_action(ActionInput, body(request))
                worked_out = services.work_out_hint(
                    user=request.user,
                    game_id=game_id,
                    expected_move_number=data.get("expected_move_number"),
                )
            except ApiError:
                pass

        def action() -> Response:
            data = valid_action(ActionInput, body(request))
            hint = services.request_hint(
                user=request.user,
                game_id=game_id,
                expected_move_number=data.get("expected_move_number"),
                worked_out=worked_out,
                search=False,
            )
            return Response(hint.to_json())

        return respond_once(request, action)


class GameReplayView(APIView):
    @extend_schema(
        summary="The board at a step of the history",
        operation_id="games_replay",
        parameters=[ReplayQuery],
        responses={200: ReplaySerializer, 400: ApiErrorSerializer, 404: ApiErrorSerializer},
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.own_game(request.user, game_id)
        step = asked_step(request, game)
        return Response(selectors.replay_view(game, step))


class StatsView(APIView):
    @extend_schema(
        summary="Your results per game",
        operation_id="me_stats",
        responses=StatsSerializer(many=True),
    )
    def get(self, request: Request) -> Response:
        return Response(selectors.player_stats(request.user))


class ExportView(APIView):
    @extend_schema(
        summary="Download your data: the account, statistics, every game and its history",
        operation_id="me_export",
        responses={
            200: ExportSerializer,
            401: ApiErrorSerializer,
            403: ApiErrorSerializer,
            429: ApiErrorSerializer,
        },
    )
    def get(self, request: Request) -> StreamingHttpResponse:
        # Streamed as it is read (games.selectors.player_export): the same JSON document and
        # headers as a Response would carry, but never the whole of it in memory. Whatever
        # is refused (not signed in, an Accept that is not JSON) is refused before this, as
        # JSON; a failure once the download has begun cuts it short, an incomplete document.
        exported_at = timezone.now()
        chunks = selectors.OneExportAtATime(request.user, exported_at=exported_at)
        response = StreamingHttpResponse(
            streaming_content(chunks), content_type=JSONRenderer.media_type
        )
        day = exported_at.date().isoformat()
        response["Content-Disposition"] = f'attachment; filename="patience-data-{day}.json"'
        return response  # no-store, as every API answer (web.errors.PrivateApiResponses)


# -- daily challenges and leaderboards -------------------------------------------------------


def known_variant(slug: str) -> str:
    if slug not in VARIANTS:
        raise ApiError("unknown_variant", UNKNOWN_VARIANT_MESSAGE.format(input=slug), 404)
    return slug


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
        responses={200: DailyOverviewSerializer, 400: ApiErrorSerializer},
    )
    def get(self, request: Request) -> Response:
        date = valid(DailyQuery, request.query_params).get("date") or daily.today()
        return Response(selectors.daily_overview(date, request.user))


class DailyAttemptView(APIView):
    @extend_schema(
        summary="Start your one ranked attempt at a challenge (on its own UTC day, no undo)",
        operation_id="daily_attempt",
        request=None,
        responses={201: GameSerializer, **ERRORS},
    )
    def post(self, request: Request, date: dt.date, variant: str) -> Response:
        def action() -> Response:
            outcome = services.start_daily_attempt(
                user=request.user, date=date, variant_slug=known_variant(variant)
            )
            return Response(outcome.representation, status=201)

        return respond_once(request, action)


class DailyReplayView(APIView):
    @extend_schema(
        summary="Play a challenge's deal again as a casual game (after your attempt is over)",
        operation_id="daily_replay",
        request=None,
        responses={201: GameSerializer, **ERRORS},
    )
    def post(self, request: Request, date: dt.date, variant: str) -> Response:
        def action() -> Response:
            outcome = services.start_daily_replay(
                user=request.user, date=date, variant_slug=known_variant(variant)
            )
            return Response(outcome.representation, status=201)

        return respond_once(request, action)


class DailySolutionView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="How a closed day's deal could be won: the solver's line (404 not_yet before)",
        operation_id="daily_solution",
        parameters=[ReplayQuery],
        responses={200: DailySolutionSerializer, 400: ApiErrorSerializer, 404: ApiErrorSerializer},
    )
    def get(self, request: Request, date: dt.date, variant: str) -> Response:
        slug = known_variant(variant)
        query = ReplayQuery(data=request.query_params)
        if not query.is_valid():
            raise ApiError("invalid_step", "Choose a step: a whole number from 0 up.")
        step = query.validated_data.get("step")
        return Response(selectors.daily_solution(date, slug, step))


class DailyLeaderboardView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A day's ranking for one game, with your own rank",
        operation_id="leaderboards_daily",
        parameters=[PageQuery],
        responses={
            200: DailyLeaderboardSerializer,
            400: ApiErrorSerializer,
            404: ApiErrorSerializer,
        },
    )
    def get(self, request: Request, date: dt.date, variant: str) -> Response:
        page = valid(PageQuery, request.query_params)["page"]
        board = selectors.daily_leaderboard(date, known_variant(variant), request.user, page=page)
        return Response(board)


class AlltimeLeaderboardView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="All-time ranking of one game over ranked attempts",
        operation_id="leaderboards_alltime",
        parameters=[PageQuery],
        responses={
            200: AlltimeLeaderboardSerializer,
            400: ApiErrorSerializer,
            404: ApiErrorSerializer,
        },
    )
    def get(self, request: Request, variant: str) -> Response:
        page = valid(PageQuery, request.query_params)["page"]
        return Response(selectors.alltime_leaderboard(known_variant(variant), page=page))


class PlayerProfileView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A player's public profile: daily challenge results, streaks, recent results",
        operation_id="players_retrieve",
        responses={200: PlayerProfileSerializer, 404: ApiErrorSerializer},
    )
    def get(self, request: Request, username: str) -> Response:
        player = selectors.public_player(username)
        if player is None:
            raise ApiError("not_found", "There is no such player.", 404)
        return Response(selectors.player_profile(player))


# -- staff -----------------------------------------------------------------------------------


class CanReviewGames(BasePermission):
    """Staff who may view games in the admin, as its review page asks: being staff is not
    enough (a staff account given other permissions only sees no card here either)."""

    message = (
        "Only staff allowed to review games can open this. Ask an administrator for the "
        "permission to view games."
    )

    def has_permission(self, request: Request, view: Any) -> bool:
        return selectors.may_review_games(request.user)


class StaffGameReviewView(APIView):
    """Any game as staff review it: hidden cards included, so staff only."""

    permission_classes = [CanReviewGames]

    @extend_schema(
        summary="Staff: review a game (every card at a step, timed history, flags, verification)",
        operation_id="staff_games_review",
        parameters=[ReplayQuery],
        responses={
            200: StaffReviewSerializer,
            400: ApiErrorSerializer,
            403: ApiErrorSerializer,
            404: ApiErrorSerializer,
        },
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.staff_game(game_id)
        step = asked_step(request, game)
        return Response(selectors.staff_review(game, step))
