"""Solution trees: the team's correct moves against every optimal defence, as a networkx DiGraph.

Nodes are positions keyed by their canonical string (equivalent cards merged,
so transpositions and equivalent moves meet in one node). Node attributes:
``position`` (FORMAT.md JSON), ``to_move``, ``value``, ``hero`` (the player's
team moves), and at hero nodes ``moves`` (every legal move with its value),
``decision`` (some move loses value) and ``unique`` (one class of best moves).
Edges carry ``move`` (a representative), ``equivalent`` (its whole class),
``seat`` and ``value``. After the last decision on a branch the tree is cut:
the forced tail is not part of the answer.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import networkx as nx

from solver import Position, SolveResult, solve

from .equivalence import key_and_classes
from .task import Task


class TreeRejected(Exception):
    """The tree broke a limit the caller set while it was being built (size, a second solution)."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason


def build_tree(position: Position, task: Task, *, engine: str = "auto", max_nodes: int | None = None,
               require_unique: bool = False, root_result: SolveResult | None = None) -> nx.DiGraph:
    """The pruned solution tree of ``position`` for ``task``; its root key is ``graph.graph["root"]``.

    With ``max_nodes`` or ``require_unique`` the search stops early with
    ``TreeRejected`` ("tree size", "second solution"): a generator need not
    finish a tree it will throw away.
    """
    game = position.game
    team = set(task.team(game))
    obj = task.objective
    fmt = game.format_piece
    graph = nx.DiGraph()
    positions: dict[str, Position] = {}  # written out as JSON only for the nodes that survive pruning

    def visit(pos: Position, result: SolveResult | None = None) -> str:
        key, groups = key_and_classes(pos, pos.legal_moves())
        if key in graph:
            return key
        if max_nodes is not None and graph.number_of_nodes() >= max_nodes:
            raise TreeRejected("tree size", f"more than {max_nodes} nodes")
        hero = pos.to_move in team and not pos.is_over()
        graph.add_node(key, to_move=pos.to_move, hero=hero)
        positions[key] = pos
        node = graph.nodes[key]
        if pos.is_over():
            node.update(value=pos.measure(obj), decision=False)
            return key
        res = result or solve(pos, obj, engine=engine)  # type: ignore[arg-type]
        values = dict(res.moves)
        for group in groups:
            if len({values[m] for m in group}) != 1:  # equivalence must never hide a difference
                raise AssertionError(f"cards {[fmt(m) for m in group]} judged equivalent but differ in value "
                                     f"in {pos.dumps()}")
        best = [g for g in groups if values[g[0]] == res.value]
        node["value"] = res.value
        if hero:
            node["moves"] = [[fmt(m), values[m]] for m in pos.legal_moves()]
            node["decision"] = len(set(values.values())) > 1
            node["unique"] = len(best) == 1
            if require_unique and node["decision"] and not node["unique"]:
                raise TreeRejected("second solution", " / ".join(fmt(g[0]) for g in best))
        else:
            node["decision"] = False
        for group in best:
            child = pos.copy()
            child.push(group[0])
            child_key = visit(child)
            graph.add_edge(key, child_key, move=fmt(group[0]), equivalent=[fmt(m) for m in group],
                           seat=pos.to_move, value=values[group[0]])
        return key

    root = position.copy()
    root.objective = obj
    graph.graph["root"] = visit(root, root_result)
    _prune(graph)
    for key in graph:
        graph.nodes[key]["position"] = positions[key].to_json()
    return graph


def _prune(graph: nx.DiGraph) -> None:
    """Cut every branch after its last decision; drop what is no longer reachable."""
    root = graph.graph["root"]
    below: dict[str, bool] = {}
    for n in reversed(list(nx.topological_sort(graph))):
        below[n] = graph.nodes[n]["decision"] or any(below[c] for c in graph.successors(n))
    for n in list(graph):
        if not graph.nodes[n]["decision"] and not any(below[c] for c in graph.successors(n)):
            graph.remove_edges_from(list(graph.out_edges(n)))
    keep = nx.descendants(graph, root) | {root}
    graph.remove_nodes_from([n for n in list(graph) if n not in keep])


def decision_nodes(graph: nx.DiGraph) -> list[str]:
    """The hero decisions of the tree, in breadth-first order from the root."""
    return [n for n in bfs_nodes(graph) if graph.nodes[n]["decision"]]


def bfs_nodes(graph: nx.DiGraph) -> list[str]:
    root = graph.graph["root"]
    return [root] + [v for _, v in nx.bfs_edges(graph, root)]


def max_decisions(graph: nx.DiGraph) -> int:
    """The most decisions the team meets on one branch."""
    best: dict[str, int] = {}
    for n in reversed(list(nx.topological_sort(graph))):
        below = max((best[c] for c in graph.successors(n)), default=0)
        best[n] = int(graph.nodes[n]["decision"]) + below
    return best[graph.graph["root"]]


def paths_to(graph: nx.DiGraph) -> dict[str, list[str]]:
    """For each node, the moves of one shortest path to it from the root (breadth-first)."""
    root = graph.graph["root"]
    path: dict[str, list[str]] = {root: []}
    queue = deque([root])
    while queue:
        n = queue.popleft()
        for c in graph.successors(n):
            if c not in path:
                path[c] = path[n] + [graph.edges[n, c]["move"]]
                queue.append(c)
    return path


def principal_line(graph: nx.DiGraph) -> list[str]:
    """The first branch of the tree, root to leaf, as moves."""
    n, line = graph.graph["root"], list[str]()
    while True:
        succ = list(graph.successors(n))
        if not succ:
            return line
        line.append(graph.edges[n, succ[0]]["move"])
        n = succ[0]


# --- plain data, for the collection files -----------------------------------------

def tree_to_data(graph: nx.DiGraph) -> dict[str, Any]:
    """Nodes in breadth-first order (the root first) and edges by node index."""
    order = bfs_nodes(graph)
    index = {n: i for i, n in enumerate(order)}
    nodes = [{"key": n, **graph.nodes[n]} for n in order]
    edges = [{"from": index[u], "to": index[v], **graph.edges[u, v]}
             for u in order for v in graph.successors(u)]
    return {"nodes": nodes, "edges": edges}


def tree_from_data(data: dict[str, Any]) -> nx.DiGraph:
    graph = nx.DiGraph()
    keys = []
    for node in data["nodes"]:
        attrs = {k: v for k, v in node.items() if k != "key"}
        graph.add_node(node["key"], **attrs)
        keys.append(node["key"])
    for edge in data["edges"]:
        attrs = {k: v for k, v in edge.items() if k not in ("from", "to")}
        graph.add_edge(keys[edge["from"]], keys[edge["to"]], **attrs)
    graph.graph["root"] = keys[0]
    return graph
