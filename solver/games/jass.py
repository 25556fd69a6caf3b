"""Mittlere Jass (RULES.md §3): trump fixed in play by the first card that fails to follow.

Seat numbers follow the playing order, so the game's anticlockwise play needs
nothing special here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import cards as C
from .base import Trump, read_choice, read_suit
from .cardgame import CardGame

#: Trump order J > 9 > A > K > Q > 10 > 8 > 7 > 6 (higher number wins).
TRUMP_ORDER = {r: i for i, r in enumerate(
    (C.SIX, C.SEVEN, C.EIGHT, C.TEN, C.QUEEN, C.KING, C.ACE, C.NINE, C.JACK))}
PLAIN_POINTS = {C.ACE: 11, C.KING: 4, C.QUEEN: 3, C.JACK: 2, C.TEN: 10}
TRUMP_POINTS = {C.JACK: 20, C.NINE: 14, C.ACE: 11, C.KING: 4, C.QUEEN: 3, C.TEN: 10}
LAST_TRICK = 5


class Jass(CardGame):
    name = "jass"
    title = "Mittlere Jass"
    defaults = {"trump": None, "no_trump_eights": 8}
    n_players = 3
    hand_size = 12
    dynamic_trump = True
    ranks = range(C.SIX, C.ACE + 1)

    def _read_options(self, raw: dict[str, Any]) -> dict[str, Any]:
        self.trump = read_suit(self.name, "trump", raw["trump"], allow_none=True)
        self.no_trump_eights = read_choice(self.name, "no_trump_eights", raw["no_trump_eights"], (8, 0))
        self._point_masks: dict[Trump, list[tuple[int, int]]] = {}
        return {"trump": None if self.trump is None else C.SUITS[self.trump],
                "no_trump_eights": self.no_trump_eights}

    def options_for(self, trump: Trump, hands: Sequence[int]) -> dict[str, Any]:
        # The option records the trump fixed *so far*, which play changes.
        return {**self.options_json(), "trump": None if trump is None else C.SUITS[trump]}

    def trump_rank(self, c: int) -> int:
        return TRUMP_ORDER[C.rank_of(c)]

    def legal(self, hand: int, trick: Sequence[int], trump: Trump) -> int:
        if not trick:
            return hand
        led = C.suit_of(trick[0])
        follow = hand & C.suit_bits(led)
        if trump is None:                     # before trump is fixed: plain must follow
            return follow or hand
        trumps = hand & C.suit_bits(trump)
        if led == trump:
            bauer_alone = trumps == 1 << C.card(trump, C.JACK)
            return trumps if trumps and not bauer_alone else hand
        # A non-trump suit was led: follow or trump, no third suit; never undertrump
        # a trump already in the trick unless the hand is all trumps.
        allowed_trumps = trumps
        in_trick = [self.trump_rank(c) for c in trick if C.suit_of(c) == trump]
        if in_trick and hand != trumps:
            top = max(in_trick)
            allowed_trumps = C.mask_of(c for c in C.bits(trumps) if self.trump_rank(c) > top)
        if follow:
            return follow | allowed_trumps
        return (hand & ~trumps) | allowed_trumps

    def final_trumps(self, trump: Trump) -> tuple[Trump, ...]:
        return (None, 0, 1, 2, 3) if trump is None else (trump,)

    def next_trump(self, trump: Trump, trick: Sequence[int], piece: int) -> Trump:
        if trump is None and trick and C.suit_of(piece) != C.suit_of(trick[0]):
            return C.suit_of(piece)
        return trump

    def card_value(self, c: int, trump: Trump) -> int:
        r = C.rank_of(c)
        if trump is None:
            return self.no_trump_eights if r == C.EIGHT else PLAIN_POINTS.get(r, 0)
        if C.suit_of(c) == trump:
            return TRUMP_POINTS.get(r, 0)
        return PLAIN_POINTS.get(r, 0)

    def point_masks(self, trump: Trump) -> list[tuple[int, int]]:
        if trump not in self._point_masks:
            values = {c: self.card_value(c, trump) for c in C.bits(self.deck)}
            self._point_masks[trump] = [(v, C.mask_of(c for c in values if values[c] == v))
                                        for v in sorted(set(values.values()) - {0})]
        return self._point_masks[trump]

    def scores(self, taken: Sequence[int], trump: Trump, last_winner: int | None) -> list[int]:
        return [self.card_points(t, trump) + (LAST_TRICK if s == last_winner else 0)
                for s, t in enumerate(taken)]

    def default_goal(self, measure: str) -> str:
        return "max" if measure == "points" else "min"
