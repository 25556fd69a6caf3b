"""Cards, tiles and card sets as bitmasks.

Every game numbers its pieces in one shared scheme, so a set of them is an
``int`` bitmask and the engine sees only integers:

* a card is ``suit * 13 + rank`` with suits ``S H D C`` = 0..3 and ranks
  ``2..A`` = 0..12, so bits ``13*s .. 13*s+12`` hold one suit (as in DDS);
* a domino tile ``hi-lo`` (``hi >= lo``) is ``hi * (hi + 1) // 2 + lo`` (0..27).

Parsing is lenient (FORMAT.md); formatting is canonical.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .errors import UnknownCardError

SUITS = "SHDC"
RANKS = "23456789TJQKA"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(13)
SUIT_MASK = 0x1FFF  # the 13 bits of one suit


def card(suit: int, rank: int) -> int:
    """The index of the card of ``suit`` (0..3) and ``rank`` (0 = 2 .. 12 = A)."""
    return suit * 13 + rank


def suit_of(c: int) -> int:
    return c // 13


def rank_of(c: int) -> int:
    return c % 13


def suit_bits(suit: int) -> int:
    """The mask of all 13 cards of ``suit``."""
    return SUIT_MASK << (13 * suit)


def tile(hi: int, lo: int) -> int:
    """The index of the domino ``hi-lo``; the ends may come in either order."""
    if hi < lo:
        hi, lo = lo, hi
    return hi * (hi + 1) // 2 + lo


def tile_ends(t: int) -> tuple[int, int]:
    """``(hi, lo)`` of tile index ``t``."""
    hi = 0
    while (hi + 1) * (hi + 2) // 2 <= t:
        hi += 1
    return hi, t - hi * (hi + 1) // 2


# --- bitmask helpers --------------------------------------------------------

def bits(mask: int) -> Iterator[int]:
    """The indices set in ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(indices: Iterable[int]) -> int:
    m = 0
    for i in indices:
        m |= 1 << i
    return m


def popcount(mask: int) -> int:
    return mask.bit_count()


# --- tokens -----------------------------------------------------------------

_SUIT_INPUT = {**{s: i for i, s in enumerate(SUITS)}, **{s: i for i, s in enumerate(SUIT_SYMBOLS)},
               "♤": 0, "♡": 1, "♢": 2, "♧": 3}
_RANK_INPUT = {r: i for i, r in enumerate(RANKS)}
_RANK_INPUT["10"] = TEN


def parse_card_token(token: str) -> int:
    """Read one card token: ``SA``, ``AS``, ``s10``, ``10♠``, ``♠T``.

    Returns the card index; whether the game has that card is the game's
    question.
    """
    t = token.strip().upper()
    if len(t) >= 2:
        if t[0] in _SUIT_INPUT and t[1:] in _RANK_INPUT:
            return card(_SUIT_INPUT[t[0]], _RANK_INPUT[t[1:]])
        if t[-1] in _SUIT_INPUT and t[:-1] in _RANK_INPUT:
            return card(_SUIT_INPUT[t[-1]], _RANK_INPUT[t[:-1]])
    raise UnknownCardError(f"cannot read {token!r} as a card (try 'SA', 'HT', 'D7')")


def format_card(c: int) -> str:
    return SUITS[suit_of(c)] + RANKS[rank_of(c)]


def parse_tile_token(token: str) -> int:
    """Read one tile token: ``6-4`` or ``4-6``."""
    parts = token.strip().split("-")
    if len(parts) == 2 and all(p.strip().isdigit() and len(p.strip()) == 1 for p in parts):
        a, b = int(parts[0]), int(parts[1])
        if a <= 6 and b <= 6:
            return tile(a, b)
    raise UnknownCardError(f"cannot read {token!r} as a tile (try '6-4', '0-0')")


def format_tile(t: int) -> str:
    hi, lo = tile_ends(t)
    return f"{hi}-{lo}"


def parse_pbn_hand(text: str) -> list[int]:
    """Read a PBN holding ``AKQ.JT9.87.A`` (spades.hearts.diamonds.clubs)."""
    parts = text.strip().split(".")
    if len(parts) != 4:
        raise UnknownCardError(
            f"cannot read {text!r} as a PBN hand: it needs four dot-separated holdings (S.H.D.C)")
    cards = []
    for suit, holding in enumerate(parts):
        holding = holding.strip().upper()
        if holding == "-":
            continue
        i = 0
        while i < len(holding):
            if holding.startswith("10", i):
                r, i = TEN, i + 2
            elif holding[i] in _RANK_INPUT:
                r, i = _RANK_INPUT[holding[i]], i + 1
            else:
                raise UnknownCardError(
                    f"cannot read {holding[i]!r} in the {SUIT_NAMES[suit]} of PBN hand {text!r}")
            cards.append(card(suit, r))
    return cards
