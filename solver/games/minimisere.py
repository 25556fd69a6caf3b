"""Minimisere (RULES.md §2): 4 players, 52 cards, penalty points for the cards taken."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import cards as C
from .base import Trump, read_bool, read_choice, read_suit
from .cardgame import CardGame

#: Standard scoring: J 1, Q 2, K 3, A 4 (the Q of spades is an option).
STANDARD = {C.JACK: 1, C.QUEEN: 2, C.KING: 3, C.ACE: 4}
#: Hard scoring: every card, 2..10 at face value, J Q K 10, A 11.
HARD = {r: r + 2 for r in range(C.TWO, C.TEN + 1)} | {C.JACK: 10, C.QUEEN: 10, C.KING: 10, C.ACE: 11}


class Minimisere(CardGame):
    name = "minimisere"
    title = "Minimisere"
    defaults = {"scoring": "standard", "trump": None, "partners": False, "queen_of_spades": 10}
    n_players = 4
    hand_size = 13
    ranks = range(C.TWO, C.ACE + 1)

    def _read_options(self, raw: dict[str, Any]) -> dict[str, Any]:
        self.scoring = read_choice(self.name, "scoring", raw["scoring"], ("standard", "hard"))
        self.trump = read_suit(self.name, "trump", raw["trump"], allow_none=True)
        self.partnership = read_bool(self.name, "partners", raw["partners"])
        self.queen_of_spades = read_choice(self.name, "queen_of_spades", raw["queen_of_spades"], (10, 12))
        values = HARD if self.scoring == "hard" else STANDARD
        self.values = [values.get(C.rank_of(c), 0) for c in range(52)]
        if self.scoring == "standard":
            self.values[C.card(C.SPADES, C.QUEEN)] = self.queen_of_spades
        self._point_masks = [(v, C.mask_of(c for c in range(52) if self.values[c] == v))
                             for v in sorted(set(self.values) - {0})]
        return {"scoring": self.scoring, "trump": None if self.trump is None else C.SUITS[self.trump],
                "partners": self.partnership, "queen_of_spades": self.queen_of_spades}

    def point_masks(self, trump: Trump) -> list[tuple[int, int]]:
        return self._point_masks

    def scores(self, taken: Sequence[int], trump: Trump, last_winner: int | None) -> list[int]:
        return [self.card_points(t, trump) for t in taken]

    def partners(self) -> tuple[tuple[int, ...], ...]:
        return ((0, 2), (1, 3)) if self.partnership else super().partners()
