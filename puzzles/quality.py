"""What makes a puzzle good: a unique key, the simple policies defeated, tags and a difficulty.

Everything here reads a solved position or a solution tree; nothing guesses.
Tags name the technique of a correct move at a decision, found by looking at
that move against the alternatives the rules allowed.
"""

from __future__ import annotations

import math
from typing import Any

import networkx as nx

from solver import Position, SolveResult, solve

from .equivalence import classes
from .policies import beatable_lead, follows, low_key, points, policies_for, wins_so_far
from .task import Task
from .tree import decision_nodes, paths_to


def key_check(pos: Position, result: SolveResult, task: Task, margin: int = 1) -> str | None:
    """Why the first move is not a clean key (None when it is).

    The best moves must form one class of equivalent cards, and every other
    move must be worse by at least ``margin``.
    """
    value = result.value
    values = {m: v for m, v in result.moves if v is not None}
    if value is None or len(values) != len(result.moves):  # only budgeted searches stop early
        return "incomplete search"
    groups = classes(pos, pos.legal_moves())
    if len(groups) < 2:
        return "only one move"
    best = [g for g in groups if values[g[0]] == value]
    if len(best) > 1:
        return "second solution"
    gap = min(abs(values[g[0]] - value) for g in groups if g is not best[0])
    if gap < margin:
        return f"alternatives within {gap} of the key"
    return None


def policy_failures(graph: nx.DiGraph, task: Task) -> dict[str, Any]:
    """For each simple policy: None if it finds every correct move of the tree, else where it first fails.

    A failure is recorded as the moves leading to the decision (``after``), the
    policy's move there, its value and the value the team could hold.
    """
    paths = paths_to(graph)
    out: dict[str, Any] = {}
    root = graph.nodes[graph.graph["root"]]
    game = Position.from_json(root["position"]).game
    for name, policy in policies_for(task.takes(game)).items():
        out[name] = None
        for n in decision_nodes(graph):
            node = graph.nodes[n]
            pos = Position.from_json(node["position"])
            move = game.format_piece(policy(pos))
            value = dict(node["moves"])[move]
            if value != node["value"]:
                out[name] = {"after": paths[n], "move": move, "value": value, "best": node["value"]}
                break
    return out


def tags_for(graph: nx.DiGraph, task: Task, *, engine: str = "auto") -> list[str]:
    """The techniques the tree's correct moves use, in order of first appearance."""
    found: list[str] = []
    root = graph.nodes[graph.graph["root"]]
    game = Position.from_json(root["position"]).game
    more = task.takes(game)
    for n in decision_nodes(graph):
        node = graph.nodes[n]
        pos = Position.from_json(node["position"])
        for _, child, edge in graph.out_edges(n, data=True):
            move = game.parse_piece(edge["move"])
            for tag in _move_tags(pos, move, more, task.objective.measure == "points"):
                if tag not in found:
                    found.append(tag)
    root_pos = Position.from_json(root["position"])
    if not more and graph.nodes[graph.graph["root"]]["decision"] and _avoids_endplay(root_pos, graph, task, engine):
        found.append("endplay avoidance")
    return found


def _move_tags(pos: Position, move: int, takes: bool, by_points: bool) -> list[str]:
    legal = pos.legal_moves()
    tags = []
    if pos.trick:
        if follows(pos, move):
            wins = wins_so_far(pos, move)
            could_win = any(wins_so_far(pos, m) for m in legal)
            lower = [m for m in legal if follows(pos, m) and low_key(pos, m) < low_key(pos, move)]
            if not wins and could_win:
                tags.append("duck")
            if not wins and lower:
                tags.append("unblock")
            if wins and not takes and any(not wins_so_far(pos, m) for m in legal):
                tags.append("take the trick early")
            if wins and takes and lower and any(wins_so_far(pos, m) for m in lower):
                tags.append("win high")
        elif not any(follows(pos, m) for m in legal):
            pts = points(pos, move)
            if wins_so_far(pos, move) and any(not wins_so_far(pos, m) for m in legal):
                tags.append("ruff")
            elif by_points and pts > 0 and not takes and pts == max(points(pos, m) for m in legal):
                tags.append("discard the penalty card")
            elif move == max(legal, key=lambda m: low_key(pos, m)) and not takes:
                tags.append("discard a high card")
            else:
                tags.append("discard")
        else:
            # Holding the led suit and choosing not to follow it: Jass lets a player trump instead.
            tags.append("trump instead of following")
    else:
        sure = not beatable_lead(pos, move)
        if takes and not sure and any(not beatable_lead(pos, m) for m in legal):
            tags.append("throw-in")
        elif not takes and sure and any(beatable_lead(pos, m) for m in legal):
            tags.append("lead a sure winner")
        elif not takes and not sure and move != min(legal, key=lambda m: low_key(pos, m)):
            tags.append("exit high")
    return tags


def _avoids_endplay(pos: Position, graph: nx.DiGraph, task: Task, engine: str) -> bool:
    """Whether some wrong first move leaves the team endplayed (on lead later holding only sure
    winners) on its refutation, while the correct line never does.

    Both lines are the canonical optimal ones (the first optimal move in card order at
    every step), so the answer depends only on move values, not on the engine's choice.
    """
    team = set(task.team(pos.game))
    root = graph.nodes[graph.graph["root"]]
    key = pos.copy()
    key.push(pos.game.parse_piece(next(t for t, v in root["moves"] if v == root["value"])))
    if _endplayed(key, _canonical_line(key, task, engine), team):
        return False
    for token, value in root["moves"]:
        if value != root["value"]:
            after = pos.copy()
            after.push(pos.game.parse_piece(token))
            if _endplayed(after, _canonical_line(after, task, engine), team):
                return True
    return False


def _canonical_line(pos: Position, task: Task, engine: str) -> list[int]:
    p, line = pos.copy(), []
    while not p.is_over():
        res = solve(p, task.objective, engine=engine)  # type: ignore[arg-type]
        values = dict(res.moves)
        move = next(m for m in p.legal_moves() if values[m] == res.value)
        line.append(move)
        p.push(move)
    return line


def _endplayed(pos: Position, line: list[int], team: set[int]) -> bool:
    """Whether, after the trick under way, a team seat is on lead along ``line`` with only sure winners."""
    p = pos.copy()
    started = not p.trick  # a fresh trick at the start is the decision's own, not a later one
    for move in line:
        if not p.trick and not started and p.to_move in team:
            legal = p.legal_moves()
            if len(legal) > 1 and not any(beatable_lead(p, m) for m in legal):
                return True
        started = False
        p.push(move)
    return False


def difficulty(graph: nx.DiGraph, policies: dict[str, Any], decisions: int) -> tuple[float, int]:
    """A score and a level 1..5.

    The score adds, over the tree's decisions, the bits needed to pick the
    right move among the legal ones (log2 of their count), plus one
    per simple policy that fails, plus the longest run of decisions. Levels
    cut the score at 6, 9, 12 and 16: a rough scale, not yet fitted to solvers' results.
    """
    bits = 0.0
    for n in decision_nodes(graph):
        node = graph.nodes[n]
        bits += math.log2(max(2, len({tuple(m) for m in node["moves"]})))
    failed = sum(1 for v in policies.values() if v is not None)
    score = round(bits + failed + decisions, 2)
    level = 1 + sum(score >= cut for cut in (6, 9, 12, 16))
    return score, level
