"""What a race's game refuses beyond a casual game's rules, hooked into the play service's
checks (``games.play.services.ACTION_RULES``, ``AFTER_ACTION``) so that no path of a move
(REST, the game's websocket) can skip them: a move or an undo before the countdown has ended
(409 ``race_not_started``), a hint ever (409 ``hints_not_allowed``: a race is between the
players), an undo in a room that turned it off (409 ``undo_not_allowed``). After an action of a
race's game, the race is settled and its room told, once the action has committed.

Also the analysis's hold (``games.analysis.eligibility.HOLDS``): a race's game is analysed
once the race is over, as every game of it shows the same deal."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from games.errors import GameError
from games.models import Game
from games.races import live, selectors
from games.races.models import Race

#: The race of a game and its player's entry, looked up once per action and kept on the
#: locked instance.
_RACE = "_patience_race"
_ENTRY = "_patience_race_entry"


def race_of(game: Game) -> Race | None:
    """The race ``game`` is a player's game of, or None: one indexed read per action of a
    race's game, none for any other game (``Game.in_race``)."""
    if not game.in_race:
        return None
    if _RACE not in game.__dict__:
        entry = selectors.entry_of_game(game.pk)
        game.__dict__[_RACE] = entry.race if entry is not None else None
        game.__dict__[_ENTRY] = entry
    return game.__dict__[_RACE]


def refuse(game: Game, action: str) -> None:
    race = race_of(game)
    if race is None:
        return
    if action == "hint":
        raise GameError("hints_not_allowed", "Races have no hints: the race is between you.")
    if action == "undo" and not race.undo:
        raise GameError("undo_not_allowed", "This race's room plays without undo.")
    if action in ("move", "undo") and race.starts_at and timezone.now() < race.starts_at:
        raise GameError(
            "race_not_started",
            "The race has not started yet: moves are taken once the countdown ends.",
            starts_at=race.starts_at.isoformat().replace("+00:00", "Z"),
        )


def after(game: Game) -> None:
    race = game.__dict__.get(_RACE)
    if race is None or race.state == Race.State.FINISHED:
        return
    from games.races import services  # not at the top: services imports the play services

    # Most actions leave their game in play in a running race: only a game done racing, the
    # countdown's end or the time limit can change the race; any other needs no settling
    # (its lock and every game's row), only the room told of the progress.
    settle_first = (
        race.state != Race.State.RUNNING
        or services.done(game)
        or race.ends_at is None
        or timezone.now() >= race.ends_at
    )
    if settle_first:
        transaction.on_commit(lambda: services.settle_and_publish(race.pk), robust=True)
        return
    # Only this player's progress changed: the room is told that alone, from what this
    # action already holds (no read of the race or of the other players).
    entry = game.__dict__[_ENTRY]
    entry.game = game
    transaction.on_commit(lambda: live.publish_progress(entry, race), robust=True)


def race_not_over(game: Game) -> str | None:
    race = race_of(game)
    if race is not None and race.state != Race.State.FINISHED:
        return "This game is in a race: it can be analysed once the race is over."
    return None


def seed_held(game: Game) -> bool:
    """A race's game keeps its seed (and its replay its cards) hidden until the race is over,
    even once the game itself is: the other players are still on its deal."""
    race = race_of(game)
    return race is not None and race.state != Race.State.FINISHED


def game_extras(game: Game) -> dict[str, Any]:
    """What a race's game's answer adds: its race's code and rules (nothing of the others)."""
    race = race_of(game)
    if race is None:
        return {}
    extras: dict[str, Any] = {
        "race": {
            "code": race.code,
            "link": f"/races/{race.code}/",
            "undo": race.undo,
            "hints": False,
        }
    }
    if not race.undo:
        extras["can_undo"] = False
    return extras


def install() -> None:
    """Hook the rules in (``GamesConfig.ready``); once, however often it is called."""
    from games.analysis import eligibility
    from games.play import selectors as play_selectors
    from games.play import services as play_services

    if seed_held not in play_selectors.SEED_HOLDS:
        play_selectors.SEED_HOLDS.append(seed_held)
        play_selectors.GAME_EXTRAS.append(game_extras)
    if refuse not in play_services.ACTION_RULES:
        play_services.ACTION_RULES.append(refuse)
        play_services.AFTER_ACTION.append(after)
    if race_not_over not in eligibility.HOLDS:
        # Before the day's hold, whose words are a daily deal's (a race's deal is sealed too).
        eligibility.HOLDS.insert(0, race_not_over)
