"""The analyses' reads: a game's analysis as its player is shown it, and the boards of the
solver's winning line. Only ever for the game's own player, and only once the game, its day
and its race are over (``eligibility``): before then nothing of an analysis is answered,
not even whether one exists."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from games.analysis import eligibility, responses, words
from games.analysis.models import Analysis
from games.core.history import line_of_play
from games.errors import GameError
from games.models import Game, Move
from games.rules import get_variant


def analysable_game(user: AbstractBaseUser, game_id: int) -> Game:
    """The player's game, once it may be analysed; anyone else's is ``not_found``."""
    game = Game.objects.select_related("deal", "daily").filter(pk=game_id, owner=user).first()
    if game is None:
        raise GameError("not_found", "There is no such game.")
    eligibility.check(game)
    return game


def analysis_view(game: Game, step: int | None = None) -> responses.AnalysisView:
    """The game's analysis (``not_asked`` when none was asked for); with ``step``, also the
    board after that many moves of the solver's winning line."""
    analysis = Analysis.objects.filter(game=game).first()
    if analysis is None:
        if step is not None:
            raise GameError("no_analysis", "This game has not been analysed.")
        return _view(game, "not_asked", 0, 0, None)
    result = None
    if analysis.state == Analysis.State.DONE and analysis.result:
        result = _result(game, analysis.result)
    body = _view(game, analysis.state, analysis.searched, analysis.expected, result)
    if step is not None:
        length = len(result["line"]) if result else 0
        if result is None or not result["line"] or step > length:
            raise GameError(
                "invalid_step",
                f"Choose a step of the solver's line, from 0 to {length}."
                if length
                else "This analysis has no winning line to step through.",
            )
        body.update(step=step, board=_board(game, result, step))
    return body


def _view(
    game: Game, state: str, searched: int, expected: int, result: responses.AnalysisResult | None
) -> responses.AnalysisView:
    return {
        "game_id": game.pk,
        "state": state,  # type: ignore[typeddict-item]
        "searched": searched,
        "expected": expected,
        "progress": words.progress(state, searched, expected),
        "result": result,
    }


def _standing_line(game: Game) -> list[Any]:
    variant = get_variant(game.deal.variant)
    entries = Move.objects.filter(game=game).order_by("number").values_list("payload", flat=True)
    return line_of_play(variant, game.deal, list(entries))


def _result(game: Game, stored: dict[str, Any]) -> responses.AnalysisResult:
    variant = get_variant(game.deal.variant)
    line = stored.get("line") or []
    start = stored.get("line_from")
    said: list[str] = []
    if line and start is not None:
        said = words.line_in_words(variant, _standing_line(game)[start["position"]], line)
    lost, winnable = stored.get("lost"), stored.get("winnable")
    return {
        "kind": stored["kind"],
        "summary": words.summary(stored),
        "moves": stored["moves"],
        "winnable": winnable,
        "lost": lost,
        "losing_step": lost["step"] if stored["kind"] == "lost_at" else None,
        "line_from": start if line else None,
        "line": line,
        "said": said,
        "length": len(line),
        "searches": len(stored.get("searches", [])),
    }


def _board(game: Game, result: responses.AnalysisResult, step: int) -> Any:
    variant = get_variant(game.deal.variant)
    assert result["line_from"] is not None
    state = _standing_line(game)[result["line_from"]["position"]]
    for move in result["line"][:step]:
        state = variant.apply(state, move)
    return variant.state_to_json(state)
