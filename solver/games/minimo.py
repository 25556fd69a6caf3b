"""Minimo (RULES.md §1): 3 players, 32 cards, penalty tricks and cards, the zero-trick rule."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import cards as C
from ..errors import OptionError
from .base import Trump, read_bool, read_suit
from .cardgame import CardGame


class Minimo(CardGame):
    name = "minimo"
    title = "Minimo"
    defaults = {"trump": "NT", "double_penalty": False, "open": None}
    n_players = 3
    hand_size = 10
    dealt_out = 2  # the widow
    ranks = range(C.SEVEN, C.ACE + 1)

    QUEEN_OF_SPADES = C.card(C.SPADES, C.QUEEN)
    ACE_OF_HEARTS = C.card(C.HEARTS, C.ACE)
    ZERO_TRICK_BONUS = 5

    def _read_options(self, raw: dict[str, Any]) -> dict[str, Any]:
        self.trump = read_suit(self.name, "trump", raw["trump"], allow_none=True)
        self.double_penalty = read_bool(self.name, "double_penalty", raw["double_penalty"])
        self.open: tuple[int, ...] | None = None
        open_json = None
        if raw["open"] is not None:
            value = raw["open"]
            if not isinstance(value, (list, tuple)) or len(value) != self.n_players:
                raise OptionError(f"minimo: option 'open' must list the face-up cards of each of the 3 seats, got {value!r}")
            masks = []
            for seat, hand in enumerate(value):
                masks.append(C.mask_of(self.parse_hand(hand, f"option 'open', seat {seat}: ")))
            for a in range(3):
                for b in range(a + 1, 3):
                    if masks[a] & masks[b]:
                        dup = self.format_piece(next(C.bits(masks[a] & masks[b])))
                        raise OptionError(f"minimo: option 'open': {dup} is face up in seats {a} and {b}")
            self.open = tuple(masks)
            open_json = [self.format_hand(m) for m in masks]
        return {"trump": "NT" if self.trump is None else C.SUITS[self.trump],
                "double_penalty": self.double_penalty, "open": open_json}

    def options_for(self, trump: Trump, hands: Sequence[int]) -> dict[str, Any]:
        # Open cards are "the face-up cards still in that hand": played ones drop out.
        out = self.options_json()
        if self.open is not None:
            out["open"] = [self.format_hand(m & h) for m, h in zip(self.open, hands)]
        return out

    def check_options_against(self, hands: Sequence[int]) -> None:
        # FORMAT.md: 'open' lists, per seat, the face-up cards *still in that hand*.
        if self.open is not None and len(hands) == self.n_players:
            for seat, (faceup, hand) in enumerate(zip(self.open, hands)):
                stray = faceup & ~hand
                if stray:
                    card = self.format_piece(next(C.bits(stray)))
                    raise OptionError(f"minimo: option 'open': {card} is face up for seat {seat} "
                                      f"but not in its hand")

    def card_points(self, taken: int, trump: Trump) -> int:
        pts = 0
        if taken >> self.QUEEN_OF_SPADES & 1:
            pts += 5
        if taken >> self.ACE_OF_HEARTS & 1:
            pts += 3
        if trump is not None and taken >> C.card(trump, C.KING) & 1:
            pts += 2
        return pts * 2 if self.double_penalty else pts

    def scores(self, taken: Sequence[int], trump: Trump, last_winner: int | None) -> list[int]:
        tricks = [self.tricks(t) for t in taken]
        zero = tricks.count(0)
        return [0 if n == 0 else n + self.card_points(t, trump) + self.ZERO_TRICK_BONUS * zero
                for n, t in zip(tricks, taken)]
