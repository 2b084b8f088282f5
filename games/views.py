"""The games API: thin views over ``games.services`` (writes) and ``games.selectors`` (reads)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import ApiError
from games import selectors, services
from games.idempotency import respond_once
from games.serializers import ActionInput, GameFilter, MoveInput, NewGameInput, ReplayQuery


def valid(serializer_class: type, data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def body(request: Request) -> dict[str, Any]:
    """The JSON body as an object (an empty body counts as ``{}``)."""
    data = request.data
    if not isinstance(data, dict):
        raise ApiError("malformed_json", "The request body must be a JSON object.")
    return data


class VariantListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(summary="The five games, with their piles")
    def get(self, request: Request) -> Response:
        return Response(selectors.variant_catalogue())


class GameListView(APIView):
    @extend_schema(
        summary="Your games, newest first",
        parameters=[GameFilter, OpenApiParameter("page", int)],
    )
    def get(self, request: Request) -> Response:
        filters = valid(GameFilter, request.query_params)
        paginator = PageNumberPagination()
        page = paginator.paginate_queryset(
            selectors.own_games(request.user, **filters), request, view=self
        )
        return paginator.get_paginated_response([selectors.game_summary(g) for g in page])

    @extend_schema(
        summary="Start a game (a random deal unless you give a seed)", request=NewGameInput
    )
    def post(self, request: Request) -> Response:
        def action() -> Response:
            data = valid(NewGameInput, body(request))
            outcome = services.create_game(
                user=request.user, variant_slug=data["variant"], seed=data.get("seed")
            )
            return Response(
                selectors.game_representation(outcome.game, outcome.state),
                status=status.HTTP_201_CREATED,
            )

        return respond_once(request, action)


class GameDetailView(APIView):
    @extend_schema(summary="One of your games: the board as you see it and the legal moves")
    def get(self, request: Request, game_id: int) -> Response:
        return Response(selectors.game_representation(selectors.own_game(request.user, game_id)))


class GameMovesView(APIView):
    @extend_schema(summary="The game's whole history")
    def get(self, request: Request, game_id: int) -> Response:
        return Response(selectors.history(selectors.own_game(request.user, game_id)))

    @extend_schema(summary="Make a move (validated by the rules engine)", request=MoveInput)
    def post(self, request: Request, game_id: int) -> Response:
        def action() -> Response:
            data = valid(MoveInput, body(request))
            outcome = services.play_move(
                user=request.user,
                game_id=game_id,
                move=data["move"],
                expected_move_number=data.get("expected_move_number"),
            )
            return Response(
                selectors.game_representation(outcome.game, outcome.state, outcome.events),
                status=status.HTTP_201_CREATED,
            )

        return respond_once(request, action)


class GameActionView(APIView):
    """Undo and resign: no body beyond an optional ``expected_move_number``."""

    service = staticmethod(services.undo_move)

    @extend_schema(request=ActionInput)
    def post(self, request: Request, game_id: int) -> Response:
        def action() -> Response:
            data = valid(ActionInput, body(request))
            outcome = self.service(
                user=request.user,
                game_id=game_id,
                expected_move_number=data.get("expected_move_number"),
            )
            return Response(
                selectors.game_representation(outcome.game, outcome.state, outcome.events)
            )

        return respond_once(request, action)


class GameUndoView(GameActionView):
    service = staticmethod(services.undo_move)


class GameResignView(GameActionView):
    service = staticmethod(services.resign_game)


class GameReplayView(APIView):
    @extend_schema(summary="The board at a step of the history", parameters=[ReplayQuery])
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.own_game(request.user, game_id)
        step = valid(ReplayQuery, request.query_params).get("step", game.move_number)
        return Response(selectors.replay_view(game, step))


class StatsView(APIView):
    @extend_schema(summary="Your results per game")
    def get(self, request: Request) -> Response:
        return Response(selectors.player_stats(request.user))
