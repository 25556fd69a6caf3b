"""Single-dummy puzzles for Open Minimo: the player sees only its own hand and the face-up cards.

A candidate position is seen from the seat to move (``solver.single_dummy.View``):
its own hand, the others' face-up cards still in hand, everything played. Every
hidden layout consistent with that view (the others' hidden cards and the
widow) is solved double-dummy; the **key** is the class of moves that is best
in at least ``threshold`` (95%) of the layouts, and it must be the only one.

Such a puzzle is a ``Puzzle`` with ``pool="single-dummy"``, the tag
``single-dummy`` and a ``single_dummy`` field: the view, the threshold, how
the layouts were taken (all of them, or a seeded sample) and, for every legal
move, the layouts where it is best, its share, mean, worst, best and
distribution. ``position`` holds the deal the candidate came from (one layout
among many); renderers and the service show the view only. The generic
fields mean: ``value`` the key's worst value over the layouts, ``moves`` each
move's mean value, ``line`` the key, ``decisions`` 1, ``tree`` a single
node (the view), ``policies`` where the simple "lowest" policy fails (the
only simple policy that needs nothing hidden).
"""

from __future__ import annotations

import hashlib
import json
import math
from typing import Any

import networkx as nx

from solver import Position
from solver.errors import PositionError
from solver.single_dummy import Analysis, View, analyse as sd_analyse, count, layouts
from solver.display import seat_name

from .equivalence import classes
from .generator import Rejected
from .policies import AVOID, TAKE
from .puzzle import Puzzle
from .referee import AttemptError, Outcome
from .task import Task

#: The filters a single-dummy candidate meets, in order.
FILTERS = ("layouts", "key", "not obvious", "duplicate")
POOL = "single-dummy"
TAG = "single-dummy"


# --- analysis --------------------------------------------------------------------

def view_of(pos: Position, player: int) -> View:
    return View.from_position(pos, player)


def view_id(view_json: dict[str, Any]) -> str:
    """The puzzle id: a hash of the view (two deals seen alike give the same puzzle)."""
    return hashlib.sha1(json.dumps(view_json, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:10]


def run_analysis(view: View, samples: int | None, seed: int, engine: str) -> Analysis:
    """The analysis a puzzle's claims rest on: every layout, or ``samples`` seeded draws."""
    return sd_analyse(view, samples=samples, seed=seed, engine=engine, progress=False)  # type: ignore[arg-type]


def view_classes(view: View, pieces: list[int]) -> list[list[int]]:
    """``pieces`` grouped into classes equivalent in *every* layout (so their values always agree)."""
    groups = [list(pieces)]
    for layout in layouts(view):  # every layout, however many: a sample would not prove equivalence
        if all(len(g) == 1 for g in groups):
            break
        try:
            pos = view.position(layout)
        except PositionError:  # a layout the analysis skips too
            continue
        refined: list[list[int]] = []
        for g in groups:
            refined += classes(pos, g) if len(g) > 1 else [g]
        groups = refined
    order = {p: i for i, p in enumerate(pieces)}
    return sorted(groups, key=lambda g: order[g[0]])


def stats_json(a: Analysis) -> list[dict[str, Any]]:
    """Per move: the layouts where it is legal and best, its share, mean, worst, best and distribution."""
    fmt = a.view.game.format_piece
    return [{"card": fmt(m.piece), "layouts": m.layouts, "best_in": m.best_in,
             "share": round(m.best_in / m.layouts, 6), "mean": round(m.mean(), 6),
             "worst": a.worst(m), "best": a.best(m),
             "distribution": [[v, k] for v, k in sorted(m.values.items())]} for m in a.moves]


def key_of(view: View, a: Analysis, threshold: float) -> tuple[list[int] | None, str]:
    """The key class, or ``None`` and why there is none."""
    legal = [m.piece for m in a.moves]
    if a.layouts == 0 or len(view_classes(view, legal)) < 2:
        return None, "one class of moves"
    top = [m.piece for m in a.moves if m.best_in >= threshold * a.layouts]
    if not top:
        return None, "no move reaches the threshold"
    groups = view_classes(view, top)
    if len(groups) > 1:
        return None, "two moves reach the threshold"
    return groups[0], ""


def lowest_policy(pos: Position, task: Task) -> int:
    """What the simple "lowest" policy plays (it looks only at the player's own legal cards)."""
    return (TAKE if task.takes(pos.game) else AVOID)["lowest"](pos)


def difficulty(legal: int, lowest_fails: bool, runner_up: float) -> tuple[float, int]:
    """A score and a level 1..5: bits to pick the move, +1 if "lowest" fails, +4x the runner-up's share.

    A runner-up that is often best is a tempting wrong answer. Levels cut at 3, 4.5, 6 and 7.5.
    """
    score = round(math.log2(max(2, legal)) + lowest_fails + 4 * runner_up, 2)
    return score, 1 + sum(score >= cut for cut in (3, 4.5, 6, 7.5))


def _tree(view_json: dict[str, Any], to_move: int, moves: list[list[Any]]) -> nx.DiGraph:
    """A single decision: the view as the only node (the puzzle ends after the first move)."""
    g = nx.DiGraph()
    key = json.dumps(view_json, sort_keys=True, separators=(",", ":"))
    g.add_node(key, view=view_json, to_move=to_move, hero=True, decision=True, moves=moves)
    g.graph["root"] = key
    return g


def make_puzzle(pos: Position, task: Task, *, threshold: float = 0.95, max_layouts: int = 5000,
                min_layouts: int = 10, samples: int | None = None, seed: int = 1, engine: str = "auto",
                seen: set[str] | None = None, source: dict[str, Any] | None = None,
                stats: Any = None) -> Puzzle:
    """Build the single-dummy puzzle of ``pos`` seen by the seat to move; raise ``Rejected`` at the first
    filter it fails. ``stats`` (a generator ``Stats`` over ``FILTERS``) counts entries and passes.

    With ``samples`` a view over ``max_layouts`` is analysed on that many seeded draws; without, it is
    rejected (claims then rest on every layout).
    """
    def enter(name: str) -> None:
        if stats is not None:
            stats.entered[name] += 1

    def passed(name: str) -> None:
        if stats is not None:
            stats.passed[name] += 1

    def reject(name: str, reason: str) -> Rejected:
        if stats is not None:
            stats.reasons[f"{name}: {reason}"] = stats.reasons.get(f"{name}: {reason}", 0) + 1
        return Rejected(name, reason)

    pos = Position.from_json(pos.to_json())  # the stored form (face-up cards still in hand), as check reads it
    game = pos.game
    fmt = game.format_piece
    view = view_of(pos, task.player)
    view_json = view.to_json()

    enter("layouts")
    total = count(view)
    if total < min_layouts:
        raise reject("layouts", f"under {min_layouts}")
    if total > max_layouts and samples is None:
        raise reject("layouts", f"over {max_layouts}")
    passed("layouts")

    enter("key")
    a = run_analysis(view, samples if total > max_layouts else None, seed, engine)
    key, why = key_of(view, a, threshold)
    if key is None:
        raise reject("key", why)
    passed("key")

    enter("not obvious")
    low = lowest_policy(pos, task)
    by_piece = {m.piece: m for m in a.moves}
    lowest = None if low in key else {"move": fmt(low), "share": round(by_piece[low].best_in / a.layouts, 6)}
    if lowest is None:
        raise reject("not obvious", "lowest works")
    passed("not obvious")

    enter("duplicate")
    pid = view_id(view_json)
    if seen is not None:
        if pid in seen:
            raise reject("duplicate", "seen")
        seen.add(pid)
    passed("duplicate")

    moves = stats_json(a)
    key_tokens = [fmt(p) for p in key]
    runner_up = max((m["share"] for m in moves if m["card"] not in key_tokens), default=0.0)
    score, level = difficulty(len(moves), True, runner_up)
    means = [[m["card"], m["mean"]] for m in moves]
    key_stats = next(m for m in moves if m["card"] == key_tokens[0])
    return Puzzle(
        id=pid, position=pos.to_json(), player=task.player, value=int(key_stats["worst"]), key=key_tokens,
        moves=means, tree=_tree(view_json, task.player, means), line=[key_tokens[0]], decisions=1,
        difficulty=score, level=level, tags=[TAG], policies={"lowest": lowest}, pool=POOL, source=source or {},
        single_dummy={"view": view_json, "threshold": threshold, "layouts": a.layouts, "total": a.total,
                      "exact": a.exact, "seed": a.seed, "key_share": key_stats["share"], "moves": moves})


# --- checking --------------------------------------------------------------------

def check(puzzle: Puzzle, engine: str = "auto") -> list[str]:
    """Every claim of a single-dummy puzzle that does not hold, re-running the analysis on the same layouts."""
    sd = puzzle.single_dummy or {}
    problems: list[str] = []
    try:
        pos = puzzle.to_position()
        view = View.from_json(sd["view"])
    except (KeyError, ValueError) as e:
        return [f"position or view does not load: {e}"]
    fmt = pos.game.format_piece
    task = Task(puzzle.player, pos.objective)
    if pos.to_move != puzzle.player:
        problems.append(f"player {puzzle.player} is not the seat to move ({pos.to_move})")
    if view_of(pos, puzzle.player).to_json() != sd["view"]:
        problems.append("the view is not the player's view of the position")
    if puzzle.pool != POOL or TAG not in puzzle.tags:
        problems.append(f"not labelled: pool {puzzle.pool!r}, tags {puzzle.tags}")
    threshold = float(sd.get("threshold", 0))
    if not 0.5 < threshold <= 1:
        problems.append(f"threshold {threshold} is not in (0.5, 1]")

    a = run_analysis(view, None if sd.get("exact") else sd.get("layouts"), sd.get("seed") or 1, engine)
    if (a.layouts, a.total, a.exact) != (sd.get("layouts"), sd.get("total"), sd.get("exact")):
        problems.append(f"layouts: stored {sd.get('layouts')} of {sd.get('total')}, solved {a.layouts} of {a.total}")
    moves = stats_json(a)
    if moves != sd.get("moves"):
        problems.append("move statistics differ from a fresh analysis")
    key, why = key_of(view, a, threshold)
    if key is None:
        return problems + [f"key: {why}"]
    key_tokens = [fmt(p) for p in key]
    if sorted(key_tokens) != sorted(puzzle.key):
        problems.append(f"key: stored {puzzle.key}, found {key_tokens}")
    stats = {m["card"]: m for m in moves}
    ks = stats[key_tokens[0]]
    if ks["share"] != sd.get("key_share") or ks["best_in"] < threshold * a.layouts:
        problems.append(f"key share: stored {sd.get('key_share')}, found {ks['share']}")
    if puzzle.value != ks["worst"]:
        problems.append(f"value: stored {puzzle.value}, the key's worst is {ks['worst']}")
    if puzzle.moves != [[m["card"], m["mean"]] for m in moves]:
        problems.append("move means differ")
    if puzzle.line != [key_tokens[0]] or puzzle.decisions != 1:
        problems.append("line or decisions are not the single key move")
    low = lowest_policy(pos, task)
    claim = puzzle.policies.get("lowest")
    if low in key or claim is None or claim.get("move") != fmt(low) or claim.get("share") != stats[fmt(low)]["share"]:
        problems.append("policy lowest: claimed failure does not hold")
    runner_up = max((m["share"] for m in moves if m["card"] not in key_tokens), default=0.0)
    if difficulty(len(moves), True, runner_up) != (puzzle.difficulty, puzzle.level):
        problems.append("difficulty does not match")
    if view_id(sd["view"]) != puzzle.id:
        problems.append("id is not the hash of the view")
    return problems


# --- showing ---------------------------------------------------------------------

def view_text(puzzle: Puzzle) -> str:
    """The view as text: the player's hand, the others' face-up cards, hidden cards as counts."""
    pos = puzzle.to_position()  # for names, the trick and what was taken: all public
    sd = puzzle.single_dummy or {}
    view = View.from_json(sd["view"])
    g = view.game
    width = max(len(seat_name(pos, s)) for s in range(pos.n_players))
    options = ", ".join(f"{k} {v}" for k, v in g.options_for(pos.trump, pos.hands).items() if k != "open")
    lines = [f"{g.title} ({options}), seen by {seat_name(pos, puzzle.player)}"]
    for s in range(pos.n_players):
        mark = "*" if s == pos.to_move else " "
        shown = " ".join(g.format_hand(view.known[s])) or "-"
        extra = f"  + {view.hidden[s]} hidden" if view.hidden[s] else ""
        what = "hand" if s == view.seat else "face up"
        lines.append(f"{mark} {seat_name(pos, s):<{width}}  {what}: {shown}{extra}")
    if view.out:
        lines.append(f"widow: {view.out} unseen")
    if pos.trick:
        lines.append("trick: " + ", ".join(f"{seat_name(pos, (pos.leader + i) % pos.n_players)} "
                                           f"{g.format_piece(c)}" for i, c in enumerate(pos.trick)))
    if any(pos.taken):
        lines.append("taken: " + ", ".join(f"{seat_name(pos, s)} {t}" for s, t in enumerate(pos.tricks_taken()))
                     + " tricks")
    lines.append(f"{sd.get('total')} layouts of the hidden cards are possible")
    return "\n".join(lines)


def answer_text(puzzle: Puzzle) -> str:
    sd = puzzle.single_dummy or {}
    unit = puzzle.objective.measure
    how = "all" if sd.get("exact") else f"a sample (seed {sd.get('seed')}) of"
    lines = [f"Answer: {' or '.join(puzzle.key)}: best in {100 * sd['key_share']:.1f}% of {how} "
             f"{sd['layouts']} layouts (threshold {100 * sd['threshold']:.0f}%)",
             f"  {'move':>4} {'best in':>8} {'mean':>7} {'worst':>5} {'best':>4}  ({unit}, double-dummy in each layout)"]
    for m in sorted(sd["moves"], key=lambda m: -m["share"]):
        lines.append(f"  {m['card']:>4} {100 * m['share']:7.1f}% {m['mean']:7.3f} {m['worst']:>5} {m['best']:>4}")
    return "\n".join(lines)


def judge(puzzle: Puzzle, moves: list[str]) -> Outcome:
    """Judge the one move of a single-dummy puzzle (for the service): right when it is in the key.

    The position returned is the view, so no hidden card is revealed.
    """
    view = View.from_json((puzzle.single_dummy or {})["view"])
    g = view.game
    if not moves:
        return Outcome(True, False, view.to_json(), [], "your move")
    if len(moves) > 1:
        raise AttemptError(f"move 2 ({moves[1]}): a single-dummy puzzle has one move")
    try:
        token = g.format_piece(g.parse_piece(moves[0], "move 1: "))
    except ValueError as e:
        raise AttemptError(str(e)) from None
    stats = {m["card"]: m for m in (puzzle.single_dummy or {})["moves"]}
    if token not in stats:
        raise AttemptError(f"move 1: {token} is not legal here (legal: {' '.join(stats)})")
    m = stats[token]
    right = token in puzzle.key
    text = (f"{token} is best in {100 * m['share']:.1f}% of the layouts (mean {m['mean']:.2f})"
            + ("" if right else f"; best: {' or '.join(puzzle.key)}"))
    return Outcome(right, True, view.to_json(), [], text,
                   [] if right else [[k, v["mean"]] for k, v in stats.items()])
