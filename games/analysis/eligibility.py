"""When a game may be analysed: once it, its day and its race are over. An analysis shows
every card (the solver's line, which positions could be won), so before then nothing of it
exists, and nothing of it is answered (games/rules/RULINGS.md §Solutions and hints).

``HOLDS`` are the checks beyond the game's own end, each answering why the game may not be
analysed yet (or None): a daily deal's day (``core.sealing``: a ranked attempt, a casual
replay of the day's deal, any game dealt a deal that is still a day's challenge). Races add
theirs here (``HOLDS.append``): a race's game waits for the race to end.
"""

from __future__ import annotations

from collections.abc import Callable

from games.core import sealing
from games.errors import GameError
from games.models import Game

#: Why a finished game may not be analysed yet, or None.
Hold = Callable[[Game], str | None]


def _day_open(game: Game) -> str | None:
    if sealing.game_sealed(game):
        return "This deal is a daily challenge: it can be analysed once its day has closed."
    return None


HOLDS: list[Hold] = [_day_open]


def refusal(game: Game) -> GameError | None:
    """Why ``game`` may not be analysed now (``game_in_play``, or ``not_yet`` for its day or
    race), or None when it may."""
    if not game.is_finished:
        return GameError("game_in_play", "A game can be analysed once it is over.")
    for hold in HOLDS:
        if (reason := hold(game)) is not None:
            return GameError("not_yet", reason)
    return None


def check(game: Game) -> None:
    """Refuse (``refusal``) unless ``game`` may be analysed now."""
    if (error := refusal(game)) is not None:
        raise error
