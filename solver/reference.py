"""The reference solver: exact minimax in plain Python, the yardstick for the engine.

It plays moves on a ``Position`` and scores finished hands with the game's own
scoring code, so it shares nothing with the engine but the rules as written in
``solver.games``. Alpha-beta with a memo of bounds at trick boundaries keeps it
usable on endgames of a few cards a hand. The memo key is the rest of the
state (hands, leader, trump) plus the game's ``score_key`` of what has been
taken: each seat's tricks and card points, all the hand score depends on (for
the tricks measure, just the side's tricks).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from .cards import bits
from .objective import Objective
from .position import Position
from .result import SolveResult

INF = 10**9


class ReferenceSearch:
    """Minimax values of one position for one objective."""

    def __init__(self, position: Position, objective: Objective | None = None) -> None:
        self.pos = position.copy()
        self.objective = objective or position.objective
        self.side = set(self.objective.side(position.game))
        self.maximize = self.objective.goal == "max"
        self.memo: dict[tuple, tuple[int, int]] = {}
        self.nodes = 0

    def _max_node(self) -> bool:
        """Whether the seat to move wants the measure high."""
        return (self.pos.to_move in self.side) == self.maximize

    def _score_key(self) -> tuple:
        """What the final measure depends on, of what has been taken so far."""
        pos = self.pos
        if self.objective.measure == "tricks":  # the side's tricks so far, nothing else
            return (sum(pos.game.tricks(pos.taken[s]) for s in self.side),)
        return pos.game.score_key(pos.taken, pos.trump)

    def value(self, alpha: int = -INF, beta: int = INF) -> int:
        """Fail-soft alpha-beta: exact inside (alpha, beta), a bound outside it."""
        pos = self.pos
        self.nodes += 1
        if pos.is_over():
            return pos.measure(self.objective)
        key = None
        if not pos.trick:
            key = (tuple(pos.hands), pos.leader, pos.trump, self._score_key())
            lo, hi = self.memo.get(key, (-INF, INF))
            if lo == hi or lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            alpha, beta = max(alpha, lo), min(beta, hi)
        a0, b0 = alpha, beta
        maximizing = self._max_node()
        best = -INF if maximizing else INF
        for move in bits(pos.legal_mask()):
            pos.push(move)
            v = self.value(alpha, beta)
            pos.undo()
            if maximizing:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        if key is not None:
            lo, hi = self.memo.get(key, (-INF, INF))
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            self.memo[key] = (lo, hi)
        return best

    def exact(self) -> int:
        return self.value(-INF, INF)

    def move_values(self, progress: Callable[[int, int], None] | None = None) -> list[tuple[int, int]]:
        out = []
        moves = list(self.pos.legal_moves())
        if progress is not None:
            progress(0, len(moves))
        for move in moves:
            self.pos.push(move)
            out.append((move, self.exact()))
            self.pos.undo()
            if progress is not None:
                progress(len(out), len(moves))
        return out

    def principal_variation(self, value: int) -> list[int]:
        """One optimal line to the end of the hand: at each step, the first move that keeps ``value``."""
        line = []
        while not self.pos.is_over():
            for move in self.pos.legal_moves():
                self.pos.push(move)
                if self.value(value - 1, value + 1) == value:
                    line.append(move)
                    break
                self.pos.undo()
            else:  # pragma: no cover - a value always has a move that keeps it
                raise AssertionError("no move keeps the value")
        for _ in line:
            self.pos.undo()
        return line


def solve(position: Position, objective: Objective | None = None, *, pv: bool = True,
          progress: Callable[[int, int], None] | None = None) -> SolveResult:
    """Solve ``position`` exactly: value, every move's value, best moves, a principal variation (unless ``pv=False``).

    ``progress(done, total)`` is called first with 0 and after each legal move is valued."""
    start = time.perf_counter()
    search = ReferenceSearch(position, objective)
    obj = search.objective
    if position.is_over():
        value = position.measure(obj)
        moves: list[tuple[int, int]] = []
    else:
        moves = search.move_values(progress)
        pick = max if search._max_node() else min
        value = pick(v for _, v in moves)
    best = [m for m, v in moves if v == value]
    line = search.principal_variation(value) if pv else []
    stats = {"nodes": search.nodes, "seconds": round(time.perf_counter() - start, 6), "engine": "reference"}
    return SolveResult(position.game, value, obj, position.to_move, list(moves), best, line, stats)
