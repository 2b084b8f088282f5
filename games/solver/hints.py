"""Hints that look ahead: the first move of a win the solver finds, within a time cap.

A hint is a function of the player's view alone (games/rules/RULINGS.md §Solutions and hints).
``lookahead_hint`` takes the full state only to make that view (``player_view``, seed hidden)
and the views of the game's earlier positions; everything after that, ``hint_from_view``,
sees nothing else.

- **Open positions** (no card face down: Selective Castle and Grandfather's Clock always, the
  other games once their hidden cards are all out): the view is the whole position, and the
  solver searches it. A win: its first move is the hint. Proven lost (the whole space
  searched): the hint says so plainly and suggests no move, as no move can help. Unknown (the
  budget spent): today's hint (``games.rules.hints``).
- **Positions with hidden cards**: the cards the player has not seen (the deck(s) less every
  face-up card) are dealt at random into the face-down places, a few times, by a generator
  seeded from a hash of the view itself, so that the same board always gets the same deals
  and the same hint and the hint tells nothing the board does not. Each such deal is solved
  briefly (a share of the cap), and the hint is the move that starts a win in most of them;
  when none is won, today's hint. A loss in every sampled deal proves nothing of the real one,
  so a hidden position is never called lost.

A move back to a position the game has had is never suggested (as with today's hint); a
solver line that starts with one gives way to today's hint.

The budget is counted in positions (``POSITIONS_PER_SECOND`` per second of the cap), so that
one board gets one hint whatever the load; the seconds are a backstop that a busy machine may
hit first, and then a hint can come out as today's.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections import Counter
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from games.rules import Move, State, Variant
from games.rules import hints as heuristic
from games.rules.cards import CODE, new_deck, parse_card

from .search import LOST, WON, Budget, solve

SOLVER, HEURISTIC = "solver", "heuristic"
LOST_MESSAGE = "This position can no longer be won."
#: Positions searched per second of a hint's cap: a third to a half of what the compiled core
#: does on one core of a busy machine (0.6-1.2 million a second, bench/README.md), so the
#: positions, not the clock, end a search on a machine that is not overloaded.
POSITIONS_PER_SECOND = 250_000
#: Deals sampled for a position with hidden cards; each gets an equal share of the cap.
SAMPLES = 4

JSON = dict[str, Any]


@dataclass(frozen=True)
class LookaheadHint:
    """A suggested move (None: none to suggest) in words, and where it came from: ``solver``
    (a win found, or ``lost`` proven) or ``heuristic`` (today's hint)."""

    move: Move | None
    message: str
    source: str
    lost: bool = False
    #: Hidden positions: the deals sampled, and how many of them the move started a win in.
    samples: int = 0
    wins: int = 0


def lookahead_hint(
    variant: Variant,
    state: State,
    seen: Iterable[State] = (),
    seconds: float = 1.0,
    positions: int | None = None,
) -> LookaheadHint:
    """The hint for ``state`` (a full position), from the player's view of it only. ``seen``:
    the game's earlier positions; ``seconds``: the cap on the whole hint; ``positions``: the
    positions all its searches may make together (by default, ``POSITIONS_PER_SECOND`` per
    second of the cap)."""
    view = variant.player_view(state)
    return hint_from_view(variant, view, seen_views(variant, seen), seconds, positions)


def seen_views(variant: Variant, seen: Iterable[State]) -> frozenset[str]:
    """The keys of the views of positions the game has had. Within one game, two positions
    with the same cards face down in the same places hide the same cards (face-down cards
    never move, only turn up), so comparing views compares positions."""
    return frozenset(view_key(variant.player_view(state)) for state in seen)


def view_key(view: JSON) -> str:
    """A view as canonical JSON, whatever its move number or seed."""
    return json.dumps({**view, "move_number": 0, "seed": None}, sort_keys=True)


def hint_from_view(
    variant: Variant,
    view: JSON,
    seen: frozenset[str],
    seconds: float,
    positions: int | None = None,
) -> LookaheadHint:
    """The hint, from the player's view (face-down cards None) and ``seen_views``."""
    deadline = time.perf_counter() + seconds
    if positions is None:
        positions = round(seconds * POSITIONS_PER_SECOND)
    positions = max(1, positions)
    back = _SeenViews(variant, seen)
    if not _hidden_places(view):
        state = variant.state_from_json({**view, "seed": None})
        answer = solve(variant, state, Budget(positions=positions, seconds=seconds))
        if answer.outcome == LOST:
            return LookaheadHint(None, LOST_MESSAGE, SOLVER, lost=True)
        first = answer.moves[0] if answer.outcome == WON and answer.moves else None
        if first is not None and not _returning(variant, state, [first], back):
            move = first
            said = f"{heuristic.describe(variant, state, move)} It starts a way to win from here."
            return LookaheadHint(move, said, SOLVER)
        return _today(variant, state, back)
    deals = samples(variant, view, SAMPLES)
    share = seconds / len(deals)
    firsts: list[Move] = []
    for deal in deals:
        left = deadline - time.perf_counter()
        if left <= 0:
            break
        budget = Budget(positions=max(1, positions // len(deals)), seconds=min(share, left))
        answer = solve(variant, deal, budget)
        if answer.outcome == WON and answer.moves:
            firsts.append(answer.moves[0])
    stand_in = deals[0]  # any deal that fits the view: the legal moves and their order are its
    excluded = _returning(variant, stand_in, set(firsts), back)
    votes = Counter(move for move in firsts if move not in excluded)
    if not votes:
        return _today(variant, stand_in, back)
    order = {move: i for i, move in enumerate(variant.legal_moves(stand_in))}
    move = min(votes, key=lambda m: (-votes[m], order[m]))
    wins = votes[move]
    said = (
        f"{heuristic.describe(variant, stand_in, move)} In {wins} of {len(deals)} ways the "
        "hidden cards could lie, it starts a win."
    )
    return LookaheadHint(move, said, SOLVER, samples=len(deals), wins=wins)


def samples(variant: Variant, view: JSON, count: int) -> list[State]:
    """``count`` full positions that look exactly like ``view``: the unseen cards shuffled
    into its face-down places, by a generator seeded from the view's own hash."""
    seen_cards = Counter(
        parse_card(code)
        for pile in view["piles"].values()
        for code in pile["cards"]
        if code is not None
    )
    unseen = sorted((Counter(new_deck(variant.decks)) - seen_cards).elements())
    places = sum(len(_hidden(pile)) for pile in view["piles"].values())
    if len(unseen) != places:
        raise ValueError(f"{places} face-down places for {len(unseen)} unseen cards")
    digest = hashlib.sha256(view_key(view).encode()).digest()
    rng = random.Random(int.from_bytes(digest[:16], "big"))
    deals = []
    for _ in range(count):
        cards = iter([CODE[card] for card in rng.sample(unseen, len(unseen))])
        piles = {
            pile_id: {
                "cards": [next(cards) if code is None else code for code in pile["cards"]],
                "face_down": pile["face_down"],
            }
            for pile_id, pile in view["piles"].items()
        }
        deals.append(variant.state_from_json({**view, "seed": None, "piles": piles}))
    return deals


def _hidden(pile: JSON) -> list[None]:
    return [code for code in pile["cards"] if code is None]


def _hidden_places(view: JSON) -> bool:
    return any(code is None for pile in view["piles"].values() for code in pile["cards"])


def _today(variant: Variant, state: State, back: _SeenViews) -> LookaheadHint:
    move = heuristic.suggest(variant, state, back)
    return LookaheadHint(move, heuristic.describe(variant, state, move), HEURISTIC)


def _returning(
    variant: Variant, state: State, moves: Iterable[Move], back: _SeenViews
) -> set[Move]:
    """Those of ``moves`` that lead back to a position the game has had. Only a move that
    turns nothing up can (nothing is ever turned back down), and its result shows only cards
    the view shows, so a sampled deal answers for the real one."""
    if not back:
        return set()
    face_down = _face_down(state)
    found = set()
    for move in moves:
        after = variant.successor(state, move)
        if _face_down(after) == face_down and after in back:
            found.add(move)
    return found


def _face_down(state: State) -> int:
    return sum(pile.face_down for pile in state.piles)


class _SeenViews(Collection[State]):
    """The game's earlier positions as today's hint asks about them (``position in seen``),
    answered from their views."""

    def __init__(self, variant: Variant, keys: frozenset[str]) -> None:
        self.variant = variant
        self.keys = keys

    def __contains__(self, state: object) -> bool:
        return isinstance(state, State) and view_key(self.variant.player_view(state)) in self.keys

    def __len__(self) -> int:
        return len(self.keys)

    def __iter__(self) -> Iterator[State]:
        raise TypeError("the positions seen are known by their views only")
