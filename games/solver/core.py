"""The solver's compiled search core (``games/solver/_core.c``, built by ``pip install -e .``):
the same search as ``search._Search`` on a packed position, 30-plus times faster.

The core is a second implementation of each game's rules (legal moves and their order,
successors and their automatic effects) and of the search's tactics (canonical key, safe
moves, evaluation, narrow pass), told each game's building rules, piles and routes here from
the engine's own declarations. ``tests/solver/test_core_differential.py`` compares it with
the engine position by position and with the Python search (``search._Search``, kept as the
reference) deal by deal. ``search.solve`` uses it for the games that declare how it plays them
(their module's ``solver.core``, a ``games.rules.solving.CorePlay``); every line it finds is
replayed through the engine's ``play`` before it is returned.

The core is configured by name: ``CoreRules`` holds the fields ``_core.Rules`` takes, each a
required keyword (the C's ``RULES_FIELDS``), read from the game's declarations alone
(``core_rules``); a field misnamed, missing or extra fails at once.

A packed position is bytes: the base rank (0: none), then per pile, in the variant's pile
order, its card count, its face-down count and its cards bottom to top.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cache
from typing import Any

from games.rules import DEAL, Move, State, Variant, solving
from games.rules.building import ALTERNATE_COLOURS, ANY_SUIT, SAME_SUIT, Build

from . import deadends
from .tactics import SAFE_CODES, Pass

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

_KINDS = ("stock", "waste", "reserve", "discard", "foundation", "tableau")
_SUITS = {ANY_SUIT: 0, ALTERNATE_COLOURS: 1, SAME_SUIT: 2}
_START = {None: 0, "ace": 1, "base_rank": 2}
#: The core's numbers for each stock action and automatic effect a game declares
#: (``CorePlay``; the C's DEAL_* and SETTLE_*).
_DEALS = {solving.DEAL_NONE: 0, solving.DEAL_TO_WASTE: 1, solving.DEAL_TO_PILES: 2}
_SETTLES = {solving.SETTLE_TURN_UP: 0, solving.SETTLE_REFILL: 1, solving.SETTLE_RUNS: 2}


@dataclass(frozen=True)
class CoreRules:
    """One game as ``_core.Rules`` is told it, each field a keyword of the same name."""

    #: Each pile's kind (its index in ``_KINDS``), in the variant's pile order.
    kinds: bytes
    #: ``_KINDS`` squared: 1 where a card may move from the first kind to the second.
    routes: bytes
    #: The tableau's, the group's and the foundation's building rules, 4 bytes each.
    builds: bytes
    #: Per pile, the rank at which a foundation is complete (0: at 13 cards).
    complete: bytes
    foundation_start: int
    deal_count: int
    deal_mode: int
    settle_mode: int
    tableau_always_interchangeable: bool
    foundations_interchangeable: bool
    refills_emptied_piles: bool
    sets_base_rank: bool
    keyed_by_colour: bool
    discard_out_of_key: bool
    safe_home: int
    folds_deals: bool
    reserve_dead_end: bool

    def keywords(self) -> dict[str, Any]:
        return {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}


def core_rules(variant: Variant) -> CoreRules:
    """What the core is told of ``variant``, from its declarations: its piles, routes and
    building rules, and its module's ``solver`` profile (its ``core``: how the core plays its
    stock action and automatic effects). ValueError for a game the core does not play."""
    profile = variant.solver
    if profile.core is None:
        raise ValueError(f"the compiled core does not play {variant.name}")
    routes = bytearray(len(_KINDS) ** 2)
    for source, target in variant.routes:
        routes[_KINDS.index(source) * len(_KINDS) + _KINDS.index(target)] = 1
    return CoreRules(
        kinds=bytes(_KINDS.index(kind) for kind in variant.kinds),
        routes=bytes(routes),
        builds=_build(variant.tableau) + _build(variant.group) + _build(variant.foundation),
        complete=bytes(variant.complete_rank(i) or 0 for i in range(len(variant.pile_ids))),
        foundation_start=_START[variant.foundation_start],
        deal_count=variant.deal_count,
        deal_mode=_DEALS[profile.core.deal],
        settle_mode=_SETTLES[profile.core.settle],
        tableau_always_interchangeable=profile.tableau_always_interchangeable,
        foundations_interchangeable=profile.foundations_interchangeable,
        refills_emptied_piles=profile.refills_emptied_piles,
        sets_base_rank=variant.foundation_start == "base_rank",
        keyed_by_colour=profile.keyed_by_colour,
        discard_out_of_key=profile.discard_out_of_key,
        safe_home=SAFE_CODES[profile.safe_home],
        folds_deals=profile.folds_deals,
        reserve_dead_end=deadends.applies(variant),
    )


def plays(variant: Variant) -> bool:
    """Whether the core plays ``variant`` (built or not): its module declares how."""
    return variant.solver.core is not None


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
        self.rules = _core.Rules(**core_rules(variant).keywords())
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
    if _core is None or not plays(variant):
        return None
    return Core(variant)
