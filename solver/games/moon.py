"""Moon (RULES.md §4): dominoes, 3 players with 22 tiles or 4 partners with 28."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import cards as C
from ..errors import OptionError
from .base import Game, Trump, read_choice

CONTRACTS = ("0", "1", "2", "3", "4", "5", "6", "doubles", "none")
TRUMP_SUIT = 7  # the "suit" a led trump opens (numbers are 0..6)


class Moon(Game):
    name = "moon"
    title = "Moon"
    pieces = "tiles"
    defaults: dict[str, Any] = {"players": 3, "contract": None, "bidder": 0}
    hand_size = 7

    def _read_options(self, raw: dict[str, Any]) -> dict[str, Any]:
        self.n_players = read_choice(self.name, "players", raw["players"], (3, 4))
        contract = raw["contract"]
        if contract is None:
            raise OptionError("moon: option 'contract' is required (\"0\"..\"6\", \"doubles\" or \"none\")")
        if isinstance(contract, int) and not isinstance(contract, bool):
            contract = str(contract)
        self.contract = read_choice(self.name, "contract", contract.lower() if isinstance(contract, str) else contract,
                                    CONTRACTS)
        self.bidder = read_choice(self.name, "bidder", raw["bidder"], tuple(range(self.n_players)))
        # With 3 players the tiles 0-1 .. 0-6 are removed; 0-0 stays.
        self.deck = C.mask_of(C.tile(hi, lo) for hi in range(7) for lo in range(hi + 1)
                              if self.n_players == 4 or lo > 0 or hi == 0)
        self.dealt_out = 1 if self.n_players == 3 else 0
        return {"players": self.n_players, "contract": self.contract, "bidder": self.bidder}

    # --- suits ----------------------------------------------------------------

    def is_trump(self, t: int) -> bool:
        hi, lo = C.tile_ends(t)
        if self.contract == "doubles":
            return hi == lo
        if self.contract == "none":
            return False
        return int(self.contract) in (hi, lo)

    def led_suit(self, t: int) -> int:
        """The suit a led tile opens: trump, or its higher end."""
        return TRUMP_SUIT if self.is_trump(t) else C.tile_ends(t)[0]

    def follows(self, t: int, suit: int) -> bool:
        if suit == TRUMP_SUIT:
            return self.is_trump(t)
        return not self.is_trump(t) and suit in C.tile_ends(t)

    def suit_rank(self, t: int, suit: int) -> int:
        """Rank within a number suit: the double first, then by the other end."""
        hi, lo = C.tile_ends(t)
        return 7 if hi == lo else (lo if hi == suit else hi)

    def trump_rank(self, t: int) -> int:
        if self.contract == "doubles":
            return C.tile_ends(t)[0]
        return self.suit_rank(t, int(self.contract))

    # --- rules ------------------------------------------------------------------

    def legal(self, hand: int, trick: Sequence[int], trump: Trump) -> int:
        if not trick:
            return hand
        suit = self.led_suit(trick[0])
        follow = C.mask_of(t for t in C.bits(hand) if self.follows(t, suit))
        return follow or hand

    def winner(self, trick: Sequence[int], trump: Trump) -> int:
        trumps = [i for i, t in enumerate(trick) if self.is_trump(t)]
        if trumps:
            return max(trumps, key=lambda i: self.trump_rank(trick[i]))
        suit = self.led_suit(trick[0])
        following = [i for i, t in enumerate(trick) if self.follows(t, suit)]
        return max(following, key=lambda i: self.suit_rank(trick[i], suit))

    def partners(self) -> tuple[tuple[int, ...], ...]:
        return ((0, 2), (1, 3)) if self.n_players == 4 else super().partners()

    def format_trump(self, trump: Trump) -> str:
        return self.contract
