"""The hint service: a player's hints, one search at a time, each worked out from what the
player can see (the look-ahead, ``games.solver.lookahead``, outside any transaction) and counted
on the game."""

from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.db import connection

from games.core.history import (
    positions_seen,
)
from games.errors import GameError
from games.models import Game
from games.play import hint_pool, responses
from games.play.services import Outcome, act_on_game
from games.rules import Move, State, Variant, get_variant
from games.rules.rule_of_thumb import describe
from games.solver.lookahead import HEURISTIC, LookaheadHint, lookahead_hint, seen_views


@dataclass(frozen=True)
class GivenHint:
    """A suggested move (None: nothing to suggest) and the game it was asked of."""

    game: Game
    move: Move | None
    message: str
    source: str = HEURISTIC
    lost: bool = False

    def body(self) -> responses.Hint:
        return self.to_json()

    def to_json(self) -> responses.Hint:
        return {
            "move": self.move.to_json() if self.move else None,
            "message": self.message,
            "source": self.source,
            "lost": self.lost,
            "move_number": self.game.move_number,
            "hints": self.game.hint_count,
        }


@dataclass(frozen=True)
class WorkedOut:
    """A look-ahead hint and the version of the game it was worked out for."""

    game_id: int
    move_number: int
    hint: LookaheadHint
    #: The id of the process that worked it out: a hint process (``games.play.hint_pool``),
    #: or this one (``HINT_PROCESSES`` 0, or the rule-of-thumb hint when the pool gave none).
    pid: int


@contextmanager
def one_search_at_a_time(user: AbstractBaseUser, address: str | None = None) -> Iterator[None]:
    """Hold the player's one claim on a hint search, and one of its client ``address``'s (as
    its budgets count it, ``games.play.throttling.counted_address``)
    ``HINT_SEARCHES_PER_ADDRESS`` claims (in the cache, so over every server process), for
    the ``with`` block. A hint asked meanwhile by the same player (another tab, a script's
    threads), or by a player at an address whose claims are all held (a crowd of guests made
    there), is refused at once, ``hint_in_progress`` (429, Retry-After about a search's time),
    rather than queued: waiting would hold a request thread per request. A claim lapses by
    itself after a few searches' time should its process die."""
    seconds = max(10, math.ceil(5 * settings.HINT_SECONDS))
    key = f"games:hint-search:{user.pk}"
    if not cache.add(key, 1, seconds):
        raise _in_progress(
            "A hint is already being worked out for you. Try again once it has been given."
        )
    try:
        with _address_claim(address, seconds):
            yield
    finally:
        cache.delete(key)


@contextmanager
def _address_claim(address: str | None, seconds: int) -> Iterator[None]:
    """One of the address's numbered claims, the first free one (``cache.add`` is atomic:
    two requests never hold the same one); refused when every one is held."""
    searches = settings.HINT_SEARCHES_PER_ADDRESS
    if address is None or not searches:
        yield
        return
    counted = hashlib.sha256(address.encode()).hexdigest()[:32]
    claims = (f"games:hint-search-address:{counted}:{slot}" for slot in range(searches))
    held = next((claim for claim in claims if cache.add(claim, 1, seconds)), None)
    if held is None:
        # Later than a player's own (a search's time): the address's claims are taken in
        # turns by everyone there, and a crowd retrying each second sent a refusal per player
        # a second (40 guests: 26 a second, which slowed another player's reads as much as
        # the hints had).
        raise _in_progress(
            f"Hints are already being worked out for {searches} players at your address, the "
            "most at once. Try again in a moment.",
            retry_after=max(1, math.ceil(ADDRESS_RETRY_SEARCHES * settings.HINT_SECONDS)),
        )
    try:
        yield
    finally:
        cache.delete(held)


#: A hint refused because its address's searches are all running says to come back after
#: this many searches' time.
ADDRESS_RETRY_SEARCHES = 5


def _in_progress(message: str, retry_after: int | None = None) -> GameError:
    if retry_after is None:
        retry_after = max(1, math.ceil(settings.HINT_SECONDS))
    return GameError("hint_in_progress", message, retry_after=retry_after)


def work_out_hint(
    *, user: AbstractBaseUser, game_id: int, expected_move_number: int | None = None
) -> WorkedOut:
    """The look-ahead hint for a casual game as it stands, searched with no transaction open
    and no row locked: the game is read (and checked: the player's, in play, casual) in a short
    transaction, and the search (``games.solver.lookahead``, at most ``HINT_SECONDS``) runs after
    it ends, in a hint process (``games.play.hint_pool``; ``HINT_PROCESSES`` 0: in this
    thread). Nothing is counted; ``request_hint`` does that. Raises the refusals
    ``request_hint`` gives."""

    def read(game: Game) -> tuple[Game, Variant, State, set[State]]:
        refuse_ranked(game)
        variant = get_variant(game.deal.variant)
        return game, variant, variant.state_from_json(game.state), _positions_seen(variant, game)

    game, variant, state, seen = act_on_game(
        user, game_id, expected_move_number, read, action="hint"
    )
    version = game.move_number
    if not connection.in_atomic_block:
        # Give the connection back (to the pool, on PostgreSQL) while the search runs.
        connection.close()
    hint, pid = _look_ahead(variant, state, seen)
    return WorkedOut(game.pk, version, hint, pid)


def _look_ahead(variant: Variant, state: State, seen: set[State]) -> tuple[LookaheadHint, int]:
    """The look-ahead hint and the id of the process that worked it out. A hint process is
    sent the player's view and the views of the game's earlier positions, never the state
    (face-down cards, the seed); when the pool cannot answer in time (busy, its process dead,
    late) the hint is the rule-of-thumb one, at once."""
    seconds = float(settings.HINT_SECONDS)
    if settings.HINT_PROCESSES <= 0:
        return lookahead_hint(variant, state, seen, seconds), os.getpid()
    if seconds > 0:
        view = variant.player_view(state)
        found = hint_pool.search(variant.slug, view, seen_views(variant, seen), seconds)
        if found is not None:
            return found
    return _rule_of_thumb(variant, state, seen), os.getpid()


def _rule_of_thumb(variant: Variant, state: State, seen: set[State]) -> LookaheadHint:
    move = variant.hint(state, seen)
    return LookaheadHint(move, describe(variant, state, move), HEURISTIC)


def request_hint(
    *,
    user: AbstractBaseUser,
    game_id: int,
    expected_move_number: int | None = None,
    worked_out: WorkedOut | None = None,
    search: bool = True,
) -> GivenHint:
    """Suggest a move in a casual game and count it. The board and its version do not
    change; the player's other tabs get the game with its new count (same ``move_number``,
    more ``counts.hints``).

    The hint is ``worked_out`` (by default, ``work_out_hint`` now, before any lock is taken;
    ``search=False``: none unless given) when it was worked out for the version the game is
    still at; otherwise, as when the game moved meanwhile, the rule-of-thumb hint
    (``Variant.hint``, ``games.rules.rule_of_thumb``), which needs no search: no search ever
    runs under the game's lock. Only a hint that suggests a move is counted against the
    player: one with none (every move leads back, or the position is proven lost) gives no
    help with the game, so "This position can no longer be won" costs nothing (issue 46)."""
    if worked_out is None and search:
        worked_out = work_out_hint(
            user=user, game_id=game_id, expected_move_number=expected_move_number
        )

    def act(game: Game) -> GivenHint:
        refuse_ranked(game)
        variant = get_variant(game.deal.variant)
        state = variant.state_from_json(game.state)
        if (
            worked_out is not None
            and worked_out.game_id == game.pk
            and worked_out.move_number == game.move_number
        ):
            look = worked_out.hint
        else:
            look = _rule_of_thumb(variant, state, _positions_seen(variant, game))
        if look.move is not None:
            game.hint_count += 1
            game.save(update_fields=["hint_count"])
            Outcome(game, state, [{"type": "hinted"}]).schedule_live_update()
        return GivenHint(game, look.move, look.message, look.source, look.lost)

    return act_on_game(user, game_id, expected_move_number, act, action="hint")


def refuse_ranked(game: Game) -> None:
    if game.ranked:
        raise GameError("hints_not_allowed", "Ranked games have no hints.")


def _positions_seen(variant: Variant, game: Game) -> set[State]:
    entries = game.moves.order_by("number").values_list("payload", flat=True)
    return positions_seen(variant, game.deal, entries)
