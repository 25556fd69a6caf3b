"""Equivalent cards and the canonical key of a position up to them.

Two pieces are *equivalent* when swapping them can change nothing: same
holder, adjacent in every rank order that can apply to them among the pieces
still in play (hands and current trick), and the same points under every trump
the hand can still end in. The test is deliberately conservative: a false
"not equivalent" only makes the generator reject a puzzle, while a false
"equivalent" would let a second solution through.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache

from solver import Game, Position
from solver.games import Trump
from solver.cards import JACK, bits, rank_of, suit_of

Order = Callable[[int], int]


def in_play(pos: Position) -> int:
    """The pieces still in the hands or in the current trick."""
    mask = 0
    for h in pos.hands:
        mask |= h
    for p in pos.trick:
        mask |= 1 << p
    return mask


@lru_cache(maxsize=256)
def _points(game: Game, trump: Trump) -> dict[int, tuple[int, ...]]:
    """Each piece's points under every trump the hand can still end in (a game's values never change)."""
    finals = game.final_trumps(trump)
    return {p: tuple(game.card_points(1 << p, t) for t in finals) for p in bits(game.deck)}


class _Ranking:
    """For one position: each in-play piece's group, rank orders, points and holder (computed once)."""

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        game = pos.game
        self.trumps = {t for t in game.final_trumps(pos.trump) if t is not None} if game.dynamic_trump else set()
        self.final = game.final_trumps(pos.trump)
        self.members: dict[object, list[int]] = {}
        self.info: dict[int, tuple[object, bool, tuple[Order, ...], tuple[int, ...]]] = {}
        for piece in bits(in_play(pos)):
            group, ranked, orders = self._classify(piece)
            self.members.setdefault(group, []).append(piece)
            self.info[piece] = (group, ranked, orders, _points(game, pos.trump)[piece])

    def _classify(self, piece: int) -> tuple[object, bool, tuple[Order, ...]]:
        """The group a piece ranks in, whether it can be equivalent to anything, and its rank orders."""
        game = self.pos.game
        if game.pieces == "tiles":
            # A non-trump tile sits in two suits at once; only trumps rank in a single order.
            if game.is_trump(piece):  # type: ignore[attr-defined]
                return "trump", True, (game.trump_rank,)  # type: ignore[attr-defined]
            return ("plain", piece), False, ()
        suit = suit_of(piece)
        if suit in self.trumps:
            # Jass: the jack of trumps has its own follow rule; a suit that is or may become
            # trump ranks in the trump order too.
            return suit, rank_of(piece) != JACK, (rank_of, game.trump_rank)  # type: ignore[attr-defined]
        return suit, True, (rank_of,)

    def equivalent(self, a: int, b: int) -> bool:
        if a == b:
            return True
        ga, ra, orders, pa = self.info[a]
        gb, rb, _, pb = self.info[b]
        if not (ra and rb) or ga != gb or pa != pb:
            return False
        if not any(h >> a & 1 and h >> b & 1 for h in self.pos.hands):
            return False
        others = [c for c in self.members[ga] if c != a and c != b]
        for order in orders:
            lo, hi = sorted((order(a), order(b)))
            if any(lo < order(c) < hi for c in others):
                return False
        return True

    def classes(self, pieces: list[int]) -> list[list[int]]:
        parent = {p: p for p in pieces}

        def find(p: int) -> int:
            while parent[p] != p:
                p = parent[p]
            return p

        for i, a in enumerate(pieces):
            for b in pieces[i + 1:]:
                if find(a) != find(b) and self.equivalent(a, b):
                    parent[find(b)] = find(a)
        out: dict[int, list[int]] = {}
        for p in pieces:
            out.setdefault(find(p), []).append(p)
        return list(out.values())


def equivalent(pos: Position, a: int, b: int) -> bool:
    """Whether pieces ``a`` and ``b`` (both in play) are interchangeable in ``pos``."""
    return a == b or _Ranking(pos).equivalent(a, b)


def classes(pos: Position, pieces: list[int]) -> list[list[int]]:
    """``pieces`` grouped into classes of mutually equivalent pieces (chains of adjacent ones), in order."""
    return _Ranking(pos).classes(pieces)


def representative_map(pos: Position, ranking: _Ranking | None = None) -> dict[int, int]:
    """Each piece in a hand mapped to the first (canonical order) piece of its class in that hand."""
    ranking = ranking or _Ranking(pos)
    rep: dict[int, int] = {}
    for hand in pos.hands:
        for cls in ranking.classes(pos.game.sorted_pieces(hand)):
            for p in cls:
                rep[p] = cls[0]
    return rep


def key_and_classes(pos: Position, pieces: list[int]) -> tuple[str, list[list[int]]]:
    """``canonical_key(pos)`` and ``classes(pos, pieces)`` at the cost of one."""
    ranking = _Ranking(pos)
    return canonical_key(pos, ranking), ranking.classes(pieces)


def canonical_key(pos: Position, ranking: _Ranking | None = None) -> str:
    """A string that is the same for two positions exactly when they match up to equivalent cards.

    What was taken enters only through the game's score key (tricks and points per
    seat), which is all the hand score can still depend on.
    """
    game = pos.game
    rep = representative_map(pos, ranking)
    fmt = game.format_piece
    hands = [[fmt(p) for p in sorted((rep[p] for p in bits(h)), key=game.sort_key)] for h in pos.hands]
    options = {k: v for k, v in game.options_for(pos.trump, pos.hands).items() if k != "open"}
    obj = pos.objective
    data = [game.name, options, hands, pos.leader, [fmt(p) for p in pos.trick],
            game.format_trump(pos.trump), game.score_key(pos.taken, pos.trump),
            [obj.hero, obj.measure, obj.goal]]
    return json.dumps(data, separators=(",", ":"), sort_keys=True)
