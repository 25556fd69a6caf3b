"""Judge an attempt at a puzzle: the player's moves so far, the defence's replies, right or wrong.

Stateless: an attempt is the list of the player's team's moves from the start;
the referee replays it, answering for the other seats with the solution tree's
defence (or any optimal reply once play leaves the tree). The HTTP service
uses this; a wrong move ends the attempt, as on lichess.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from solver import Position, solve
from solver.errors import IllegalMoveError

from .equivalence import canonical_key
from .puzzle import Puzzle


class AttemptError(ValueError):
    """An attempt that cannot be judged: a move after the end, an unreadable card."""


@dataclass
class Outcome:
    correct: bool                     # every move so far kept the best value
    finished: bool                    # solved, or failed by the last move
    position: dict[str, Any]          # the position now (FORMAT.md), after the defence's replies
    replies: list[str] = field(default_factory=list)   # the defence's moves after the last team move
    explanation: str = ""
    moves: list[list[Any]] = field(default_factory=list)  # at a wrong move: every legal move with its value

    @property
    def solved(self) -> bool:
        return self.correct and self.finished

    def to_json(self) -> dict[str, Any]:
        return {"correct": self.correct, "finished": self.finished, "solved": self.solved,
                "replies": self.replies, "position": self.position, "explanation": self.explanation,
                "moves": self.moves}


def defence_move(pos: Position, tree: nx.DiGraph, best: list[int]) -> int:
    """An optimal reply for a seat outside the team: the tree's first one while the game is in the tree."""
    key = canonical_key(pos)
    if key in tree:
        for _, _, edge in tree.out_edges(key, data=True):
            # The tree's node may be an equivalent position: any best move of the edge's class will do.
            for token in edge["equivalent"]:
                piece = pos.game.parse_piece(token)
                if piece in best:
                    return piece
    return best[0]


def is_solved(pos: Position, tree: nx.DiGraph) -> bool:
    """Whether play has reached the end of a branch of the solution tree (no decision left)."""
    key = canonical_key(pos)
    return pos.is_over() or (key in tree and tree.out_degree(key) == 0 and key != tree.graph["root"])


def judge(puzzle: Puzzle, moves: list[str], engine: str = "auto") -> Outcome:
    """Replay the team's ``moves`` from the puzzle's start and judge the last one."""
    if puzzle.single_dummy is not None:
        from .single_dummy import judge as judge_single_dummy
        return judge_single_dummy(puzzle, moves)
    pos = puzzle.to_position()
    game = pos.game
    team = set(puzzle.task().team(game))
    tree = puzzle.tree
    unit = pos.objective.measure
    replies: list[str] = []
    explanation = "your move" if moves == [] else ""
    for number, token in enumerate(moves, 1):
        if is_solved(pos, tree):
            raise AttemptError(f"move {number} ({token}): the puzzle is already solved")
        try:
            piece = game.parse_piece(token, f"move {number}: ")
        except ValueError as e:
            raise AttemptError(str(e)) from None
        result = solve(pos, pos.objective, engine=engine)  # type: ignore[arg-type]
        if piece not in pos.legal_moves():
            legal = " ".join(game.format_piece(m) for m in pos.legal_moves())
            raise IllegalMoveError(f"move {number}: {game.format_piece(piece)} is not legal here (legal: {legal})")
        value = result.move_value(piece)
        pos.play(piece)
        if value != result.value:
            return Outcome(False, True, pos.to_json(), [],
                           f"{game.format_piece(piece)} gives {value} {unit} instead of {result.value}; "
                           f"best: {' or '.join(game.format_piece(m) for m in result.best)}",
                           [[game.format_piece(m), v] for m, v in result.moves])
        replies = []
        while not is_solved(pos, tree) and pos.to_move not in team:
            reply = defence_move(pos, tree, solve(pos, pos.objective, engine=engine).best)  # type: ignore[arg-type]
            pos.play(reply)
            replies.append(game.format_piece(reply))
        explanation = f"{game.format_piece(piece)} keeps {result.value} {unit}"
    finished = is_solved(pos, tree)
    if finished:
        explanation = f"solved: {puzzle.value} {unit} is the best the team can do"
    return Outcome(True, finished, pos.to_json(), replies, explanation)
