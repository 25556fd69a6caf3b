"""What each search technique saves: ``python -m benchmarks.ablation [--count N]``.

Solves the same seeded positions (value and every move) with one technique
switched off at a time and prints the median node count of each setting. Node
counts, not times, so the numbers do not depend on the machine's load.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable

from solver import engine
from solver.deal import cut, deal
from solver.objective import Objective
from solver.position import Position

SETTINGS: dict[str, dict[str, object]] = {
    "all on": {},
    "no equivalent cards": {"eq": False},
    "no relative-rank keys": {"norm": False},
    "exact keys (no partition search)": {"partition": False},
    "no small-card rule": {"small": False},
    "no quick tricks": {"qt": False},
    "no lone exits": {"exits": False},
    "no kin entries (Minimo points)": {"kin": False},
    "no bounds at all": {"bounds": False},
    "plain ordering": {"order": 0},
    "full window (no MTD)": {"mtd": False},
}

#: name -> (seed -> position, measure, goal)
CASES: dict[str, tuple[Callable[[int], Position], str, str]] = {
    "moon3 full, tricks min": (lambda s: deal("moon", s, players=3), "tricks", "min"),
    "moon4 full, tricks max": (lambda s: deal("moon", s, players=4), "tricks", "max"),
    "minimo full, tricks min": (lambda s: deal("minimo", s, trump="S"), "tricks", "min"),
    "minimo 8 cards, points min": (lambda s: cut(deal("minimo", s, trump="H"), 8, 0, s), "points", "min"),
    "jass 9 cards, tricks min": (lambda s: cut(deal("jass", s), 9, 0, s), "tricks", "min"),
    "jass 8 cards, points max": (lambda s: cut(deal("jass", s), 8, 0, s), "points", "max"),
    "minimisere 8 cards, points min": (lambda s: cut(deal("minimisere", s), 8, 0, s), "points", "min"),
    "minimisere 9 cards, tricks min": (lambda s: cut(deal("minimisere", s), 9, 0, s), "tricks", "min"),
    "bridge 9 cards, tricks max": (lambda s: cut(deal("bridge", s, trump="H"), 9, 0, s), "tricks", "max"),
}


def median_nodes(make: Callable[[int], Position], measure: str, goal: str, count: int,
                 setting: dict[str, object], cap: float) -> tuple[float, int]:
    eng = engine.get_engine()
    eng.configure(**setting)  # type: ignore[arg-type]
    nodes, over = [], 0
    try:
        for seed in range(count):
            pos = make(seed)
            eng.new_generation()
            r = engine.solve(pos, Objective.make(pos.game, pos.to_move, measure, goal), pv=False,
                             max_seconds=cap)
            nodes.append(r.stats["nodes"])
            over += not r.complete
    finally:
        eng.configure()
    return statistics.median(nodes), over


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--cap", type=float, default=5.0)
    ap.add_argument("--setting", action="append", choices=list(SETTINGS), help="only these settings (repeat)")
    ap.add_argument("--case", action="append", choices=list(CASES), help="only these cases (repeat)")
    args = ap.parse_args(argv)
    settings = {k: v for k, v in SETTINGS.items() if not args.setting or k in args.setting}
    print("| case | " + " | ".join(settings) + " |")
    print("|---" * (len(settings) + 1) + "|")
    for name, (make, measure, goal) in CASES.items():
        if args.case and name not in args.case:
            continue
        cells = []
        for setting in settings.values():
            med, over = median_nodes(make, measure, goal, args.count, setting, args.cap)
            cells.append(f"{med:,.0f}" + (f" ({over} capped)" if over else ""))
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
