"""``/api/games/<id>/analysis/``: ask for a finished game's analysis (POST), read it (GET)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.analysis import selectors, services
from games.analysis.responses import AnalysisView
from games.analysis.throttling import AnalysisThrottle, too_many_analyses
from games.errors import GameError
from games.inputs import ReplayQuery
from web.http.errors import ApiErrorBody

ERRORS = {400: ApiErrorBody, 404: ApiErrorBody, 409: ApiErrorBody}


class GameAnalysisView(APIView):
    throttle_classes = [AnalysisThrottle]  # POST only
    throttle_scope = "analysis"

    def throttled(self, request: Request, wait: float | None) -> None:
        raise too_many_analyses(wait)

    @extend_schema(
        summary="A finished game's analysis: where it was lost (its state, progress, result)",
        operation_id="games_analysis",
        parameters=[ReplayQuery],
        responses={200: AnalysisView, **ERRORS},
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.analysable_game(request.user, game_id)
        query = ReplayQuery(data=request.query_params)
        if not query.is_valid():
            raise GameError("invalid_step", "Choose a step of the solver's line: 0 or more.")
        return Response(selectors.analysis_view(game, query.validated_data.get("step")))

    @extend_schema(
        summary="Ask for a finished game's analysis (made once, by the worker)",
        operation_id="games_analysis_ask",
        request=None,
        responses={200: AnalysisView, 202: AnalysisView, **ERRORS, 429: ApiErrorBody},
    )
    def post(self, request: Request, game_id: int) -> Response:
        analysis, made = services.request_analysis(request.user, game_id)
        body = selectors.analysis_view(analysis.game)
        return Response(body, status=202 if made else 200)
