"""Node totals of the compiled engine on seeded positions: ``python -m benchmarks.nodes SPEC ...``.

A SPEC names positions: a full-deal set of ``benchmarks.fulldeals`` (``minimo``,
``moon3``, ``moon4``, ``jass``, ``minimisere``, ``bridge``), or ``cut:GAME:CARDS``
with game options after it (``cut:bridge:11:trump=S``, ``cut:minimisere:8:partners=true``;
``trump=cycle`` takes S, H, D, C in turn): seed ``s``'s deal played at random (seed
``s``) down to CARDS a hand. Each position is solved for the seat to move (value and
every move's value, no pv, a fresh table), with the game's default goal or ``--goal``,
full-deal bridge maximising as in the benchmark. One line a spec: node total, median,
90th percentile, the total of the nodes at a trick's start (``trick_starts``, the count DDS
reports), and a digest of every value and move value, so that two engines (two commits,
two settings) can be seen to search different trees for the same answers. Node counts do
not depend on the machine's load, unlike times. ``--dds`` (bridge specs) also solves each
position with DDS (every card of the seat to move, played for the most tricks: the goal
of the count too unless ``--goal`` says otherwise), checks that every value agrees and
prints DDS's nodes at a trick's start beside the engine's; it exits 1 on a disagreement.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
from dataclasses import dataclass
from typing import Any

from benchmarks.fulldeals import GOALS, SETS
from solver import bench, dds, solve
from solver.cli import parse_option
from solver.deal import cut, deal
from solver.objective import Objective
from solver.position import Position

CYCLE = ("S", "H", "D", "C")


@dataclass
class Count:
    spec: str
    measure: str
    nodes: list[int]
    digest: str
    trick_nodes: list[int]

    def line(self) -> str:
        ordered = sorted(self.nodes)
        p90 = ordered[max(0, int(0.9 * len(ordered)) - 1)]
        return (f"{self.spec} {self.measure} n={len(self.nodes)} total={sum(self.nodes):,} "
                f"median={int(statistics.median(self.nodes)):,} p90={p90:,} "
                f"trick_starts={sum(self.trick_nodes):,} digest={self.digest}")


def position(spec: str, seed: int) -> Position:
    """Seed ``seed``'s position of ``spec`` (see the module's docstring)."""
    if not spec.startswith("cut:"):
        if spec not in SETS:
            raise ValueError(f"unknown set {spec!r}: one of {', '.join(SETS)}, or cut:GAME:CARDS[:OPTION=VALUE...]")
        return SETS[spec](seed)
    parts = spec.split(":")
    if len(parts) < 3 or not parts[2].isdigit():
        raise ValueError(f"{spec!r}: write cut:GAME:CARDS[:OPTION=VALUE...]")
    options: dict[str, Any] = {}
    for item in parts[3:]:
        key, value = parse_option(item)  # as the CLI's -o KEY=VALUE
        options[key] = CYCLE[seed % 4] if value == "cycle" else value
    return cut(deal(parts[1], seed, **options), int(parts[2]), 0, seed)


def count(spec: str, n: int, offset: int = 0, measure: str = "tricks", goal: str | None = None) -> Count:
    """Solve seeds ``offset``..``offset+n-1`` of ``spec`` with the compiled engine."""
    digest = hashlib.sha1()
    nodes, trick_nodes = [], []
    for seed in range(offset, offset + n):
        pos = position(spec, seed)
        objective = Objective.make(pos.game, pos.to_move, measure, goal or GOALS.get(spec))
        bench.fresh_table("fast")
        result = solve(pos, objective, engine="fast", pv=False)
        nodes.append(int(result.stats["nodes"]))
        trick_nodes.append(int(result.stats["trick_nodes"]))
        digest.update(repr((result.value, result.moves)).encode())
    return Count(spec, measure, nodes, digest.hexdigest()[:10], trick_nodes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.nodes", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("specs", nargs="+", metavar="SPEC")
    parser.add_argument("--count", type=int, default=100, help="positions a spec (default 100)")
    parser.add_argument("--offset", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument("--measure", choices=("tricks", "points"), default="tricks")
    parser.add_argument("--goal", choices=("min", "max"), help="instead of the default goal")
    parser.add_argument("--dds", action="store_true",
                        help="bridge: also solve with DDS, check the answers, print its nodes beside")
    args = parser.parse_args(argv)
    if args.dds and not dds.available():
        print("error: --dds needs DDS: pip install '.[dds]'", file=sys.stderr)
        return 2
    disagree = False
    try:
        for spec in args.specs:
            if args.dds and (name := position(spec, args.offset).game.name) != "bridge":
                raise ValueError(f"--dds solves bridge, not {name}")
            goal = args.goal or ("max" if args.dds else None)
            print(count(spec, args.count, args.offset, args.measure, goal).line(), flush=True)
            if args.dds:
                positions = [position(spec, seed) for seed in range(args.offset, args.offset + args.count)]
                report = bench.compare_leads_with_dds(positions, "fast")
                print(f"  DDS {spec}: {report.summary()}", flush=True)
                disagree |= report.agree != report.deals
    except ValueError as e:  # a bad spec or game option (the game errors are ValueErrors)
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
