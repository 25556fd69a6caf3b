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

from solver import Position
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


def _group_and_orders(pos: Position, piece: int) -> tuple[object, list[Order]] | None:
    """The group a piece is ranked in and the rank orders that may apply to it (None: never equivalent)."""
    game = pos.game
    if game.pieces == "tiles":
        # A non-trump tile sits in two suits at once; only trumps rank in a single order.
        if not game.is_trump(piece):  # type: ignore[attr-defined]
            return None
        return ("trump", [game.trump_rank])  # type: ignore[attr-defined]
    suit = suit_of(piece)
    orders: list[Order] = [rank_of]
    if game.dynamic_trump:
        # Jass: the jack of trumps has its own follow rule; a suit that is or may become trump
        # ranks in the trump order too.
        trumps = {t for t in game.final_trumps(pos.trump) if t is not None}
        if suit in trumps:
            if rank_of(piece) == JACK:
                return None
            orders.append(game.trump_rank)  # type: ignore[attr-defined]
    return (suit, orders)


def _points(pos: Position, piece: int) -> tuple[int, ...]:
    game = pos.game
    return tuple(game.card_points(1 << piece, t) for t in game.final_trumps(pos.trump))


def equivalent(pos: Position, a: int, b: int) -> bool:
    """Whether pieces ``a`` and ``b`` (both in play) are interchangeable in ``pos``."""
    if a == b:
        return True
    holder = [s for s, h in enumerate(pos.hands) if h >> a & 1]
    if not holder or not pos.hands[holder[0]] >> b & 1:
        return False
    ga, gb = _group_and_orders(pos, a), _group_and_orders(pos, b)
    if ga is None or gb is None or ga[0] != gb[0]:
        return False
    if _points(pos, a) != _points(pos, b):
        return False
    group, orders = ga
    others = [c for c in bits(in_play(pos)) if c not in (a, b) and _same_group_any(pos, c, group)]
    for order in orders:
        lo, hi = sorted((order(a), order(b)))
        if any(lo < order(c) < hi for c in others):
            return False
    return True


def _same_group_any(pos: Position, piece: int, group: object) -> bool:
    """Whether ``piece`` ranks in ``group`` even if it is never equivalent to anything (a Jass jack)."""
    if pos.game.pieces == "tiles":
        return group == "trump" and pos.game.is_trump(piece)  # type: ignore[attr-defined]
    return suit_of(piece) == group


def classes(pos: Position, pieces: list[int]) -> list[list[int]]:
    """``pieces`` grouped into classes of mutually equivalent pieces (chains of adjacent ones), in order."""
    parent = {p: p for p in pieces}

    def find(p: int) -> int:
        while parent[p] != p:
            p = parent[p]
        return p

    for i, a in enumerate(pieces):
        for b in pieces[i + 1:]:
            if find(a) != find(b) and equivalent(pos, a, b):
                parent[find(b)] = find(a)
    out: dict[int, list[int]] = {}
    for p in pieces:
        out.setdefault(find(p), []).append(p)
    return list(out.values())


def representative_map(pos: Position) -> dict[int, int]:
    """Each piece in a hand mapped to the first (canonical order) piece of its class in that hand."""
    rep: dict[int, int] = {}
    for hand in pos.hands:
        for cls in classes(pos, pos.game.sorted_pieces(hand)):
            for p in cls:
                rep[p] = cls[0]
    return rep


def canonical_key(pos: Position) -> str:
    """A string that is the same for two positions exactly when they match up to equivalent cards.

    What was taken enters only through the game's score key (tricks and points per
    seat), which is all the hand score can still depend on.
    """
    game = pos.game
    rep = representative_map(pos)
    fmt = game.format_piece
    hands = [sorted((fmt(rep[p]) for p in game.sorted_pieces(h)), key=lambda t: game.sort_key(game.parse_piece(t)))
             for h in pos.hands]
    options = {k: v for k, v in game.options_for(pos.trump, pos.hands).items() if k != "open"}
    obj = pos.objective
    data = [game.name, options, hands, pos.leader, [fmt(p) for p in pos.trick],
            game.format_trump(pos.trump), game.score_key(pos.taken, pos.trump),
            [obj.hero, obj.measure, obj.goal]]
    return json.dumps(data, separators=(",", ":"), sort_keys=True)
