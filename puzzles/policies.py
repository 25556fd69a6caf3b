"""The simple policies a player tries first; a good puzzle defeats them.

A player who wants to *avoid* tricks or points tries: the lowest legal card;
the highest card that does not win the trick; throwing the most dangerous card
when unable to follow. A player who wants to *take* them tries: the lowest
card; the highest card; winning as cheaply as possible.
"""

from __future__ import annotations

from collections.abc import Callable

from solver import Position
from solver.cards import rank_of, suit_of, tile_ends

Policy = Callable[[Position], int]


def _is_trump(pos: Position, piece: int) -> bool:
    game = pos.game
    if game.pieces == "tiles":
        return game.is_trump(piece)  # type: ignore[attr-defined]
    return pos.trump is not None and suit_of(piece) == pos.trump


def low_key(pos: Position, piece: int) -> tuple[int, ...]:
    """Orders pieces from weakest to strongest, for "lowest" and "highest"."""
    game = pos.game
    if game.pieces == "tiles":
        hi, lo = tile_ends(piece)
        return (int(_is_trump(pos, piece)), hi + lo, hi)
    trump = _is_trump(pos, piece)
    rank = game.trump_rank(piece) if trump else rank_of(piece)  # type: ignore[attr-defined]
    return (rank, int(trump), -suit_of(piece))


def points(pos: Position, piece: int) -> int:
    """The most the piece can be worth under any trump the hand can still end in."""
    game = pos.game
    return max(game.card_points(1 << piece, t) for t in game.final_trumps(pos.trump))


def wins_so_far(pos: Position, piece: int) -> bool:
    """Whether ``piece``, played now, would head the trick as it stands."""
    game = pos.game
    trick = pos.trick + [piece]
    trump = game.next_trump(pos.trump, pos.trick, piece)
    return game.winner(trick, trump) == len(trick) - 1


def beatable_lead(pos: Position, piece: int) -> bool:
    """Whether some other seat could beat ``piece`` if it were led now."""
    game = pos.game
    trump = game.next_trump(pos.trump, [], piece)
    for seat, hand in enumerate(pos.hands):
        if seat == pos.to_move:
            continue
        for reply in pos.game.sorted_pieces(game.legal(hand, [piece], trump)):
            after = game.next_trump(trump, [piece], reply)
            if game.winner([piece, reply], after) == 1:
                return True
    return False


def follows(pos: Position, piece: int) -> bool:
    """Whether ``piece`` follows the led suit of the current trick."""
    game = pos.game
    lead = pos.trick[0]
    if game.pieces == "tiles":
        return game.follows(piece, game.led_suit(lead))  # type: ignore[attr-defined]
    return suit_of(piece) == suit_of(lead)


def _lowest(pos: Position) -> int:
    return min(pos.legal_moves(), key=lambda m: low_key(pos, m))


def _highest(pos: Position) -> int:
    return max(pos.legal_moves(), key=lambda m: low_key(pos, m))


def _duck(pos: Position) -> int:
    legal = pos.legal_moves()
    if pos.trick:
        losing = [m for m in legal if not wins_so_far(pos, m)]
    else:
        losing = [m for m in legal if beatable_lead(pos, m)]
    return max(losing or legal, key=lambda m: low_key(pos, m))


def _discard_danger(pos: Position) -> int:
    legal = pos.legal_moves()
    if pos.trick and not any(follows(pos, m) for m in legal):
        return max(legal, key=lambda m: (points(pos, m), low_key(pos, m)))
    return _duck(pos)


def _win_cheaply(pos: Position) -> int:
    legal = pos.legal_moves()
    if pos.trick:
        winners = [m for m in legal if wins_so_far(pos, m)]
        return min(winners or legal, key=lambda m: low_key(pos, m))
    sure = [m for m in legal if not beatable_lead(pos, m)]
    return max(sure, key=lambda m: low_key(pos, m)) if sure else _lowest(pos)


AVOID: dict[str, Policy] = {"lowest": _lowest, "duck": _duck, "discard-danger": _discard_danger}
TAKE: dict[str, Policy] = {"lowest": _lowest, "highest": _highest, "win-cheaply": _win_cheaply}


def policies_for(takes: bool) -> dict[str, Policy]:
    """The policies a player tries first, by whether the player's team wants to take tricks or avoid them."""
    return TAKE if takes else AVOID
