"""Seeded random deals and playouts, the same on every machine.

The generator is SplitMix64 with a Fisher-Yates shuffle, written out here so
that a seed names the same deal on any Python version or platform (and other
tools can reproduce it).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from . import cards as C
from .games import Game, Moon, make_game
from .objective import Objective
from .position import Position

_MASK64 = (1 << 64) - 1


class Rng:
    """SplitMix64: small, fast, and fully specified."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform in ``0..n-1`` (rejection sampling, no modulo bias)."""
        limit = (1 << 64) - (1 << 64) % n
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: list[Any]) -> Any:
        return items[self.below(len(items))]


def deal(game: Game | str, seed: int, **options: Any) -> Position:
    """A random deal of ``game`` from ``seed``, with the hand's first leader.

    * Minimo: 10 cards each, 2 to the widow; seat 0 leads. ``open=True`` turns
      5 random cards of each hand face up.
    * Minimisere: 13 each; the holder of the club 2 leads.
    * Mittlere Jass: 12 each; seat 0 leads.
    * Moon: 7 tiles each (3 players: one tile to the widow, which the bidder
      takes before discarding). The bidder leads. Without a ``contract``
      option the bidder names the number it holds most of (doubles count,
      the highest number on ties); it discards its weakest tile: the lowest
      non-trump, by its higher end then its lower end.
    * Bridge: 13 each; seat 0 leads; trump ``NT`` unless given.
    """
    rng = Rng(seed)
    if isinstance(game, str):
        name = game
        if name == "bridge":
            options.setdefault("trump", "NT")
        random_open = options.pop("open", None) is True if name == "minimo" else False
        moon_needs_contract = name == "moon" and options.get("contract") is None
        if moon_needs_contract:
            options["contract"] = "none"  # placeholder until the bidder has looked at its tiles
        game = make_game(name, **options)
    else:
        random_open = moon_needs_contract = False
    pieces = game.sorted_pieces(game.deck)
    rng.shuffle(pieces)
    n, k = game.n_players, game.hand_size
    hands = [C.mask_of(pieces[s * k:(s + 1) * k]) for s in range(n)]
    widow = pieces[n * k:]
    leader = 0
    if game.name == "minimisere":
        two = C.card(C.CLUBS, C.TWO)
        leader = next(s for s in range(n) if hands[s] >> two & 1)
    elif isinstance(game, Moon):
        leader = game.bidder
        if moon_needs_contract:
            game = make_game("moon", **{**game.options, "contract": _moon_contract(hands[leader] | C.mask_of(widow))})
        if widow:
            eight = hands[leader] | C.mask_of(widow)
            hands[leader] = eight & ~(1 << _moon_discard(game, eight))
    elif random_open:
        faceup = []
        for h in hands:
            cards = game.sorted_pieces(h)
            rng.shuffle(cards)
            faceup.append(game.format_hand(C.mask_of(cards[:5])))
        game = make_game("minimo", **{**game.options, "open": faceup})
    return Position(game, hands, leader)


def _moon_contract(tiles: int) -> str:
    counts = [sum(1 for t in C.bits(tiles) if number in C.tile_ends(t)) for number in range(7)]
    return str(max(range(7), key=lambda num: (counts[num], num)))


def _moon_discard(game: Moon, tiles: int) -> int:
    plain = [t for t in C.bits(tiles) if not game.is_trump(t)] or list(C.bits(tiles))
    return min(plain, key=lambda t: (C.tile_ends(t), t))


def playout(position: Position, moves: int, seed: int) -> Position:
    """A copy of ``position`` after ``moves`` random legal moves (fewer if the hand ends)."""
    rng = Rng(seed)
    pos = position.copy()
    for _ in range(moves):
        if pos.is_over():
            break
        pos.play(rng.choice(pos.legal_moves()))
    return pos


def cut(position: Position, cards_left: int, extra: int, seed: int) -> Position:
    """Play random legal moves until each hand has ``cards_left`` pieces, then ``extra`` more.

    ``extra`` in ``0..n_players-1`` leaves a trick part-played. The result's
    objective is the default one for its seat to move.
    """
    rng = Rng(seed)
    pos = position.copy()
    while max(C.popcount(h) for h in pos.hands) > cards_left or pos.trick:
        pos.play(rng.choice(pos.legal_moves()))
    for _ in range(extra):
        if pos.is_over():
            break
        pos.play(rng.choice(pos.legal_moves()))
    pos.objective = Objective.make(pos.game, pos.to_move)
    return pos


def random_positions(game: str, count: int, seed: int, cards_left: tuple[int, int] = (3, 6),
                     **options: Any) -> Iterator[Position]:
    """Seeded random positions: deals cut to a few cards a hand, some mid-trick."""
    rng = Rng(seed)
    for _ in range(count):
        base = deal(game, rng.next64(), **options)
        left = cards_left[0] + rng.below(cards_left[1] - cards_left[0] + 1)
        yield cut(base, left, rng.below(base.n_players), rng.next64())
