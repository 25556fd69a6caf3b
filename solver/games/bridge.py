"""Bridge (RULES.md §5), the validation game: N E S W, partners N+S and E+W, tricks."""

from __future__ import annotations

from typing import Any

from .. import cards as C
from ..errors import OptionError
from .base import read_suit
from .cardgame import CardGame

SEAT_NAMES = "NESW"


class Bridge(CardGame):
    name = "bridge"
    title = "Bridge"
    defaults: dict[str, Any] = {"trump": None}
    n_players = 4
    hand_size = 13
    ranks = range(C.TWO, C.ACE + 1)

    def _read_options(self, raw: dict[str, Any]) -> dict[str, Any]:
        if raw["trump"] is None:
            raise OptionError("bridge: option 'trump' is required (S, H, D, C or NT)")
        self.trump = read_suit(self.name, "trump", raw["trump"], allow_none=True)
        return {"trump": "NT" if self.trump is None else C.SUITS[self.trump]}

    def partners(self) -> tuple[tuple[int, ...], ...]:
        return ((0, 2), (1, 3))
