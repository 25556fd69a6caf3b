"""The result of a solve, in the FORMAT.md shape."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .games import Game
from .objective import Objective


@dataclass
class SolveResult:
    """Value of a position, the value of every legal move, the best moves and one optimal line.

    ``complete`` is false when a node or time budget stopped the search: the
    fields then hold what was known, and ``value`` may be ``None``.
    """

    game: Game
    value: int | None
    objective: Objective
    to_move: int
    moves: list[tuple[int, int | None]]  # (piece, value after it) for every legal move
    best: list[int]
    pv: list[int]
    stats: dict[str, Any] = field(default_factory=dict)
    complete: bool = True

    def move_value(self, piece: int | str) -> int | None:
        """The value after ``piece`` (an index or a token)."""
        if isinstance(piece, str):
            piece = self.game.parse_piece(piece)
        for p, v in self.moves:
            if p == piece:
                return v
        raise KeyError(self.game.format_piece(piece))

    def to_json(self) -> dict[str, Any]:
        fmt = self.game.format_piece
        out: dict[str, Any] = {
            "value": self.value,
            "objective": self.objective.to_json(self.game),
            "to_move": self.to_move,
            "moves": [{"card": fmt(p), "value": v} for p, v in self.moves],
            "best": [fmt(p) for p in self.best],
            "pv": [fmt(p) for p in self.pv],
            "stats": dict(self.stats),
        }
        if not self.complete:
            out["complete"] = False
        return out
