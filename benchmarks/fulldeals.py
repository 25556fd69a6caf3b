"""Full-deal benchmark sets and their runner: ``python -m benchmarks.fulldeals [--count N]``.

Each set is ``count`` seeded full deals of one game (seeds 0..count-1 through
``solver.deal.deal``); a solve is the value and every first lead's value
(``solver.bench.run_set``: no pv, a fresh table) for the seat on lead as hero with the game's
default goal, except bridge, where the side on lead maximises its tricks as in
DDS. Every solve gets a time cap so a hard deal cannot hang the run;
capped solves are counted as ``over`` and timed at the cap (the medians and
p90s are then lower bounds). ``--repeat N`` keeps each deal's least time of N
solves (each with a fresh table: the same work). Bridge is also run through DDS
(endplay, one thread) on the same deals when it is installed: the yardstick for
Minimisere.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from solver import bench
from solver.deal import deal
from solver.position import Position

BRIDGE_STRAINS = ("S", "H", "D", "C", "NT")
MINIMO_TRUMPS = ("S", "H", "D", "C", "NT")


def _minimo(seed: int) -> Position:
    return deal("minimo", seed, trump=MINIMO_TRUMPS[seed % 5])


def _bridge(seed: int) -> Position:
    return deal("bridge", seed, trump=BRIDGE_STRAINS[seed % 5])


#: set name -> seed -> full deal
SETS: dict[str, Callable[[int], Position]] = {
    "moon3": lambda seed: deal("moon", seed, players=3),
    "moon4": lambda seed: deal("moon", seed, players=4),
    "minimo": _minimo,
    "jass": lambda seed: deal("jass", seed),
    "minimisere": lambda seed: deal("minimisere", seed),
    "bridge": _bridge,
}


#: goals other than the game's default
GOALS = {"bridge": "max"}


@dataclass
class Report:
    name: str
    measure: str
    times: list[float] = field(default_factory=list)   # seconds per deal
    nodes: list[int] = field(default_factory=list)
    over: int = 0                                        # solves stopped by the cap

    def row(self) -> dict[str, Any]:
        t = sorted(self.times)
        n = sorted(self.nodes)
        p90 = max(0, int(0.9 * len(t)) - 1)
        return {"set": self.name, "measure": self.measure, "deals": len(t),
                "median_ms": round(statistics.median(t) * 1000, 3), "p90_ms": round(t[p90] * 1000, 3),
                "max_ms": round(t[-1] * 1000, 1), "median_nodes": int(statistics.median(n)),
                "p90_nodes": n[p90], "over_cap": self.over}


def positions(name: str, count: int) -> list[Position]:
    return [SETS[name](seed) for seed in range(count)]


def run_set(name: str, deals: list[Position], measure: str, cap: float, repeat: int = 1) -> Report:
    """Solve every deal (value and every first lead), one at a time, with a fresh table each,
    keeping each deal's least time of ``repeat`` solves.

    The timing loop is ``solver.bench.run_set``'s (the one ``openhand bench`` uses).
    """
    done = bench.run_set(name, deals, measure, "fast", cap=cap, goal=GOALS.get(name), repeat=repeat)
    return Report(name, measure, [ms / 1000 for ms in done.times_ms], list(done.nodes), done.over)


def run_dds(deals: list[Position], every_lead: bool) -> Report | None:
    """DDS on the same bridge deals: SolveBoard for the leader's side, value only or every lead."""
    try:
        from solver import dds
        if not dds.available():
            return None
        import endplay._dds as raw
    except ImportError:
        return None
    report = Report("bridge-dds", "tricks-every-lead" if every_lead else "tricks-value")
    for pos in deals:
        d = dds.to_deal(pos)
        start = time.perf_counter()
        fut = raw.futureTricks()
        raw.SolveBoard(d._data, -1, 3 if every_lead else 1, 1, fut, 0)  # solutions=3: every card
        report.times.append(time.perf_counter() - start)
        report.nodes.append(0)
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--cap", type=float, default=1.0, help="seconds a solve may take before it is stopped")
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--measures", default="tricks,points")
    ap.add_argument("--repeat", type=int, default=1,
                    help="solve each deal this many times and keep its least time (default 1)")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be 1 or more")
    rows = []
    for name in args.sets.split(","):
        deals = positions(name, args.count)
        for measure in args.measures.split(","):
            rows.append(run_set(name, deals, measure, args.cap, args.repeat).row())
            print(rows[-1], flush=True)
        if name == "bridge":
            for every in (False, True):
                rep = run_dds(deals, every)
                if rep:
                    rows.append(rep.row())
                    print(rows[-1], flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
