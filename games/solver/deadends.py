"""Static dead ends: positions proven lost by looking at them, with no search.

**The reserve blocked** (a game whose ``solver.reserve_dead_end`` says so: Blondes and
Brunettes). Its reserve feeds the foundations only, top card first, and its foundations build
up one rank apart in alternating colours from the base rank, complete at 13 cards. Relax the
game: every card neither home nor in the reserve is free, playable to a foundation at any
time (the tableau, stock and waste merged into one pool). Every real move is a move of that
game or changes nothing in it (a move within the tableau, a deal, a refill), so a position
whose relaxed game is lost is lost. The relaxed game is decided exactly, by a greedy pass:

- A card's *family* is its colour when its distance above the base rank is even, the other
  colour's when odd; a foundation's is its base card's colour. A card only ever goes on a
  foundation of its family, at the height equal to its distance above the base. Each family
  has ``2 * decks`` foundations (so many base-rank cards of each colour): those started, and
  the rest of that many at height 0.
- Families are independent (a move of one never changes what the other may do), and the
  pool never runs short: every foundation of a family passes each distance once, taking one
  of the ``2 * decks`` copies, so the copies not home or in the reserve are exactly those
  the foundations that take no reserve copy need.
- So the relaxed game is won exactly when each family's reserve cards, top first, can each
  be laid on a foundation of the family no higher than its distance (which then stands one
  above it). Laying each on the highest such foundation is optimal: it leaves a set of
  heights that is, sorted, nowhere higher than any other choice would leave, and lower
  foundations take whatever higher ones take (proved in docs/solver.md).

``tests/solver/test_relax.py`` checks it against an exhaustive search of the real game. The
search skips such positions too (``search._Search`` and the compiled core's
``reserve_blocked``, compared by tests/solver/test_core_differential.py): it counts a child
that is a dead end and never keeps it.
"""

from __future__ import annotations

from games.rules import State, Variant
from games.rules.building import ALTERNATE_COLOURS
from games.rules.cards import IS_RED, RANK


def applies(variant: Variant) -> bool:
    """Whether ``variant`` declares the reserve rule, and its rules are those it holds for."""
    if not variant.solver.reserve_dead_end:
        return False
    build = variant.foundation
    routes = {target for source, target in variant.routes if source == "reserve"}
    if not (
        build is not None
        and build.step == 1
        and build.suits == ALTERNATE_COLOURS
        and variant.foundation_start == "base_rank"
        and routes == {"foundation"}
        and "reserve" in variant.index
    ):
        raise ValueError(f"{variant.name} declares a reserve dead end its rules do not allow")
    return True


def reserve_blocked(variant: Variant, state: State) -> bool:
    """Whether ``state`` is lost because its reserve cannot be laid on the foundations in
    order even with every other card free (see the module's docstring)."""
    base = state.base_rank
    if base is None or not applies(variant):
        return False
    reserve = state.piles[variant.index["reserve"]].cards
    if not reserve:
        return False
    per_family = 2 * variant.decks
    heights: list[list[int]] = [[], []]
    for i in variant.home_idx:
        cards = state.piles[i].cards
        if cards:
            heights[IS_RED[cards[0]]].append(len(cards))
    for family in heights:
        family.extend([0] * (per_family - len(family)))
    for card in reversed(reserve):  # the top card first
        distance = (RANK[card] - base) % 13
        family = heights[IS_RED[card] ^ (distance % 2)]
        fitting = [height for height in family if height <= distance]
        if not fitting:
            return True
        family.remove(max(fitting))
        family.append(distance + 1)
    return False


def is_dead_end(variant: Variant, state: State) -> bool:
    """Whether any static rule here proves ``state`` lost (``solve`` asks before searching)."""
    return reserve_blocked(variant, state)
