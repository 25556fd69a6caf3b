"""The common rules of the card games: plain must-follow, highest trump or highest of the led suit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from .. import cards as C
from .base import Game, Trump


class CardGame(Game):
    """A game of French-suited cards with a trump fixed before play (or none)."""

    ranks: ClassVar[range]   # the rank indices the game uses (cards.TWO .. cards.ACE)
    trump: Trump = None      # set by ``_read_options``

    @property
    def deck(self) -> int:  # type: ignore[override]
        return C.mask_of(C.card(s, r) for s in range(4) for r in self.ranks)

    def initial_trump(self) -> Trump:
        return self.trump

    def legal(self, hand: int, trick: Sequence[int], trump: Trump) -> int:
        if not trick:
            return hand
        follow = hand & C.suit_bits(C.suit_of(trick[0]))
        return follow or hand

    def trump_rank(self, c: int) -> int:
        """The order of the trumps among themselves (higher wins)."""
        return C.rank_of(c)

    def winner(self, trick: Sequence[int], trump: Trump) -> int:
        led = C.suit_of(trick[0])

        def strength(c: int) -> tuple[int, int]:
            if trump is not None and C.suit_of(c) == trump:
                return (2, self.trump_rank(c))
            if C.suit_of(c) == led:
                return (1, C.rank_of(c))
            return (0, 0)

        return max(range(len(trick)), key=lambda i: strength(trick[i]))
