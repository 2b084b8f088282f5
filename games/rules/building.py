"""Building rules shared by the games: which card may go on which.

A ``Build`` answers "may ``card`` go on ``onto``?" for one direction, suit rule and wrapping
choice. Tableaux build down, foundations up; groups that move as a unit are runs that
satisfy the group's ``Build``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import IS_RED, RANK, SUIT, card_name

ANY_SUIT, ALTERNATE_COLOURS, SAME_SUIT = "any", "alternate", "same"


@dataclass(frozen=True)
class Build:
    step: int  # -1 builds down, +1 builds up
    suits: str = ANY_SUIT
    wrap: bool = False  # King on Ace building down, Ace on King building up

    def next_rank(self, rank: int) -> int | None:
        """The rank a card must have to go on a card of ``rank`` (None: nothing can)."""
        nxt = rank + self.step
        if 1 <= nxt <= 13:
            return nxt
        return (nxt - 1) % 13 + 1 if self.wrap else None

    def refusal(self, card: int, onto: int) -> str | None:
        """None when ``card`` may go on ``onto``, else the code of the rule it breaks."""
        if self.next_rank(RANK[onto]) != RANK[card]:
            return "wrong_rank"
        if self.suits == SAME_SUIT and SUIT[card] != SUIT[onto]:
            return "wrong_suit"
        if self.suits == ALTERNATE_COLOURS and IS_RED[card] == IS_RED[onto]:
            return "wrong_colour"
        return None

    def fits(self, card: int, onto: int) -> bool:
        return self.refusal(card, onto) is None

    def run_length(self, cards: tuple[int, ...], limit: int) -> int:
        """How many top cards (at most ``limit``) form a run under this rule."""
        n = 1 if cards and limit else 0
        while n < limit and self.fits(cards[-n], cards[-n - 1]):
            n += 1
        return n

    def describe(self) -> str:
        """ "down by one rank in alternating colours, a King going on an Ace"."""
        text = "down by one rank" if self.step < 0 else "up by one rank"
        text += {
            ANY_SUIT: ", regardless of suit",
            ALTERNATE_COLOURS: " in alternating colours",
            SAME_SUIT: " in the same suit",
        }[self.suits]
        if self.wrap:
            text += ", a King going on an Ace" if self.step < 0 else ", an Ace going on a King"
        return text

    def why_not(self, card: int, onto: int, where: str) -> str:
        """A player's explanation of ``refusal(card, onto)``, naming both cards in words."""
        return (
            f"The {card_name(card)} cannot go on the {card_name(onto)}: "
            f"{where} builds {self.describe()}."
        )
