"""Hints that look ahead: the first move of a win the solver finds, within a time cap.

A hint is a function of the player's view alone (games/rules/RULINGS.md §Solutions and hints).
``lookahead_hint`` takes the full state only to make that view (``player_view``, seed hidden)
and the views of the game's earlier positions; everything after that, ``hint_from_view``,
sees nothing else.

- **Open positions** (no card face down: Selective Castle and Grandfather's Clock always, the
  other games once their hidden cards are all out): the view is the whole position, and the
  solver searches it. A win: its first move is the hint. Proven lost (the whole space
  searched): the hint says so plainly and suggests no move, as no move can help. Unknown (the
  budget spent): the first move of the line to the most promising position the search met
  (the highest score of the game's evaluation, ``Answer.best``), said as such: a look-ahead,
  not a promise of a win; the rule-of-thumb hint (``games.rules.rule_of_thumb``) when no
  position beat this one.
- **Positions with hidden cards**: the cards the player has not seen (the deck(s) less every
  face-up card) are dealt at random into the face-down places, a few times, by a generator
  seeded from a hash of the view itself, so that the same board always gets the same deals
  and the same hint and the hint tells nothing the board does not. Each such deal is solved
  briefly (a share of the cap), and the hint is the move that starts a win in most of them;
  when none is won, the move that starts the line to the most promising position in most of
  them; when there is none either, the rule-of-thumb hint. A loss in every sampled deal proves
  nothing of the real one, so such a position is not called lost on that ground. It is called
  lost (as an open position is) when the loss holds whatever the hidden cards are: where they
  can lie in only a few ways (``EVERY_DEAL``: a stock down to its last few cards) every way is
  searched instead of samples, and all lost is a loss; and where every sample is lost, a
  search that never turns a card up nor reads a face-down one (``solve(..., view_only=True)``)
  may prove that no line from the face-up cards wins or turns a card up. The view alone
  decides either.

A move back to a position the game has had is never suggested (as with the rule-of-thumb
hint); a solver line that starts with one gives way to the rule-of-thumb hint.

The budget is counted in positions (``POSITIONS_PER_SECOND`` per second of the cap), so that
one board gets one hint whatever the load; the seconds are a backstop that a busy machine may
hit first, and then a hint can come out as today's.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import random
import time
from collections import Counter
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from games.rules import Move, State, Variant, get_variant
from games.rules import rule_of_thumb as heuristic
from games.rules.cards import CODE, new_deck, parse_card

from .search import LOST, WON, Answer, Budget, solve
from .tactics import hint_passes_for

SOLVER, HEURISTIC = "solver", "heuristic"
WIN, BEST = "win", "best"
#: What a ``best`` hint says of its move ("It ..." or "In 3 of 4 ways ..., it ...").
LEADS = "leads to the most promising position a look-ahead found, though not yet to a win"
LOST_MESSAGE = "This position can no longer be won."
#: Positions searched per second of a hint's cap: a third to a half of what the compiled core
#: does on one core of a busy machine (0.6-1.2 million a second, bench/README.md), so the
#: positions, not the clock, end a search on a machine that is not overloaded.
POSITIONS_PER_SECOND = 250_000
#: Deals sampled for a position with hidden cards; each gets an equal share of the cap.
SAMPLES = 4
#: Where the hidden cards can lie in at most this many ways, every way is searched instead
#: (each on an equal share): a loss in all of them is a loss whatever the hidden cards are.
EVERY_DEAL = 24
#: The fewest positions a search must have made for its most promising line to be a hint: a
#: look-ahead of a handful of positions is none (the rule-of-thumb hint stands).
LOOKAHEAD_POSITIONS = 1_000

JSON = dict[str, Any]


@dataclass(frozen=True)
class LookaheadHint:
    """A suggested move (None: none to suggest) in words, and where it came from: ``solver``
    (a win found, or ``lost`` proven) or ``heuristic`` (the rule-of-thumb hint)."""

    move: Move | None
    message: str
    source: str
    lost: bool = False
    #: Hidden positions: the deals sampled, and how many of them the move started a win in.
    samples: int = 0
    wins: int = 0
    #: A solver hint's look-ahead: ``win`` (the move starts a win found, or the position is
    #: lost) or ``best`` (no win found: the move starts the line to the most promising
    #: position searched).
    ahead: str = ""


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
        answer = solve(
            variant,
            state,
            Budget(positions=positions, seconds=seconds),
            passes=hint_passes_for(variant),
            best=True,
        )
        if answer.outcome == LOST:
            return LookaheadHint(None, LOST_MESSAGE, SOLVER, lost=True, ahead=WIN)
        first = answer.moves[0] if answer.outcome == WON and answer.moves else None
        if first is not None and not _returning(variant, state, [first], back):
            move = first
            said = f"{heuristic.describe(variant, state, move)} It starts a way to win from here."
            return LookaheadHint(move, said, SOLVER, ahead=WIN)
        first = _best_first(answer)
        if first is not None and not _returning(variant, state, [first], back):
            said = f"{heuristic.describe(variant, state, first)} It {LEADS}."
            return LookaheadHint(first, said, SOLVER, ahead=BEST)
        return _today(variant, state, back)
    every = every_deal(variant, view, EVERY_DEAL)
    deals = every or samples(variant, view, SAMPLES)
    share = seconds / len(deals)
    firsts: list[Move] = []
    bests: list[Move] = []
    lost = 0
    for deal in deals:
        left = deadline - time.perf_counter()
        if left <= 0:
            break
        budget = Budget(positions=max(1, positions // len(deals)), seconds=min(share, left))
        answer = solve(variant, deal, budget, passes=hint_passes_for(variant), best=True)
        lost += answer.outcome == LOST
        if answer.outcome == WON and answer.moves:
            firsts.append(answer.moves[0])
        elif (first := _best_first(answer)) is not None:
            bests.append(first)
    if lost == len(deals) and (every or _lost_from_view(variant, deals[0], positions, deadline)):
        return LookaheadHint(None, LOST_MESSAGE, SOLVER, lost=True, ahead=WIN)
    stand_in = deals[0]  # any deal that fits the view: the legal moves and their order are its
    order = {move: i for i, move in enumerate(variant.legal_moves(stand_in))}
    for ahead, moves in ((WIN, firsts), (BEST, bests)):
        excluded = _returning(variant, stand_in, set(moves), back)
        votes = Counter(move for move in moves if move not in excluded)
        if not votes:
            continue
        move = min(votes, key=lambda m: (-votes[m], order[m]))
        count = votes[move]
        ways = f"In {count} of {len(deals)} ways the hidden cards could lie, it"
        said = (
            f"{heuristic.describe(variant, stand_in, move)} {ways} starts a win."
            if ahead == WIN
            else f"{heuristic.describe(variant, stand_in, move)} {ways} {LEADS}."
        )
        wins = count if ahead == WIN else 0
        return LookaheadHint(move, said, SOLVER, samples=len(deals), wins=wins, ahead=ahead)
    return _today(variant, stand_in, back)


def hint_in_child(
    slug: str, view: JSON, seen: frozenset[str], positions: int, deadline: float
) -> tuple[LookaheadHint | None, int]:
    """In a hint process (``games.play.hint_pool``): ``hint_from_view`` for a view sent by the
    server process, searched until ``deadline`` (``time.monotonic()``: one clock for every
    process of the machine, never stepped back) and within ``positions``; None when the
    deadline passed while the search waited its turn (its request has given the rule-of-thumb
    hint by then). With the hint, this process's id: where it was searched. Only the view
    comes here, never the state it was made from."""
    seconds = deadline - time.monotonic()
    if seconds <= 0:
        return None, os.getpid()
    return hint_from_view(get_variant(slug), view, seen, seconds, positions), os.getpid()


def every_deal(variant: Variant, view: JSON, limit: int) -> list[State]:
    """Every full position that looks exactly like ``view``, in a fixed order, when there are
    at most ``limit`` (few cards unseen); else ``[]``."""
    unseen = _unseen(variant, view)
    if len(unseen) > 6:
        return []
    orders = list(dict.fromkeys(itertools.permutations(unseen)))
    if len(orders) > limit:
        return []
    return [_fill(variant, view, order) for order in orders]


def _unseen(variant: Variant, view: JSON) -> list[int]:
    """The cards the view does not show, sorted."""
    seen_cards = Counter(
        parse_card(code)
        for pile in view["piles"].values()
        for code in pile["cards"]
        if code is not None
    )
    unseen = sorted((Counter(new_deck(variant.decks)) - seen_cards).elements())
    places = _unseen_count(view)
    if len(unseen) != places:
        raise ValueError(f"{places} face-down places for {len(unseen)} unseen cards")
    return unseen


def _unseen_count(view: JSON) -> int:
    return sum(len(_hidden(pile)) for pile in view["piles"].values())


def _fill(variant: Variant, view: JSON, order: Iterable[int]) -> State:
    """The view with its face-down places dealt ``order``, in pile order, bottom to top."""
    cards = iter([CODE[card] for card in order])
    piles = {
        pile_id: {
            "cards": [next(cards) if code is None else code for code in pile["cards"]],
            "face_down": pile["face_down"],
        }
        for pile_id, pile in view["piles"].items()
    }
    return variant.state_from_json({**view, "seed": None, "piles": piles})


def samples(variant: Variant, view: JSON, count: int) -> list[State]:
    """``count`` full positions that look exactly like ``view``: the unseen cards shuffled
    into its face-down places, by a generator seeded from the view's own hash."""
    unseen = _unseen(variant, view)
    digest = hashlib.sha256(view_key(view).encode()).digest()
    rng = random.Random(int.from_bytes(digest[:16], "big"))
    return [_fill(variant, view, rng.sample(unseen, len(unseen))) for _ in range(count)]


def _lost_from_view(variant: Variant, deal: State, positions: int, deadline: float) -> bool:
    """Whether ``deal`` is lost whatever its face-down cards are: a search that turns none up
    and reads none (``solve(..., view_only=True)``) proves it lost, within what is left of the
    hint's cap."""
    left = deadline - time.perf_counter()
    if left <= 0:
        return False
    answer = solve(
        variant,
        deal,
        Budget(positions=positions, seconds=left),
        passes=hint_passes_for(variant),
        view_only=True,
    )
    return answer.outcome == LOST


def _best_first(answer: Answer) -> Move | None:
    """The first move of the line to the most promising position of a search that looked far
    enough ahead (``LOOKAHEAD_POSITIONS``), if it has one."""
    if answer.best and answer.positions >= LOOKAHEAD_POSITIONS:
        return answer.best[0]
    return None


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
    """The game's earlier positions as the rule-of-thumb hint asks about them (``position in
    seen``), answered from their views."""

    def __init__(self, variant: Variant, keys: frozenset[str]) -> None:
        self.variant = variant
        self.keys = keys

    def __contains__(self, state: object) -> bool:
        return isinstance(state, State) and view_key(self.variant.player_view(state)) in self.keys

    def __len__(self) -> int:
        return len(self.keys)

    def __iter__(self) -> Iterator[State]:
        raise TypeError("the positions seen are known by their views only")
