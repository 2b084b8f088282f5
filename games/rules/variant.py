"""What every game shares: validating, generating and applying moves, and judging the result.

A game module subclasses ``Variant`` and declares its piles, its building rules and which kind
of pile may feed which (``routes``); it overrides a hook only where its rules differ (how it
deals, what its stock action does, what happens after a move). Move validation lives in one
place, ``_refusal``: ``apply`` asks it about the move it was given and ``legal_moves`` asks it
about every candidate, so the two can never disagree.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from itertools import chain
from typing import Any, ClassVar

from . import notation, replay, rule_of_thumb
from .building import Build
from .cards import CODE, RANK, RANK_NAMES, card_name, new_deck, rank_char
from .errors import IllegalMove
from .shapes import FullState, PlayerView
from .shuffle import DEAL_VERSION, shuffled
from .solving import SolverProfile
from .state import DEAL, Event, Move, Pile, State
from .table import Table

ANY_RANK = 0  # what an empty pile that takes any card "wants"

PLAYING, WON, LOST = "playing", "won", "lost"

#: Kinds of pile whose cards count as home: a game is won when every card is on one of them.
HOME_KINDS = frozenset({"foundation", "discard"})


class Variant:
    slug: ClassVar[str]
    name: ClassVar[str]
    description: ClassVar[str]
    decks: ClassVar[int] = 1
    pile_ids: ClassVar[tuple[str, ...]]
    #: (source kind, target kind) pairs along which cards may move.
    routes: ClassVar[frozenset[tuple[str, str]]]
    tableau: ClassVar[Build]
    #: How a group of cards that moves as a unit must run; None: single cards only.
    group: ClassVar[Build | None] = None
    foundation: ClassVar[Build | None] = None
    #: How an empty foundation starts: "ace", "base_rank" (the first card sets it) or None.
    foundation_start: ClassVar[str | None] = None
    #: Cards the stock action moves to the waste (games whose stock feeds a waste).
    deal_count: ClassVar[int] = 0
    deal_version: ClassVar[int] = DEAL_VERSION
    #: How the pages and the admin set the piles out (see ``table``).
    table: ClassVar[Table]
    #: What the solver knows of the game (``solving``): plain data the engine never reads.
    solver: ClassVar[SolverProfile]

    def __init__(self) -> None:
        ids = self.pile_ids
        self.index = {pile_id: i for i, pile_id in enumerate(ids)}
        self.kinds = tuple(pile_id.split(":")[0] for pile_id in ids)
        source_kinds = {source for source, _ in self.routes}
        target_kinds = {target for _, target in self.routes}
        self.source_idx = tuple(i for i, kind in enumerate(self.kinds) if kind in source_kinds)
        self.target_idx = tuple(i for i, kind in enumerate(self.kinds) if kind in target_kinds)
        self.tableau_idx = tuple(i for i, kind in enumerate(self.kinds) if kind == "tableau")
        self.away_idx = tuple(i for i, kind in enumerate(self.kinds) if kind not in HOME_KINDS)
        self.home_idx = tuple(i for i, kind in enumerate(self.kinds) if kind in HOME_KINDS)
        self.stock_i = self.index.get("stock")
        self.waste_i = self.index.get("waste")

    def __repr__(self) -> str:
        return f"<Variant {self.slug}>"

    # -- dealing -------------------------------------------------------------------------

    def deal(self, seed: int, version: int = DEAL_VERSION) -> State:
        """The opening position of deal number ``seed`` under deal algorithm ``version`` (see
        ``shuffle``); a deal stored under an older version is dealt by that version."""
        deck = shuffled(self._deck(), self.slug, seed, version)
        piles, base_rank = self._lay_out(deck)
        if sorted(piles) != sorted(self.pile_ids):
            raise AssertionError(f"{self.slug} laid out {sorted(piles)}")
        return State(self.slug, seed, 0, base_rank, tuple(piles[i] for i in self.pile_ids))

    def _deck(self) -> list[int]:
        return new_deck(self.decks)

    def _lay_out(self, deck: list[int]) -> tuple[dict[str, Pile], int | None]:
        """Piles by id and the base rank, dealt from the front of the shuffled ``deck``."""
        raise NotImplementedError

    # -- the contract ----------------------------------------------------------------------

    def legal_moves(self, state: State) -> list[Move]:
        moves = list(self._card_moves(state))
        if self._deal_refusal(state) is None:
            moves.append(DEAL)
        return moves

    def apply(self, state: State, move: Move | dict[str, Any]) -> State:
        return self.play(state, move)[0]

    def play(self, state: State, move: Move | dict[str, Any]) -> tuple[State, list[Event]]:
        """Apply ``move`` (a ``Move`` or its JSON notation): the new state and the automatic
        effects it caused, as events.

        Raises ``IllegalMove`` (and changes nothing: states are immutable) when the move is
        not allowed, or not a move at all (``malformed_move``).
        """
        events: list[Event] = []
        after = self._checked_move(state, move, events)
        if self._is_won(after):
            events.append({"type": "game_won"})
        elif not self._has_legal_move(after):
            events.append({"type": "game_lost"})
        return after, events

    def follow(self, state: State, moves: Iterable[Move | dict[str, Any]]) -> State:
        """The state after ``moves``, each checked as ``play`` checks it (``IllegalMove``
        otherwise), for checking a line as a whole (a solver's winning line): it does not ask
        after each move whether the game is lost, as ``play`` does for its events, since a
        lost position has no legal move and the next move is refused anyway. (That question
        was three quarters of the time to check a line in Grandfather's Clock.)"""
        for move in moves:
            state = self._checked_move(state, move, [])
        return state

    def _checked_move(
        self, state: State, move: Move | dict[str, Any], events: list[Event]
    ) -> State:
        if not isinstance(move, Move):
            move = notation.move_from_json(move)
        if self._is_won(state):
            raise IllegalMove("game_over", "The game is over: it has been won.")
        if move.type == "deal":
            code = self._deal_refusal(state)
            if code is not None:
                self._refuse(state, code, self._deal_message(code, state))
        elif move.type == "move":
            s, t, count = self._locate(move)
            code = self._refusal(state, s, t, count)
            if code is not None:
                self._refuse(state, code, self._explain(code, state, s, t, count))
        else:
            raise IllegalMove("malformed_move", "A move's type is either 'move' or 'deal'.")
        return self._carry_out(state, move, events)

    def successor(self, state: State, move: Move) -> State:
        """The state after ``move``, which ``legal_moves(state)`` listed: nothing is checked
        again and no events are kept. For searches (the solver), which generate their moves
        here and replay the line they find through ``play`` before anyone uses it."""
        return self._carry_out(state, move, [])

    def is_won(self, state: State) -> bool:
        """Every card home; cheaper than ``status``, which also looks for a legal move."""
        return self._is_won(state)

    def _carry_out(self, state: State, move: Move, events: list[Event]) -> State:
        """Move the cards (or deal) and apply the automatic effects; the move is legal."""
        piles = list(state.piles)
        base_rank = state.base_rank
        if move.type == "deal":
            self._deal_from_stock(piles, events)
        else:
            s, t, count = self.index[move.source], self.index[move.target], move.count  # type: ignore[index]
            source, target = piles[s], piles[t]
            moving = source.cards[-count:]
            piles[s] = Pile(source.cards[:-count], source.face_down)
            piles[t] = Pile(target.cards + moving, target.face_down)
            if (
                base_rank is None
                and self.kinds[t] == "foundation"
                and self.foundation_start == "base_rank"
            ):
                base_rank = RANK[moving[0]]
                events.append({"type": "base_rank_set", "rank": rank_char(base_rank)})
            self._settle(piles, events, s, t)
        return State(state.variant, state.seed, state.move_number + 1, base_rank, tuple(piles))

    def hint(self, state: State, seen: Collection[State] = ()) -> Move | None:
        """A legal move worth trying, chosen from what the player sees (see ``hints``);
        ``seen``: the game's earlier positions, with ``move_number`` 0."""
        return rule_of_thumb.suggest(self, state, seen)

    def accepts(self, state: State, s: int, t: int, count: int = 1) -> bool:
        """Whether the top ``count`` cards of pile ``s`` may go onto pile ``t``."""
        return self._refusal(state, s, t, count) is None

    def replay(
        self, seed: int, moves: Iterable[Move | dict[str, Any]], step: int | None = None
    ) -> State:
        """The state after ``step`` moves of a history (all when None); see ``replay.replay``."""
        return replay.replay(self, seed, moves, step)

    def state_to_json(self, state: State) -> FullState:
        return notation.state_to_json(self, state)

    def state_from_json(self, data: Any) -> State:
        return notation.state_from_json(self, data)

    def player_view(self, state: State, *, reveal_seed: bool = False) -> PlayerView:
        return notation.player_view(self, state, reveal_seed=reveal_seed)

    move_from_json = staticmethod(notation.move_from_json)

    def cards_home(self, state: State) -> int:
        """Cards on the foundations (or in the discard): a game's progress."""
        return sum(len(state.piles[i].cards) for i in self.home_idx)

    def status(self, state: State) -> str:
        if self._is_won(state):
            return WON
        return PLAYING if self._has_legal_move(state) else LOST

    # -- validation: the single source of truth for what is legal -------------------------

    def _refusal(self, state: State, s: int, t: int, count: int) -> str | None:
        """None when moving the top ``count`` cards of pile ``s`` onto pile ``t`` is legal,
        else the code of the first rule it breaks."""
        if s == t:
            return "same_pile"
        kinds = self.kinds
        if (kinds[s], kinds[t]) not in self.routes:
            return "wrong_target"
        source = state.piles[s]
        cards = source.cards
        if not cards:
            return "pile_empty"
        if count > 1 and (self.group is None or kinds[t] != "tableau" or kinds[s] != "tableau"):
            return "single_cards_only"
        if count > len(cards) - source.face_down:
            return "not_available"
        if count > 1 and self.group.run_length(cards, count) < count:  # type: ignore[union-attr]
            return "not_a_sequence"
        card = cards[-count]
        target = state.piles[t].cards
        if kinds[t] == "tableau":
            if target:
                return self.tableau.refusal(card, target[-1])
            # A whole pile onto an empty one changes nothing but its place
            # (games/rules/RULINGS.md §Every game, "No empty shuffles").
            return "empty_shuffle" if count == len(cards) and kinds[s] == "tableau" else None
        if not target:
            return self._start_refusal(state, card)
        if self._foundation_complete(state.piles[t], t):
            return "foundation_complete"
        return self.foundation.refusal(card, target[-1])  # type: ignore[union-attr]

    def _start_refusal(self, state: State, card: int) -> str | None:
        wanted = self._start_rank(state)
        return None if wanted == ANY_RANK or wanted == RANK[card] else "wrong_rank"

    def _start_rank(self, state: State) -> int | None:
        """The rank an empty foundation takes (ANY_RANK: any card; None: nothing)."""
        if self.foundation_start == "ace":
            return 1
        if self.foundation_start == "base_rank":
            return ANY_RANK if state.base_rank is None else state.base_rank
        return None

    def _foundation_complete(self, pile: Pile, t: int) -> bool:
        return len(pile.cards) >= 13

    def _deal_refusal(self, state: State) -> str | None:
        if self.stock_i is None:
            return "no_stock"
        return None if state.piles[self.stock_i].cards else "stock_empty"

    # -- generation ---------------------------------------------------------------------

    def _card_moves(self, state: State) -> Iterator[Move]:
        """Every legal card move. Candidates are found through the rank each target wants,
        then confirmed by ``_refusal``, so a move is listed exactly when it applies."""
        piles = state.piles
        by_rank: dict[int, list[int]] = {}
        open_targets: list[int] = []
        for t in self.target_idx:
            wanted = self._wanted_rank(state, t)
            if wanted == ANY_RANK:
                open_targets.append(t)
            elif wanted is not None:
                by_rank.setdefault(wanted, []).append(t)
        ids = self.pile_ids
        for s in self.source_idx:
            source = piles[s]
            cards = source.cards
            if not cards:
                continue
            for count in range(1, self._movable(source, s) + 1):
                for t in chain(by_rank.get(RANK[cards[-count]], ()), open_targets):
                    if self._refusal(state, s, t, count) is None:
                        yield Move("move", ids[s], ids[t], count)

    def _wanted_rank(self, state: State, t: int) -> int | None:
        cards = state.piles[t].cards
        if self.kinds[t] == "tableau":
            return self.tableau.next_rank(RANK[cards[-1]]) if cards else ANY_RANK
        if not cards:
            return self._start_rank(state)
        if self._foundation_complete(state.piles[t], t):
            return None
        return self.foundation.next_rank(RANK[cards[-1]])  # type: ignore[union-attr]

    def _movable(self, pile: Pile, s: int) -> int:
        """The most cards that could move from this pile at once."""
        if self.group is None or self.kinds[s] != "tableau":
            return 1
        return self.group.run_length(pile.cards, len(pile.cards) - pile.face_down)

    def _has_legal_move(self, state: State) -> bool:
        return self._deal_refusal(state) is None or next(self._card_moves(state), None) is not None

    def _is_won(self, state: State) -> bool:
        piles = state.piles
        return not any(piles[i].cards for i in self.away_idx)

    # -- effects ------------------------------------------------------------------------

    def _deal_from_stock(self, piles: list[Pile], events: list[Event]) -> None:
        """The stock action: deal ``deal_count`` cards to the waste, one at a time."""
        stock = piles[self.stock_i].cards  # type: ignore[index]
        left = max(len(stock) - self.deal_count, 0)
        dealt = stock[left:][::-1]  # the stock's top card goes first; the last dealt ends on top
        piles[self.stock_i] = Pile(stock[:left], left)  # type: ignore[index]
        piles[self.waste_i] = Pile(piles[self.waste_i].cards + dealt, 0)  # type: ignore[index]

    def _settle(self, piles: list[Pile], events: list[Event], s: int, t: int) -> None:
        """Automatic effects after cards moved from pile ``s`` to pile ``t``."""
        self._turn_up(piles, events, s)

    def _turn_up(self, piles: list[Pile], events: list[Event], i: int) -> None:
        pile = piles[i]
        if pile.face_down and pile.face_down == len(pile.cards):
            piles[i] = Pile(pile.cards, pile.face_down - 1)
            events.append(
                {"type": "turned_up", "pile": self.pile_ids[i], "card": CODE[pile.cards[-1]]}
            )

    # -- errors -------------------------------------------------------------------------

    def _locate(self, move: Move) -> tuple[int, int, int]:
        s, t = self.index.get(move.source), self.index.get(move.target)  # type: ignore[arg-type]
        for pile_id, i in ((move.source, s), (move.target, t)):
            if i is None:
                raise IllegalMove("unknown_pile", f"{self.name} has no pile {pile_id!r}.")
        count = move.count
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise IllegalMove("malformed_move", "A move's count is a whole number, at least 1.")
        return s, t, count  # type: ignore[return-value]

    def _refuse(self, state: State, code: str, message: str) -> None:
        if not self._has_legal_move(state):
            raise IllegalMove("game_over", "The game is over: no legal move remains.")
        raise IllegalMove(code, message)

    def pile_name(self, i: int) -> str:
        """A player's name for pile ``i``: "tableau pile 4", "foundation 2", "the stock"."""
        kind, _, number = self.pile_ids[i].partition(":")
        if number:
            return (
                f"{kind} pile {int(number) + 1}"
                if kind == "tableau"
                else f"{kind} {int(number) + 1}"
            )
        return f"the {kind}"

    def pile_title(self, i: int) -> str:
        """Pile ``i`` as a heading or a label names it: "Tableau pile 4", "Stock"."""
        name = self.pile_name(i).removeprefix("the ")
        return name[:1].upper() + name[1:]

    def pile_label(self, i: int) -> str | None:
        """What the table writes beside pile ``i`` (Grandfather's Clock: its hour), or None."""
        return None

    def complete_rank(self, i: int) -> int | None:
        """The rank whose card on top completes foundation ``i``; None: 13 cards complete it."""
        return None

    def _explain(self, code: str, state: State, s: int, t: int, count: int) -> str:
        """The message for a refused card move. Names only face-up cards, in words."""
        source, target = self.pile_name(s), self.pile_name(t)
        cards = state.piles[s].cards
        if code == "same_pile":
            return f"The cards are already on {source}."
        if code == "wrong_target":
            return self._route_message(s, t)
        if code == "pile_empty":
            return f"{_cap(source)} is empty."
        if code == "single_cards_only":
            if self.kinds[t] == "foundation":
                return "Foundations take one card at a time."
            if self.group is None:
                return f"{self.name} moves single cards only."
            return f"Only single cards move from {source}."
        if code == "not_available":
            up = len(cards) - state.piles[s].face_down
            if count > len(cards):
                return f"{_cap(source)} holds only {len(cards)} card{_s(len(cards))}."
            return f"Only {up} card{_s(up)} of {source} can move: the rest lie face down."
        if code == "not_a_sequence":
            return (
                f"The top {count} cards of {source} do not move as a group: "
                f"a group runs {self.group.describe()}."  # type: ignore[union-attr]
            )
        if code == "empty_shuffle":
            return f"Moving all of {source} onto an empty pile would change nothing."
        if code == "foundation_complete":
            return f"{_cap(target)} is complete and takes no more cards."
        card, onto = cards[-count], state.piles[t].cards
        if self.kinds[t] == "tableau":
            return self.tableau.why_not(card, onto[-1], "the tableau")
        if not onto:
            return self._start_message(state, card, target)
        return self.foundation.why_not(card, onto[-1], "a foundation")  # type: ignore[union-attr]

    def _start_message(self, state: State, card: int, target: str) -> str:
        wanted = self._start_rank(state)
        if wanted is None:
            return f"{_cap(target)} takes no cards."
        rank = "an Ace" if wanted == 1 else f"a {RANK_NAMES[wanted]} (the base rank)"
        return f"The {card_name(card)} cannot start a foundation: only {rank} can."

    def _route_message(self, s: int, t: int) -> str:
        target_kind = self.kinds[t]
        if not any(target_kind == target for _, target in self.routes):
            return f"Nothing can be put on the {target_kind} in {self.name}."
        allowed = sorted(target for source, target in self.routes if source == self.kinds[s])
        if not allowed:
            return f"Cards on the {self.kinds[s]} cannot be moved in {self.name}."
        places = {"foundation": "a foundation", "tableau": "a tableau pile"}
        targets = " or ".join(places.get(kind, f"the {kind}") for kind in allowed)
        return f"Cards from the {self.kinds[s]} may only go to {targets}."

    def _deal_message(self, code: str, state: State) -> str:
        if code == "no_stock":
            return f"{self.name} has no stock to deal from."
        if code == "stock_empty":
            return "The stock is empty: there is only one pass through it."
        return "Fill every empty tableau pile before dealing."


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
