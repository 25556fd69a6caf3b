"""Play a puzzle: the user moves for the player's team, the solver for everyone else.

Reads one move a line (so it works with piped input); ``hint`` shows the
correct move(s), ``show`` redraws the table, ``quit`` gives up. After every
team move it says whether the team is still on an optimal line. Once the
puzzle's last decision is behind a still-optimal team, the puzzle is solved.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO


from solver import Position, solve
from solver.display import picture, seat_name

from .puzzle import Puzzle
from .referee import defence_move, is_solved
from .render import show_text


def play(puzzle: Puzzle, stdin: TextIO, stdout: TextIO, engine: str = "auto") -> int:
    """Run one puzzle interactively; returns 0 when solved, 1 when a move lost value, 2 on quit or end of input."""
    if puzzle.single_dummy is not None:
        return _play_single_dummy(puzzle, stdin, stdout)
    pos = puzzle.to_position()
    task = puzzle.task()
    game = pos.game
    team = set(task.team(game))
    tree = puzzle.tree
    unit = pos.objective.measure
    optimal = True

    def say(text: str) -> None:
        print(text, file=stdout, flush=True)

    say(show_text(puzzle))
    while not pos.is_over():
        if optimal and is_solved(pos, tree):
            say(f"Solved: no decision is left, and the result stays {puzzle.value} {unit}.")
            return 0
        res = solve(pos, pos.objective, engine=engine)  # type: ignore[arg-type]
        seat = pos.to_move
        if seat in team:
            move = _ask(pos, stdin, say, res.best)
            if move is None:
                say("Stopped.")
                return 2
            value = res.move_value(move)
            pos.play(move)
            if value == res.value:
                say(f"{seat_name(pos, seat)} plays {game.format_piece(move)}: still optimal ({value} {unit}).")
            else:
                optimal = False
                say(f"{seat_name(pos, seat)} plays {game.format_piece(move)}: not optimal, "
                    f"{value} {unit} now instead of {res.value}.")
        else:
            move = defence_move(pos, tree, res.best)
            pos.play(move)
            say(f"{seat_name(pos, seat)} plays {game.format_piece(move)}.")
    final = pos.measure()
    say(f"Hand over: {final} {unit} (the best was {puzzle.value}).")
    return 0 if optimal else 1


def _play_single_dummy(puzzle: Puzzle, stdin: TextIO, stdout: TextIO) -> int:
    """One move, judged against the key; the view is all that is shown (hidden cards stay hidden)."""
    from .single_dummy import answer_text, judge
    print(show_text(puzzle), file=stdout, flush=True)
    legal = [m["card"] for m in (puzzle.single_dummy or {})["moves"]]
    while True:
        print(f"your move ({' '.join(legal)}):", file=stdout, flush=True)
        line = stdin.readline()
        if not line or line.strip().lower() in ("quit", "q", "exit"):
            print("Stopped.", file=stdout)
            return 2
        try:
            outcome = judge(puzzle, [line.strip()])
        except ValueError as e:
            print(f"not a move: {e}", file=stdout)
            continue
        print(("Right: " if outcome.correct else "Wrong: ") + outcome.explanation, file=stdout)
        print(answer_text(puzzle), file=stdout)
        return 0 if outcome.correct else 1


def _ask(pos: Position, stdin: TextIO, say: Callable[[str], None], best: list[int]) -> int | None:
    game = pos.game
    legal = pos.legal_moves()
    while True:
        say(f"{seat_name(pos, pos.to_move)} to play ({' '.join(game.format_piece(m) for m in legal)}):")
        line = stdin.readline()
        if not line:
            return None
        text = line.strip()
        if not text:
            continue
        if text.lower() in ("quit", "q", "exit"):
            return None
        if text.lower() == "hint":
            say(f"hint: {' or '.join(game.format_piece(m) for m in best)}")
            continue
        if text.lower() == "show":
            say(picture(pos))
            continue
        try:
            move = game.parse_piece(text)
        except ValueError as e:
            say(f"not a move: {e}")
            continue
        if move not in legal:
            say(f"{game.format_piece(move)} is not legal here")
            continue
        return move
