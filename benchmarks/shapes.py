"""The search compiled for each game's shape against the generic one, in one run:
``python -m benchmarks.shapes [--sets SETS] [--count N] [--repeat R] [--measure M]``.

The engine compiles its search once per shape of game (seat count, Jass's rules,
partition search: ``Engine.shape``) and once generically, reading those from the
tables, as the core did before (``Engine.configure(shapes=False)``). Both walk the same
tree, so this times each full deal of the ``benchmarks.fulldeals`` sets (value and every
first lead, fresh table) with each, the two taking turns (the first of each deal in
alternation), and keeps each deal's least time of R solves: the machine's drift falls on
both alike. Prints one line a
set: both medians and totals and the ratio, shaped over generic (below 1: faster).
"""

from __future__ import annotations

import argparse
import statistics
import time

from benchmarks.fulldeals import GOALS, SETS
from solver import bench, engine
from solver.objective import Objective


def compare(name: str, count: int, repeat: int, measure: str) -> str:
    """One set's line: shaped and generic times, and their ratio."""
    eng = engine.get_engine()
    best: dict[bool, list[float]] = {True: [], False: []}
    try:
        for shaped in (True, False):  # both codes paged in and warm before the first timing
            eng.configure(shapes=shaped)
            pos = SETS[name](0)
            engine.solve(pos, Objective.make(pos.game, pos.to_move, measure, GOALS.get(name)), pv=False)
        for seed in range(count):
            pos = SETS[name](seed)
            obj = Objective.make(pos.game, pos.to_move, measure, GOALS.get(name))
            least = {True: float("inf"), False: float("inf")}
            for r in range(repeat):
                # which goes first alternates, by deal and by repeat: the first solve of a
                # deal meets colder caches
                for shaped in (True, False) if (seed + r) % 2 == 0 else (False, True):
                    eng.configure(shapes=shaped)
                    bench.fresh_table("fast")
                    start = time.perf_counter()
                    engine.solve(pos, obj, pv=False)
                    least[shaped] = min(least[shaped], time.perf_counter() - start)
            for shaped, t in least.items():
                best[shaped].append(t)
    finally:
        eng.configure()
    med = {k: statistics.median(v) * 1000 for k, v in best.items()}
    tot = {k: sum(v) * 1000 for k, v in best.items()}
    return (f"{name} {measure} ({count} deals, least of {repeat}): shaped median {med[True]:.3f} ms, "
            f"total {tot[True]:.0f} ms; generic median {med[False]:.3f} ms, total {tot[False]:.0f} ms; "
            f"ratio median {med[True] / med[False]:.3f}, total {tot[True] / tot[False]:.3f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", default="moon3,moon4,minimo,bridge",
                    help=f"comma-separated, of {', '.join(SETS)} (default: the quick ones)")
    ap.add_argument("--count", type=int, default=100, help="deals a set (default 100)")
    ap.add_argument("--repeat", type=int, default=3, help="solves a deal and engine; the least counts (default 3)")
    ap.add_argument("--measure", choices=("tricks", "points"), default="tricks")
    args = ap.parse_args(argv)
    unknown = [s for s in args.sets.split(",") if s not in SETS]
    if unknown:
        ap.error(f"unknown set {unknown[0]!r}: one of {', '.join(SETS)}")
    if args.count < 1 or args.repeat < 1:
        ap.error("--count and --repeat must be 1 or more")
    for name in args.sets.split(","):
        print(compare(name, args.count, args.repeat, args.measure), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
