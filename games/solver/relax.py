"""Proofs of loss by relaxation: a game whose moves contain the real game's, searched to the end.

A relaxed game here plays on the real game's positions, merged (``canonical``) where the
relaxation forgets something, with a move set that holds every real move: from the merged
image of a real position, every real move leads to the merged image of the real position it
reaches, and a won position's image is won. So a real winning line from a position is a
relaxed winning line from its image, and a relaxed search that runs out of positions without a
win proves the real position lost. A relaxed win proves nothing. Which relaxations a game
allows is its own declaration (its module's ``solver.relaxations``, ``games.rules.solving``'s
``RELAX_*``):

- ``RELAX_WASTE_SET``: the waste is a set. Its cards are kept sorted, and any of them may be
  played as if on top (the position with that card on top, the rest sorted, is searched). The
  rules read only the waste's top card (a card played from it, an emptied pile refilled from
  it) and carry the rest unchanged, so the real move from a waste whose top is ``c`` is the
  relaxed move with ``c`` on top, to the image of the real result.
- ``RELAX_ANY_RUN``: a group that runs down by the tableau's building rule moves as a unit
  (the real groups, which must also keep to the group's rule, are among them); what the
  group's rule decides otherwise (Grounds for Divorce's finished runs) is as in the real game.
- ``RELAX_DEAL_ANYWAY``: a deal is allowed whenever the stock has cards (the real game may
  block it: Grounds for Divorce's empty piles); it deals as the real one does.

The search is exhaustive: depth first, every relaxed move tried, no safe move and no other
pruning but the game's canonical key (``tactics.Tactics.key``: piles and cards the rules do not
tell apart, which the relaxed moves, being the engine's moves on such positions, do not tell
apart either). The Python search is the implementation (no compiled core);
``tests/solver/test_relax.py`` checks it against an exhaustive search of the real game and
that every real move maps to a relaxed one.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from functools import cache
from typing import Any

from games.rules import Move, State, Variant, solving
from games.rules.state import Pile

from .evaluation import Evaluator
from .tactics import Tactics, passes_for

WON, LOST, UNKNOWN = "won", "lost", "unknown"
CLOCK_EVERY = 256


def name(relaxation: tuple[str, ...]) -> str:
    """How a relaxed game is named in an answer's ``proof``: "relaxation: waste-set"."""
    return "relaxation: " + " + ".join(relaxation)


@cache
def loosened(variant: Variant, any_run: bool, deal_anyway: bool) -> Variant:
    """``variant`` with the looser rules of ``RELAX_ANY_RUN`` and ``RELAX_DEAL_ANYWAY``: an
    instance of a subclass of its own class (so every other rule is the game's own)."""
    if not (any_run or deal_anyway):
        return variant
    base = type(variant)
    namespace: dict[str, Any] = {}
    if any_run:
        group, tableau = variant.group, variant.tableau
        if group is None or not all(
            tableau.fits(card, onto)
            for card in range(52)
            for onto in range(52)
            if group.fits(card, onto)
        ):
            raise ValueError(f"{variant.name}: its groups are not runs of its tableau")

        def _movable(self: Variant, pile: Pile, s: int) -> int:
            if self.kinds[s] != "tableau":
                return 1
            return self.tableau.run_length(pile.cards, len(pile.cards) - pile.face_down)

        def _refusal(self: Variant, state: State, s: int, t: int, count: int) -> str | None:
            code = base._refusal(self, state, s, t, count)
            cards = state.piles[s].cards
            if code != "not_a_sequence" or self.tableau.run_length(cards, count) < count:
                return code
            # A group goes between tableau piles only (checked before the sequence).
            onto = state.piles[t].cards
            if onto:
                return self.tableau.refusal(cards[-count], onto[-1])
            return "empty_shuffle" if count == len(cards) else None

        namespace |= {"_movable": _movable, "_refusal": _refusal}
    if deal_anyway:

        def _deal_refusal(self: Variant, state: State) -> str | None:
            if self.stock_i is None:
                return "no_stock"
            return None if state.piles[self.stock_i].cards else "stock_empty"

        namespace["_deal_refusal"] = _deal_refusal
    return type(f"Relaxed{base.__name__}", (base,), namespace)()


class Relaxed:
    """One relaxed game of ``variant`` (a tuple of ``RELAX_*``)."""

    def __init__(self, variant: Variant, relaxation: tuple[str, ...]) -> None:
        unknown = set(relaxation) - {
            solving.RELAX_WASTE_SET,
            solving.RELAX_ANY_RUN,
            solving.RELAX_DEAL_ANYWAY,
        }
        if unknown:
            raise ValueError(f"unknown relaxations {sorted(unknown)}")
        self.relaxation = relaxation
        self.variant = loosened(
            variant,
            solving.RELAX_ANY_RUN in relaxation,
            solving.RELAX_DEAL_ANYWAY in relaxation,
        )
        self.waste = variant.waste_i if solving.RELAX_WASTE_SET in relaxation else None
        if solving.RELAX_WASTE_SET in relaxation and self.waste is None:
            raise ValueError(f"{variant.name} has no waste to relax")
        self.tactics = Tactics(variant)
        self.evaluator = Evaluator(variant, passes_for(variant)[0].weights)

    # -- the relaxed game -------------------------------------------------------------

    def canonical(self, state: State) -> State:
        """The image of a position: its waste sorted (``RELAX_WASTE_SET``), else itself."""
        if self.waste is None:
            return state
        waste = state.piles[self.waste].cards
        keycard = self.tactics.keycard
        ordered = tuple(sorted(waste, key=lambda card: (keycard[card], card)))
        if ordered == waste:
            return state
        piles = list(state.piles)
        piles[self.waste] = Pile(ordered)
        return state._replace(piles=tuple(piles))

    def tops(self, state: State) -> list[State]:
        """The positions the relaxed game plays on from ``state``: with the waste as a set,
        one per card (as the key knows cards) the waste holds, that card on top; else
        ``state``."""
        if self.waste is None or not state.piles[self.waste].cards:
            return [state]
        waste = state.piles[self.waste].cards
        keycard = self.tactics.keycard
        found: list[State] = []
        seen: set[int] = set()
        for k, card in enumerate(waste):
            if keycard[card] in seen:
                continue
            seen.add(keycard[card])
            piles = list(state.piles)
            piles[self.waste] = Pile((*waste[:k], *waste[k + 1 :], card))
            found.append(state._replace(piles=tuple(piles)))
        return found

    def moves(self, state: State) -> Iterator[tuple[State, Move]]:
        """Each relaxed move from the image ``state``: the position it is made on (a card of
        the waste on top) and the engine's move there. A move that neither leaves the waste
        nor changes it reads no waste card, and is listed once."""
        variant = self.variant
        tops = self.tops(state)
        first = tops[0]
        readers = []
        for move in variant.legal_moves(first):
            if self.waste is not None and move.source == variant.pile_ids[self.waste]:
                continue
            yield first, move
            if self.waste is not None and len(tops) > 1 and move.type == "move":
                after = variant.successor(first, move)
                if after.piles[self.waste].cards != first.piles[self.waste].cards:
                    readers.append(move)  # it took the waste's top (a refill)
        if self.waste is None:
            return
        waste_id = variant.pile_ids[self.waste]
        for k, top in enumerate(tops):
            for move in variant.legal_moves(top):
                if move.source == waste_id:
                    yield top, move
            if k:
                for move in readers:
                    yield top, move

    def children(self, state: State) -> Iterator[State]:
        for on, move in self.moves(state):
            yield self.canonical(self.variant.successor(on, move))

    def is_won(self, state: State) -> bool:
        return self.variant.is_won(state)


def search(
    variant: Variant, state: State, relaxation: tuple[str, ...], positions: int, seconds: float
) -> tuple[str, int]:
    """Search the relaxed game from the image of ``state`` to the end: (``LOST`` when it has
    no win, so that ``state`` is lost; ``WON`` when it has one, which proves nothing;
    ``UNKNOWN`` when the budget ran out), and the positions made."""
    game = Relaxed(variant, relaxation)
    deadline = time.perf_counter() + seconds
    start = game.canonical(state)
    if game.is_won(start):
        return WON, 0
    key, score = game.tactics.key, game.evaluator.score
    seen = {key(start)}
    stack = [start]
    made, next_look = 0, CLOCK_EVERY
    while stack:
        children = []
        for child in game.children(stack.pop()):
            made += 1
            if game.is_won(child):
                return WON, made
            if made >= positions:
                return UNKNOWN, made
            if made >= next_look:
                next_look += CLOCK_EVERY
                if time.perf_counter() >= deadline:
                    return UNKNOWN, made
            child_key = key(child)
            if child_key not in seen:
                seen.add(child_key)
                children.append((score(child), child))
        children.sort(key=lambda pair: pair[0])  # best last: popped first
        stack.extend(child for _, child in children)
    return LOST, made
