"""The solver's compiled search core (``games/solver/_core.c``, built by ``pip install -e .``):
the same search as ``search._Search`` on a packed position, 30-plus times faster.

The core is a second implementation of each game's rules (legal moves and their order,
successors and their automatic effects) and of the search's tactics (canonical key, safe
moves, evaluation, narrow pass), told each game's building rules, piles and routes here from
the engine's own declarations. ``tests/solver/test_core_differential.py`` compares it with
the engine position by position and with the Python search (``search._Search``, kept as the
reference) deal by deal. ``search.solve`` uses it for the games in ``SUPPORTED``; every line it
finds is replayed through the engine's ``play`` before it is returned.

A packed position is bytes: the base rank (0: none), then per pile, in the variant's pile
order, its card count, its face-down count and its cards bottom to top.
"""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any

from games.rules import DEAL, Move, State, Variant
from games.rules.building import ALTERNATE_COLOURS, ANY_SUIT, SAME_SUIT, Build

from .tactics import (
    DISCARD_OUT_OF_KEY,
    FOLDS_DEALS,
    FOUNDATIONS_INTERCHANGEABLE,
    KEYED_BY_COLOUR,
    REFILLS_EMPTIED_PILES,
    SAFE_AWAY,
    SAFE_HOME,
    TABLEAU_ALWAYS_INTERCHANGEABLE,
    Pass,
)

try:
    from . import _core
except ImportError as error:  # the extension was not built: said at start (games.apps)
    _core = None
    IMPORT_ERROR: str | None = str(error)
else:
    IMPORT_ERROR = None

AVAILABLE = _core is not None
FIX = "run `.venv/bin/python -m pip install --no-deps -e .` (bin/run and bin/test do it)"
MISSING = (
    "The solver's compiled core (games/solver/_core.c) is not built, so the solver would "
    f"search at a thirtieth of its speed: {FIX}."
)

#: The games the core plays: each passed the differential test against the engine.
SUPPORTED = frozenset(
    {
        "gold-mine",
        "selective-castle",
        "grandfathers-clock",
        "blondes-and-brunettes",
        "grounds-for-divorce",
    }
)

_KINDS = ("stock", "waste", "reserve", "discard", "foundation", "tableau")
_SUITS = {ANY_SUIT: 0, ALTERNATE_COLOURS: 1, SAME_SUIT: 2}
_START = {None: 0, "ace": 1, "base_rank": 2}
DEAL_NONE, DEAL_TO_WASTE, DEAL_TO_PILES = 0, 1, 2
SETTLE_TURN_UP, SETTLE_REFILL, SETTLE_RUNS = 0, 1, 2
#: What each game's module overrides of ``Variant``'s stock action and automatic effects.
HOOKS: dict[str, tuple[int, int]] = {
    "gold-mine": (DEAL_TO_WASTE, SETTLE_TURN_UP),
    "selective-castle": (DEAL_NONE, SETTLE_TURN_UP),
    "grandfathers-clock": (DEAL_NONE, SETTLE_TURN_UP),
    # An emptied tableau pile takes the stock's top card, else the waste's.
    "blondes-and-brunettes": (DEAL_TO_WASTE, SETTLE_REFILL),
    # A deal gives one card to each pile; a finished same-suit run leaves for the discard.
    "grounds-for-divorce": (DEAL_TO_PILES, SETTLE_RUNS),
}


def _build(build: Build | None) -> bytes:
    if build is None:
        return bytes(4)
    return bytes((1, 0 if build.step < 0 else 1, _SUITS[build.suits], int(build.wrap)))


class Core:
    """One game as the core plays it."""

    def __init__(self, variant: Variant) -> None:
        if _core is None:
            raise RuntimeError(MISSING)
        self.variant = variant
        slug = variant.slug
        kinds = bytes(_KINDS.index(kind) for kind in variant.kinds)
        routes = bytearray(len(_KINDS) ** 2)
        for source, target in variant.routes:
            routes[_KINDS.index(source) * len(_KINDS) + _KINDS.index(target)] = 1
        builds = _build(variant.tableau) + _build(variant.group) + _build(variant.foundation)
        complete = bytes(variant.complete_rank(i) or 0 for i in range(len(variant.pile_ids)))
        deal_mode, settle_mode = HOOKS[slug]
        self.rules = _core.Rules(
            kinds,
            bytes(routes),
            builds,
            complete,
            _START[variant.foundation_start],
            variant.deal_count,
            deal_mode,
            settle_mode,
            int(slug in TABLEAU_ALWAYS_INTERCHANGEABLE),
            int(slug in FOUNDATIONS_INTERCHANGEABLE),
            int(slug in REFILLS_EMPTIED_PILES),
            int(variant.foundation_start == "base_rank"),
            int(slug in KEYED_BY_COLOUR),
            int(slug not in DISCARD_OUT_OF_KEY),
            SAFE_HOME.get(slug, SAFE_AWAY),
            int(slug in FOLDS_DEALS),
        )
        # The engine's Move for each (source, target, count) the core names, made the first
        # time it is met: making every one up front took Grandfather's Clock's Core 5,200 of
        # them (several ms, a search of a deal's worth).
        self._moves: dict[tuple[int, int, int], Move] = {(-1, -1, 0): DEAL}

    # -- conversions ----------------------------------------------------------------------

    @staticmethod
    def pack(state: State) -> bytes:
        out = bytearray((state.base_rank or 0,))
        for cards, face_down in state.piles:
            out.append(len(cards))
            out.append(face_down)
            out.extend(cards)
        return bytes(out)

    def move(self, triple: tuple[int, int, int]) -> Move:
        move = self._moves.get(triple)
        if move is None:
            s, t, count = triple
            ids = self.variant.pile_ids
            move = self._moves[triple] = Move("move", ids[s], ids[t], count)
        return move

    def number(self, move: Move) -> tuple[int, int, int]:
        if move.type == "deal":
            return (-1, -1, 0)
        index = self.variant.index
        return (index[move.source], index[move.target], move.count)

    # -- what the differential test compares ----------------------------------------------

    def legal_moves(self, state: State) -> list[Move]:
        return [self.move(triple) for triple in self.rules.legal_moves(self.pack(state))]

    def successor(self, state: State, move: Move) -> bytes:
        """The packed position after ``move`` (compare with ``pack(variant.successor(...))``)."""
        return self.rules.successor(self.pack(state), self.number(move))

    def key(self, state: State) -> bytes:
        return self.rules.key(self.pack(state))

    def safe_move(self, state: State, narrow: bool = False) -> Move | None:
        triple = self.rules.safe_move(self.pack(state), narrow)
        return None if triple is None else self.move(triple)

    def productive(self, state: State) -> list[Move]:
        return [self.move(triple) for triple in self.rules.productive(self.pack(state))]

    def score(self, state: State, settings: Pass) -> float:
        return self.rules.score(self.pack(state), _weights(settings))

    # -- the search ----------------------------------------------------------------------

    def search(
        self,
        state: State,
        settings: Pass,
        positions: int,
        seconds: float,
        view_only: bool = False,
    ) -> tuple[str, list[Move] | None, int]:
        """One pass: (outcome, the line when won, positions made), as ``search._Search``."""
        outcome, made, line = self.rules.search(
            self.pack(state),
            _weights(settings),
            dfs=settings.method == "dfs",
            move_cost=float(settings.move_cost),
            narrow=settings.narrow,
            positions=max(0, positions),
            seconds=max(0.0, seconds),
            view_only=view_only,
        )
        return outcome, self._line(line), made

    def search_best(
        self, state: State, settings: Pass, positions: int, seconds: float
    ) -> tuple[str, list[Move] | None, int, list[Move], float]:
        """``search``, and when it ends unknown the line to the first position it met with the
        highest score and that score (``[]`` and the start's score when none beat it; ``[]``
        when it ended won or lost), as ``search._Search`` with ``best``."""
        outcome, made, line, best, score = self.rules.search(
            self.pack(state),
            _weights(settings),
            dfs=settings.method == "dfs",
            move_cost=float(settings.move_cost),
            narrow=settings.narrow,
            positions=max(0, positions),
            seconds=max(0.0, seconds),
            best=True,
        )
        return outcome, self._line(line), made, self._line(best) or [], score

    def _line(self, line: list[tuple[int, int, int]] | None) -> list[Move] | None:
        return None if line is None else [self.move(triple) for triple in line]


@cache
def _weights(settings: Pass) -> tuple[Any, ...]:
    return tuple(float(value) for value in dataclasses.astuple(settings.weights))


@cache
def core_for(variant: Variant) -> Core | None:
    """The core for ``variant`` when it plays that game and is built, else None."""
    if _core is None or variant.slug not in SUPPORTED:
        return None
    return Core(variant)
