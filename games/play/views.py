"""The games API: thin views over ``games.play.services`` (writes) and
``games.play.selectors`` (reads)."""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from django.core.paginator import EmptyPage, Paginator
from drf_spectacular.utils import extend_schema
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.guests import PlayerOrNewGuest
from accounts.throttling import client_ip
from games import catalogue
from games.answers import ERRORS, answer, answer_once
from games.core.pages import no_such_page
from games.errors import GameError
from games.inputs import PageQuery, ReplayQuery, body, valid
from games.play import hint_service as play_hints
from games.play import idempotency
from games.play import selectors as play_selectors
from games.play import services as play_services
from games.play import writes as play_writes
from games.play.inputs import (
    ActionInput,
    GameFilter,
    MoveInput,
    NewGameInput,
    UndoInput,
    asked_step,
    idempotency_key,
)
from games.play.responses import Abandoned, Game, GamePage, Hint, HistoryEntry, Replay, Stats
from games.play.throttling import (
    GameCreationThrottle,
    HintThrottle,
    counted_address,
    give_back,
    spend_on,
    too_many_games,
    too_many_hints,
    too_many_winnable,
)
from web.errors import ServiceError
from web.http.errors import ApiError, ApiErrorBody


class VariantListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="The five games, with their piles",
        operation_id="variants_list",
        responses=list[catalogue.Variant],
    )
    def get(self, request: Request) -> Response:
        return Response(catalogue.variant_catalogue())


class _Paginator(Paginator):
    def validate_number(self, number: Any) -> int:
        try:
            return super().validate_number(number)
        except EmptyPage:
            if int(number) < 1:
                raise
            raise no_such_page(int(number), self.num_pages) from None


class GamePages(PageNumberPagination):
    """DRF's pages of 20, with the leaderboards' 404 for a page after the last one, at the
    page number ``PageQuery`` has read (DRF would read the raw parameter again)."""

    django_paginator_class = _Paginator

    def __init__(self, number: int) -> None:
        self.number = number

    def get_page_number(self, request: Request, paginator: Paginator) -> int:
        return self.number


class GameListView(APIView):
    # A browser's anonymous "New deal" plays as a new guest (accounts.guests).
    permission_classes = [PlayerOrNewGuest]
    throttle_classes = [GameCreationThrottle]  # POST only
    throttle_scope = "game_create"

    def throttled(self, request: Request, wait: float | None) -> None:
        raise too_many_games(wait)

    @extend_schema(
        summary="Your games, newest first",
        operation_id="games_list",
        parameters=[GameFilter, PageQuery],
        responses={200: GamePage, 400: ApiErrorBody, 404: ApiErrorBody},
    )
    def get(self, request: Request) -> Response:
        filters = valid(GameFilter, request.query_params)
        # A page past the last one is the paginator's 404.
        paginator = GamePages(valid(PageQuery, request.query_params)["page"])
        page = paginator.paginate_queryset(
            play_selectors.own_games(request.user, **filters), request, view=self
        )
        return paginator.get_paginated_response([play_selectors.game_summary(g) for g in page])

    @extend_schema(
        summary="Start a game (a random deal unless you give a seed; a proven-winnable one "
        "with winnable: true)",
        operation_id="games_create",
        request=NewGameInput,
        responses={201: Game, **ERRORS, 429: ApiErrorBody, 503: ApiErrorBody},
    )
    def post(self, request: Request) -> Response:
        key = idempotency_key(request)
        data = valid(NewGameInput, body(request))
        if data["winnable"]:
            # A deal out of the pool: its own budgets, per player and per address, every ask
            # counted (games.play.throttling).
            wait = spend_on("winnable", request).wait
            if wait is not None:
                raise too_many_winnable(wait)
        return answer(
            answer_once(
                request.user,
                key,
                lambda: play_services.create_game(
                    user=request.user,
                    variant_slug=data["variant"],
                    seed=data.get("seed"),
                    winnable=data["winnable"],
                ),
                status=201,
            )
        )


class GameDetailView(APIView):
    @extend_schema(
        summary="One of your games: the board as you see it and the legal moves",
        operation_id="games_retrieve",
        responses={200: Game, 404: ApiErrorBody},
    )
    def get(self, request: Request, game_id: int) -> Response:
        return Response(
            play_selectors.game_representation(play_selectors.own_game(request.user, game_id))
        )


class GameMovesView(APIView):
    @extend_schema(
        summary="The game's whole history",
        operation_id="games_moves_list",
        responses={200: list[HistoryEntry], 404: ApiErrorBody},
    )
    def get(self, request: Request, game_id: int) -> Response:
        return Response(play_selectors.history(play_selectors.own_game(request.user, game_id)))

    @extend_schema(
        summary="Make a move (validated by the rules engine)",
        operation_id="games_moves_create",
        request=MoveInput,
        responses={201: Game, **ERRORS},
    )
    def post(self, request: Request, game_id: int) -> Response:
        key = idempotency_key(request)
        return answer(play_writes.move(request.user, game_id, body(request), key))


class GameActionView(APIView):
    """An action with no body beyond an optional ``expected_move_number``
    (``games.play.writes``: the same for REST and the game's websocket)."""

    action: str

    def post(self, request: Request, game_id: int) -> Response:
        key = idempotency_key(request)
        return answer(play_writes.ACTIONS[self.action](request.user, game_id, body(request), key))


class GameUndoView(APIView):
    @extend_schema(
        summary="Take back the last move (casual games), recorded in the history",
        operation_id="games_undo",
        request=UndoInput,
        responses={200: Game, **ERRORS},
    )
    def post(self, request: Request, game_id: int) -> Response:
        key = idempotency_key(request)
        return answer(play_writes.undo(request.user, game_id, body(request), key))


class GameResignView(GameActionView):
    action = "resign"

    @extend_schema(
        summary="Give up the game",
        operation_id="games_resign",
        request=ActionInput,
        responses={200: Game, **ERRORS},
    )
    def post(self, request: Request, game_id: int) -> Response:
        return super().post(request, game_id)


class GameEndView(GameActionView):
    action = "end"

    @extend_schema(
        summary="End a casual game at a dead end (no legal move left): recorded as lost",
        operation_id="games_end",
        request=ActionInput,
        responses={200: Game, **ERRORS},
    )
    def post(self, request: Request, game_id: int) -> Response:
        return super().post(request, game_id)


class GameAbandonView(GameActionView):
    action = "abandon"

    @extend_schema(
        summary="Leave a game in play for good: deleted if no move was made (a casual game), "
        "else resigned",
        operation_id="games_abandon",
        request=ActionInput,
        responses={200: Abandoned, **ERRORS},
    )
    def post(self, request: Request, game_id: int) -> Response:
        return super().post(request, game_id)


class GameHintView(APIView):
    throttle_classes = [HintThrottle]
    throttle_scope = "hint"

    def throttled(self, request: Request, wait: float | None) -> None:
        raise too_many_hints(wait)

    @extend_schema(
        summary="Suggest a move (casual games); the game counts its hints",
        operation_id="games_hint",
        request=ActionInput,
        responses={200: Hint, **ERRORS, 429: ApiErrorBody},
    )
    def post(self, request: Request, game_id: int) -> Response:
        # One search per player at a time, a few per address (429 hint_in_progress past it).
        address = counted_address(client_ip(request))
        try:
            with play_hints.one_search_at_a_time(request.user, address):
                return self._hint(request, game_id)
        except GameError as refusal:
            if refusal.code == "hint_in_progress":
                # It searched nothing: its counts are given back, or a crowd waiting for the
                # address's searches would spend its budget on refusals alone.
                give_back(request)
            raise

    def _hint(self, request: Request, game_id: int) -> Response:
        # The search runs first, outside every transaction; the hint is then counted in a
        # short one (the service's). A refusal found here is given there, in order, as for
        # any action. A retry whose answer is already stored searches nothing.
        key = idempotency_key(request)
        data = valid(ActionInput, body(request))
        worked_out = None
        if not idempotency.answered(request.user.pk, key):
            with suppress(ApiError, ServiceError):
                worked_out = play_hints.work_out_hint(
                    user=request.user,
                    game_id=game_id,
                    expected_move_number=data.get("expected_move_number"),
                )
        return answer(
            answer_once(
                request.user,
                key,
                lambda: play_hints.request_hint(
                    user=request.user,
                    game_id=game_id,
                    expected_move_number=data.get("expected_move_number"),
                    worked_out=worked_out,
                    search=False,
                ),
            )
        )


class GameReplayView(APIView):
    @extend_schema(
        summary="The board at a step of the history",
        operation_id="games_replay",
        parameters=[ReplayQuery],
        responses={200: Replay, 400: ApiErrorBody, 404: ApiErrorBody},
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = play_selectors.own_game(request.user, game_id)
        step = asked_step(request, game)
        return Response(play_selectors.replay_view(game, step))


class StatsView(APIView):
    @extend_schema(
        summary="Your results per game",
        operation_id="me_stats",
        responses={200: list[Stats]},
    )
    def get(self, request: Request) -> Response:
        return Response(play_selectors.player_stats(request.user))
