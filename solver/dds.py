"""DDS, the bridge solver of Haglund and Hein, through endplay: the gold standard to check against.

An optional extra (``pip install .[dds]``); everything here raises
``DDSUnavailable`` with a plain message when endplay cannot be imported.
DDS runs on one thread, so that timings compare with openhand's one core.
"""

from __future__ import annotations

from typing import Any

from . import cards as C
from .position import Position

STRAINS = ("S", "H", "D", "C", "NT")  # DDS's order of denominations


class DDSUnavailable(RuntimeError):
    """endplay (and with it DDS) is not installed."""


_loaded: Any = None


def _endplay() -> Any:
    """Import endplay once and put DDS on one thread (endplay turns threading on at import)."""
    global _loaded
    if _loaded is None:
        try:
            import endplay._dds as raw
            import endplay.dds as dds
            import endplay.types as types
        except ImportError as e:
            raise DDSUnavailable(f"DDS is not available (pip install 'openhand[dds]' installs endplay): {e}") from None
        raw.SetMaxThreads(1)
        _loaded = (dds, types)
    return _loaded


def available() -> bool:
    try:
        _endplay()
    except DDSUnavailable:
        return False
    return True


def _pbn(position: Position, hands: list[int]) -> str:
    def holding(mask: int) -> str:
        return ".".join("".join(C.RANKS[r] for r in range(12, -1, -1) if mask >> C.card(s, r) & 1)
                        for s in range(4))
    return "N:" + " ".join(holding(h) for h in hands)


def to_deal(position: Position) -> Any:
    """The endplay ``Deal`` of a bridge position, with its current trick played."""
    if position.game.name != "bridge":
        raise ValueError(f"DDS solves bridge, not {position.game.name}")
    dds, types = _endplay()
    hands = list(position.hands)
    for i, c in enumerate(position.trick):  # give the trick back, then replay it
        hands[(position.leader + i) % 4] |= 1 << c
    trump = position.game.trump
    deal = types.Deal(_pbn(position, hands), first=types.Player(position.leader),
                      trump=types.Denom(4 if trump is None else trump))
    for c in position.trick:
        deal.play(types.Card(suit=types.Denom(C.suit_of(c)), rank=types.Rank(4 << C.rank_of(c))))
    return deal


def move_tricks(position: Position) -> dict[int, int]:
    """For every legal card of the seat to move: the most tricks its side takes from here on (SolveBoard, solutions=3)."""
    return move_tricks_of_deal(to_deal(position))


def move_tricks_of_deal(deal: Any) -> dict[int, int]:
    """``move_tricks`` on a ready endplay deal (so that a timing covers DDS alone)."""
    return move_tricks_and_nodes(deal)[0]


def move_tricks_and_nodes(deal: Any) -> tuple[dict[int, int], int | None]:
    """``move_tricks_of_deal``, and the nodes DDS reports (``futureTricks.nodes``: the nodes at
    the start of a trick; None where endplay does not pass them on)."""
    dds, _ = _endplay()
    board = dds.solve_board(deal)
    nodes = getattr(getattr(board, "_data", None), "nodes", None)  # endplay keeps DDS's struct there
    moves = {C.card(int(card.suit), int(card.rank).bit_length() - 3): score for card, score in board}
    return moves, int(nodes) if isinstance(nodes, int) else None


def dd_table(position: Position) -> dict[str, list[int]]:
    """CalcDDtable: ``{strain: [tricks for declarer N, E, S, W]}`` with the seat left of declarer leading."""
    dds, _ = _endplay()
    if position.trick or any(position.taken) or len({C.popcount(h) for h in position.hands}) != 1:
        raise ValueError("a DD table needs a position at a trick boundary with nothing taken")
    rows = dds.calc_dd_table(to_deal(position)).to_list()
    return {strain: list(rows[i]) for i, strain in enumerate(STRAINS)}
