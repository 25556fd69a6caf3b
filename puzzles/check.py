"""Re-solve puzzles and confirm every stored claim.

Each claim is checked on its own terms with fresh solves (``engine`` chooses
the solver; tests use the reference): the value and every first move's value,
the key and its margin, every node and edge of the tree, that every optimal
defence is covered, that nothing after a leaf is a decision, the decision
count, the line, where each simple policy fails (or that it does not), the
tags, the difficulty, the id and the absence of duplicates.
"""

from __future__ import annotations

import hashlib
from typing import Any

from solver import Objective, Position, SolveResult, solve

from .equivalence import canonical_key, classes
from .policies import policies_for
from .puzzle import Collection, Puzzle
from .quality import difficulty, tags_for
from .task import Task
from .tree import max_decisions, principal_line


class _Solver:
    """Solves with a memo, so positions met again are solved once.

    The memo is keyed by the exact position: a result holds that position's own
    cards, which an equivalent position need not have.
    """

    def __init__(self, objective: Objective, engine: str) -> None:
        self.objective = objective
        self.engine = engine
        self.memo: dict[tuple, SolveResult] = {}

    def __call__(self, pos: Position) -> SolveResult:
        key = pos.key()
        if key not in self.memo:
            self.memo[key] = solve(pos, self.objective, engine=self.engine)  # type: ignore[arg-type]
        return self.memo[key]


def check_puzzle(puzzle: Puzzle, engine: str = "auto", margin: int = 1) -> list[str]:
    """Every claim of ``puzzle`` that does not hold (empty when all do).

    ``margin``: how much worse every non-key move must be in a points puzzle
    (the collection's setting; tricks puzzles always need 1).
    """
    if puzzle.single_dummy is not None:
        from .single_dummy import check as check_single_dummy
        return check_single_dummy(puzzle, engine)
    problems: list[str] = []
    try:
        pos = puzzle.to_position()
    except ValueError as e:
        return [f"position does not load: {e}"]
    game = pos.game
    fmt = game.format_piece
    task = Task(puzzle.player, pos.objective)
    team = set(task.team(game))
    solver = _Solver(pos.objective, engine)
    if pos.to_move != puzzle.player:
        problems.append(f"player {puzzle.player} is not the seat to move ({pos.to_move})")

    # The answer at the root.
    res = solver(pos)
    if res.value != puzzle.value:
        problems.append(f"value: stored {puzzle.value}, solved {res.value}")
    solved_moves = [[fmt(m), v] for m, v in res.moves]
    if sorted(map(tuple, solved_moves)) != sorted(map(tuple, puzzle.moves)):
        problems.append(f"move values: stored {puzzle.moves}, solved {solved_moves}")
    if sorted(fmt(m) for m in res.best) != sorted(puzzle.key):
        problems.append(f"key: stored {puzzle.key}, best moves {[fmt(m) for m in res.best]}")
    groups = classes(pos, pos.legal_moves())
    best_groups = [g for g in groups if res.move_value(g[0]) == res.value]
    if len(best_groups) != 1:
        problems.append(f"key is not unique: {len(best_groups)} classes of best moves")
    else:
        need = margin if pos.objective.measure == "points" else 1
        gaps = [abs((res.move_value(g[0]) or 0) - (res.value or 0)) for g in groups if g is not best_groups[0]]
        if not gaps or min(gaps) < need:
            problems.append(f"the key's margin is below {need}")

    problems += _check_tree(puzzle, task, team, solver)

    # Derived claims, recomputed from the (now verified) tree.
    tree = puzzle.tree
    if max_decisions(tree) != puzzle.decisions:
        problems.append(f"decisions: stored {puzzle.decisions}, tree has {max_decisions(tree)}")
    lo, hi = (1, 1) if puzzle.pool == "easy" else (2, 6)
    if not lo <= puzzle.decisions <= hi:
        problems.append(f"{puzzle.decisions} decisions in the {puzzle.pool} pool")
    if principal_line(tree) != puzzle.line:
        problems.append("line is not the tree's first branch")
    problems += _check_policies(puzzle, pos, task, solver)
    tags = tags_for(tree, task, engine=engine)
    if tags != puzzle.tags:
        problems.append(f"tags: stored {puzzle.tags}, found {tags}")
    if difficulty(tree, puzzle.policies, puzzle.decisions) != (puzzle.difficulty, puzzle.level):
        problems.append("difficulty does not match the tree")
    if hashlib.sha1(canonical_key(pos).encode()).hexdigest()[:10] != puzzle.id:
        problems.append("id is not the hash of the position's canonical key")
    return problems


def _check_tree(puzzle: Puzzle, task: Task, team: set[int], solver: _Solver) -> list[str]:
    problems: list[str] = []
    tree = puzzle.tree
    root = tree.graph["root"]
    if tree.in_degree(root) != 0:
        problems.append("tree root has a parent")
    for key, node in tree.nodes(data=True):
        where = f"tree node {key[:40]}..."
        pos = Position.from_json(node["position"])
        pos.objective = task.objective
        if canonical_key(pos) != key:
            problems.append(f"{where}: key is not its position's canonical key")
            continue
        fmt = pos.game.format_piece
        hero = pos.to_move in team and not pos.is_over()
        if node["hero"] != hero or node["to_move"] != pos.to_move:
            problems.append(f"{where}: wrong seat to move or hero flag")
        if pos.is_over():
            if node["value"] != pos.measure(task.objective):
                problems.append(f"{where}: final value is wrong")
            continue
        res = solver(pos)
        values = {fmt(m): v for m, v in res.moves}
        if node["value"] != res.value:
            problems.append(f"{where}: value stored {node['value']}, solved {res.value}")
        groups = classes(pos, pos.legal_moves())
        best = [g for g in groups if res.move_value(g[0]) == res.value]
        decision = hero and len(set(values.values())) > 1
        if node["decision"] != decision:
            problems.append(f"{where}: decision flag is wrong")
        if hero and dict(map(tuple, node["moves"])) != values:
            problems.append(f"{where}: move values are wrong")
        if decision and len(best) != 1:
            problems.append(f"{where}: decision with {len(best)} classes of correct moves")
        edges = list(tree.out_edges(key, data=True))
        covered: set[str] = set()
        for _, child, edge in edges:
            move = edge["move"]
            if move not in values:
                problems.append(f"{where}: edge {move} is not a legal move")
                continue
            covered.update(edge["equivalent"])
            if edge["value"] != values[move] or values[move] != res.value:
                problems.append(f"{where}: edge {move} is not an optimal move with the stored value")
            if any(values.get(m) != values[move] for m in edge["equivalent"]):
                problems.append(f"{where}: cards listed equivalent to {move} differ in value")
            after = pos.copy()
            after.push(pos.game.parse_piece(move))
            if canonical_key(after) != child:
                problems.append(f"{where}: edge {move} does not lead to its child")
        if edges:
            missing = [fmt(m) for m in res.best if fmt(m) not in covered]
            if missing:
                problems.append(f"{where}: optimal moves {missing} are not in the tree")
        elif decision:
            problems.append(f"{where}: a decision without its correct move")
        elif _decision_below(pos, team, solver, set()):
            problems.append(f"{where}: the tree stops before a later decision")
    return problems


def _decision_below(pos: Position, team: set[int], solver: _Solver, seen: set[str]) -> bool:
    """Whether optimal play from ``pos`` can still reach a team decision (some move loses value)."""
    key = canonical_key(pos)
    if key in seen or pos.is_over():
        return False
    seen.add(key)
    res = solver(pos)
    if pos.to_move in team and len({v for _, v in res.moves}) > 1:
        return True
    for move in res.best:
        pos.push(move)
        found = _decision_below(pos, team, solver, seen)
        pos.undo()
        if found:
            return True
    return False


def _check_policies(puzzle: Puzzle, pos: Position, task: Task, solver: _Solver) -> list[str]:
    problems: list[str] = []
    game = pos.game
    fmt = game.format_piece
    policies = policies_for(task.takes(game))
    if sorted(policies) != sorted(puzzle.policies):
        return [f"policies: stored {sorted(puzzle.policies)}, expected {sorted(policies)}"]
    for name, policy in policies.items():
        claim = puzzle.policies[name]
        if claim is None:
            for _, node in puzzle.tree.nodes(data=True):
                if node["decision"]:
                    p = Position.from_json(node["position"])
                    p.objective = task.objective
                    move = policy(p)
                    if solver(p).move_value(move) != solver(p).value:
                        problems.append(f"policy {name}: stored as working, but {fmt(move)} loses value")
                        break
            continue
        p = pos.copy()
        try:
            for token in claim["after"]:
                p.play(token)
        except ValueError as e:
            problems.append(f"policy {name}: its path does not replay ({e})")
            continue
        res = solver(p)
        move = policy(p)
        if fmt(move) != claim["move"]:
            problems.append(f"policy {name}: plays {fmt(move)} there, not {claim['move']}")
        elif res.move_value(move) != claim["value"] or res.value != claim["best"] or claim["value"] == claim["best"]:
            problems.append(f"policy {name}: claimed failure does not hold")
        if p.to_move not in task.team(game):
            problems.append(f"policy {name}: failure is claimed at a seat outside the team")
    return problems


def check_collection(collection: Collection, engine: str = "auto", progress: Any = None) -> dict[str, list[str]]:
    """Problems per puzzle id (only puzzles with problems), duplicates included."""
    out: dict[str, list[str]] = {}
    keys: dict[str, str] = {}
    for i, puzzle in enumerate(collection.puzzles):
        problems = check_puzzle(puzzle, engine, int(collection.settings.get("margin", 1)))
        # A single-dummy puzzle is its view: two deals seen alike are one puzzle.
        key = puzzle.id if puzzle.single_dummy is not None else canonical_key(puzzle.to_position())
        if key in keys:
            problems.append(f"duplicate of puzzle {keys[key]}")
        keys.setdefault(key, puzzle.id)
        if problems:
            out[puzzle.id] = problems
        if progress:
            progress(i + 1, len(collection.puzzles))
    return out
