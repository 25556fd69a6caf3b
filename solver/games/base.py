"""The shared base of every game: options, notation, and the rule interface.

A game object is one game *with its options* (``Minimo(trump="S")``); it is
immutable and holds no position. Each concrete game is a small subclass that
states its pieces and answers the few rule questions (legal plays, trick
winner, trump changes, hand score) in plain, readable Python. That readable
code is the reference for every rule; the fast engine gets the same rules as
tables (``solver.tables``) and is tested against this code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from .. import cards as C
from ..errors import DuplicateCardError, OptionError, UnknownCardError

#: A trump state: ``None`` (no trump) or a suit index; games with no changing
#: trump keep one state for the whole hand.
Trump = int | None

MEASURES = ("tricks", "points")
GOALS = ("min", "max")


#: each card's place in ``Game.sort_key`` order (suit S H D C, then rank high first), one integer a card
_CARD_ORDER = [C.suit_of(i) * 13 + 12 - C.rank_of(i) for i in range(52)]


class Game:
    """One game with its options. Subclasses fill in the class attributes and the rule hooks."""

    name: ClassVar[str]          # registry key, as in FORMAT.md
    title: ClassVar[str]         # for people
    pieces: ClassVar[str] = "cards"  # "cards" or "tiles"
    #: option name -> default; the canonical output lists them all, in this order
    defaults: ClassVar[dict[str, Any]] = {}

    n_players: int
    hand_size: int               # pieces in each hand at the start of a hand
    deck: int                    # mask of every piece of the game
    dealt_out: int = 0           # pieces never played (Minimo's widow, Moon's widow)
    dynamic_trump: ClassVar[bool] = False  # whether play can change the trump (Jass)

    def __init__(self, **options: Any) -> None:
        unknown = sorted(set(options) - set(self.defaults))
        if unknown:
            known = ", ".join(self.defaults) or "none"
            raise OptionError(f"{self.name}: unknown option {unknown[0]!r} (options: {known})")
        merged = {**self.defaults, **{k: v for k, v in options.items()}}
        self.options: dict[str, Any] = self._read_options(merged)

    # --- options ------------------------------------------------------------

    def _read_options(self, raw: dict[str, Any]) -> dict[str, Any]:
        """Check and canonicalise the options; set the derived attributes."""
        return dict(raw)

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.options.items() if v != self.defaults[k])
        return f"{type(self).__name__}({args})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.options == self.options  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        # kept: every solve looks its game up in the engine's caches
        try:
            return self._hash
        except AttributeError:
            self._hash: int = hash((self.name, repr(self.options)))
            return self._hash

    def options_json(self) -> dict[str, Any]:
        """The options in canonical FORMAT.md form (every option, defaults filled in)."""
        return dict(self.options)

    def options_for(self, trump: Trump, hands: Sequence[int]) -> dict[str, Any]:
        """The options as a position in this state writes them (state-dependent options)."""
        return self.options_json()

    def check_options_against(self, hands: Sequence[int]) -> None:
        """Check state-dependent options against the hands of a position read from input."""

    # --- notation -----------------------------------------------------------

    def parse_piece(self, token: Any, where: str = "") -> int:
        """One card or tile token to its index; it must exist in this game."""
        if not isinstance(token, str):
            raise UnknownCardError(f"{where}expected a {self._piece_word()} token, got {token!r}")
        if self.pieces == "tiles":
            i = C.parse_tile_token(token)
        else:
            i = C.parse_card_token(token)
        if not self.deck >> i & 1:
            raise UnknownCardError(f"{where}{self.format_piece(i)} is not a {self._piece_word()} of {self.name}")
        return i

    def format_piece(self, i: int) -> str:
        return C.format_tile(i) if self.pieces == "tiles" else C.format_card(i)

    def _piece_word(self) -> str:
        return "tile" if self.pieces == "tiles" else "card"

    def sort_key(self, i: int) -> int:
        """Canonical order: suit S H D C then rank high first; tiles high end first."""
        return -i if self.pieces == "tiles" else _CARD_ORDER[i]

    def sorted_pieces(self, mask: int) -> list[int]:
        """The pieces of ``mask`` in ``sort_key`` order."""
        if self.pieces == "tiles":
            return sorted(C.bits(mask), reverse=True)  # (sort_key without the calls)
        return sorted(C.bits(mask), key=_CARD_ORDER.__getitem__)

    def format_hand(self, mask: int) -> list[str]:
        return [self.format_piece(i) for i in self.sorted_pieces(mask)]

    def parse_hand(self, value: Any, where: str = "") -> list[int]:
        """A hand: a list of tokens, one space-separated string, or (cards) a PBN string."""
        if isinstance(value, str):
            if self.pieces == "cards" and "." in value:
                indices = C.parse_pbn_hand(value)
                for i in indices:
                    if not self.deck >> i & 1:
                        raise UnknownCardError(f"{where}{C.format_card(i)} is not a card of {self.name}")
            else:
                indices = [self.parse_piece(t, where) for t in value.replace(",", " ").split()]
        elif isinstance(value, (list, tuple)):
            indices = [self.parse_piece(t, where) for t in value]
        else:
            raise UnknownCardError(f"{where}expected a list of {self._piece_word()}s or a string, got {value!r}")
        seen: set[int] = set()
        for i in indices:
            if i in seen:
                raise DuplicateCardError(f"{where}{self.format_piece(i)} appears twice")
            seen.add(i)
        return indices

    # --- rules (hooks) --------------------------------------------------------

    def initial_trump(self) -> Trump:
        """The trump state at the start of play (as the options give it)."""
        return None

    def legal(self, hand: int, trick: Sequence[int], trump: Trump) -> int:
        """The mask of legal plays from ``hand`` to ``trick`` (cards so far, leader's first)."""
        raise NotImplementedError

    def next_trump(self, trump: Trump, trick: Sequence[int], piece: int) -> Trump:
        """The trump state after ``piece`` is played to ``trick``."""
        return trump

    def winner(self, trick: Sequence[int], trump: Trump) -> int:
        """The offset in a complete ``trick`` of the winning piece."""
        raise NotImplementedError

    def card_points(self, taken: int, trump: Trump) -> int:
        """Points of the pieces in ``taken``, valued with the final ``trump``."""
        return sum(value * C.popcount(taken & mask) for value, mask in self.point_masks(trump))

    def point_masks(self, trump: Trump) -> list[tuple[int, int]]:
        """``(value, mask of the pieces worth it)`` under ``trump``; none by default."""
        return []

    def scores(self, taken: Sequence[int], trump: Trump, last_winner: int | None) -> list[int]:
        """Each seat's hand score (RULES.md) from what each has taken.

        ``last_winner`` is the winner of the hand's last trick (``None`` while
        the hand is not over).
        """
        return [self.tricks(t) for t in taken]

    def final_trumps(self, trump: Trump) -> tuple[Trump, ...]:
        """The trump states the hand can still end in (play can only fix a trump in Jass)."""
        return (trump,)

    def score_key(self, taken: Sequence[int], trump: Trump) -> tuple[Any, ...]:
        """What the hand score can still depend on, of what has been taken so far.

        Scores depend on what each seat took only through its trick count and
        its card points under the final trump; two histories with the same key
        score alike whatever the rest of the hand brings.
        """
        return tuple((self.tricks(t),) + tuple(self.card_points(t, tr) for tr in self.final_trumps(trump))
                     for t in taken)

    # --- sides and measures ---------------------------------------------------

    def tricks(self, taken: int) -> int:
        return C.popcount(taken) // self.n_players

    def partners(self) -> tuple[tuple[int, ...], ...]:
        """The sides of the game; seats play alone unless a game says otherwise."""
        return tuple((s,) for s in range(self.n_players))

    def side(self, hero: int) -> tuple[int, ...]:
        for team in self.partners():
            if hero in team:
                return team
        raise ValueError(hero)

    def default_goal(self, measure: str) -> str:
        return "min"

    def measure(self, taken: Sequence[int], trump: Trump, last_winner: int | None,
                side: Sequence[int], measure: str) -> int:
        """The side's total of ``measure`` (RULES.md §6)."""
        if measure == "tricks":
            return sum(self.tricks(taken[s]) for s in side)
        sc = self.scores(taken, trump, last_winner)
        return sum(sc[s] for s in side)

    def format_trump(self, trump: Trump) -> str:
        return "none" if trump is None else C.SUITS[trump]


# --- option readers shared by the games ---------------------------------------

def read_suit(game: str, key: str, value: Any, allow_none: bool) -> int | None:
    """A trump option: ``S H D C`` (any case, or a symbol), or no-trump (``NT``, ``none``, null)."""
    if value is None or (isinstance(value, str) and value.strip().upper() in ("NT", "NONE", "N")):
        if allow_none:
            return None
    elif isinstance(value, str):
        v = value.strip().upper()
        for i, (letter, symbol) in enumerate(zip(C.SUITS, C.SUIT_SYMBOLS)):
            if v in (letter, symbol):
                return i
    allowed = "S, H, D, C" + (" or NT" if allow_none else "")
    raise OptionError(f"{game}: option {key!r} must be {allowed}, got {value!r}")


def read_choice(game: str, key: str, value: Any, choices: Sequence[Any]) -> Any:
    # Same type as well as equal: 3.0 is not the seat count 3 (nor True the 1).
    for choice in choices:
        if type(value) is type(choice) and value == choice:
            return choice
    raise OptionError(f"{game}: option {key!r} must be one of {', '.join(map(repr, choices))}, got {value!r}")


def read_bool(game: str, key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise OptionError(f"{game}: option {key!r} must be true or false, got {value!r}")


def options_from_json(raw: Any, game: str) -> dict[str, Any]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise OptionError(f"{game}: 'options' must be an object, got {raw!r}")
    return dict(raw)
