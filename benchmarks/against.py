"""The engine against an earlier commit's, in one run: ``python -m benchmarks.against REV [SET ...]``.

Builds REV's engine in a temporary directory (``git archive``, then an in-place build:
it needs git, Cython and a C compiler, as building this tree does), then runs
``openhand bench`` on the same sets with the two engines taking turns, each round in
fresh processes, and prints one Markdown row per set: both engines' medians, mean
nodes, the node ratio and the time ratio (sums of the medians). That is the speed of a
change against the core before it, on the same machine at the same time: node counts
do not depend on the load, times do, so take the ratios of a quiet machine.
This tree's engine must be built in place first (``python setup.py build_ext --inplace``).

``--in-process`` times the two engines in one process instead: REV's compiled engine is
loaded beside this tree's as a module of its own, both are given this tree's tables, and
each full deal of the ``benchmarks.fulldeals`` sets named (value and every first lead,
fresh table) is solved by each in turn, the least of ``--repeat`` solves kept, the first
of each deal alternating. The machine's drift between runs then falls on both alike:
two builds of the same engine come out within about 1% in total, where runs in turn
differ by up to 5% (and medians by more). It needs REV's engine to take this tree's
tables (the same ``Tables`` fields); the answers of the two are compared deal by deal.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

#: a set of each game, small enough for a few minutes a round
DEFAULT_SETS = ("bridge-nt/after3", "bridge-s/after3", "bridge-nt/full", "minimisere/after6",
                "minimisere-hard/after6", "jass/after3", "minimo-nt/full", "minimo-s/full",
                "moon3/full", "moon4/full")


#: the full-deal sets that ``--in-process`` times by default
DEFAULT_FULL = ("moon3", "minimo", "moon4")


class AgainstError(RuntimeError):
    """A build or a benchmark run failed; the message says which and why."""


def build_revision(rev: str, into: Path) -> None:
    """Unpack ``rev`` of this repository into ``into`` and build its engine in place."""
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True)
    except OSError as e:
        raise AgainstError(f"git archive {rev}: {e}") from None
    if archive.returncode:
        raise AgainstError(f"git archive {rev}: {archive.stderr.decode().strip()}")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4 on
            tar.extractall(into, filter="data")
        else:  # pragma: no cover - our own repository's archive
            tar.extractall(into)
    built = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "-q"], cwd=into,
                           capture_output=True, text=True)
    if built.returncode:
        raise AgainstError(f"building {rev}'s engine failed:\n{built.stderr[-2000:]}")


def bench(tree: Path, sets: list[str], limit: int, cap: float, measure: str) -> list[dict[str, Any]]:
    """``openhand bench --json`` on the engine built in ``tree``: its reports."""
    run = subprocess.run([sys.executable, "-m", "solver", "bench", *sets, "--limit", str(limit), "--cap", str(cap),
                          "--measure", measure, "--engine", "fast", "--json"], cwd=tree, capture_output=True,
                         text=True)
    if run.returncode:
        raise AgainstError(f"openhand bench in {tree} failed:\n{run.stderr[-2000:]}")
    return json.loads(run.stdout)["reports"]


def table(before: list[list[dict[str, Any]]], after: list[list[dict[str, Any]]]) -> str:
    """Markdown rows from rounds of reports (one list of set reports per round and engine)."""
    lines = ["| set | measure | positions | median ms (before → after, each round) | nodes/solve (mean) "
             "| nodes ratio | time ratio (sum of medians) | capped |",
             "|---|---|---|---|---|---|---|---|"]
    for i, first in enumerate(before[0]):
        b = [rnd[i] for rnd in before]
        a = [rnd[i] for rnd in after]
        nb, na = b[0]["nodes_per_solve"], a[0]["nodes_per_solve"]
        tb, ta = sum(r["median_ms"] for r in b), sum(r["median_ms"] for r in a)
        medians = ", ".join(f"{r['median_ms']:.1f}" for r in b) + " → " + ", ".join(f"{r['median_ms']:.1f}" for r in a)
        capped = ", ".join(str(r["over"]) for r in b) + " → " + ", ".join(str(r["over"]) for r in a)
        lines.append(f"| {first['name']} | {first['measure']} | {first['positions']} | {medians} "
                     f"| {nb:,.0f} → {na:,.0f} | {na / nb if nb else float('nan'):.2f} "
                     f"| {ta / tb if tb else float('nan'):.2f} | {capped} |")
    return "\n".join(lines)


def load_engine(tree: Path) -> ModuleType:
    """The engine built in ``tree`` as a module of its own (``_engine``), beside this tree's."""
    from solver import _engine as ours  # first: loaded after the other, it came back as that one

    found = sorted((tree / "solver").glob("_engine*.so")) + sorted((tree / "solver").glob("_engine*.pyd"))
    if not found:
        raise AgainstError(f"no built engine in {tree / 'solver'}")
    spec = importlib.util.spec_from_file_location("_engine", found[0])
    if spec is None or spec.loader is None:
        raise AgainstError(f"cannot load {found[0]}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if module is ours or module.Engine is ours.Engine:
        raise AgainstError(f"{found[0]} loaded as this tree's own engine: compare in turns instead")
    return module


def in_process(theirs: ModuleType, name: str, count: int, repeat: int, measure: str,
               cap: float | None = None) -> dict[str, Any]:
    """Seeds 0..count-1 of the full-deal set ``name`` solved by ``theirs`` (an engine module)
    and by this tree's engine in turn: each one's least time a deal (ms), its nodes, and
    the answers compared. A solve stopped by ``cap`` (seconds) counts at the cap, as
    ``capped``, and its deal's answers are not compared."""
    from benchmarks.fulldeals import GOALS, SETS
    from solver import engine
    from solver.objective import Objective

    other = theirs.Engine(engine.TT_BITS)
    times: dict[str, list[float]] = {"before": [], "after": []}
    nodes = {"before": 0, "after": 0}
    capped = {"before": 0, "after": 0}
    for seed in range(count):
        pos = SETS[name](seed)
        obj = Objective.make(pos.game, pos.to_move, measure, GOALS.get(name))
        ours, tb, state = engine.prepare(pos, obj)
        key, _, bits = engine.tables_for(pos, obj)
        try:
            other.load(key, lambda: tb)
            other.use_table_bits(bits)
        except (AttributeError, TypeError, ValueError) as e:
            raise AgainstError(f"the earlier engine cannot take this tree's tables ({e}): "
                               "compare in turns instead (without --in-process)") from None
        least = {"before": float("inf"), "after": float("inf")}
        answers = {}
        for r in range(repeat):
            # which goes first alternates by deal and by repeat: a deal's first solve meets
            # colder caches
            for which in ("before", "after") if (seed + r) % 2 == 0 else ("after", "before"):
                eng = other if which == "before" else ours
                eng.new_generation()
                eng.set_budget(None, cap)
                start = time.perf_counter()
                try:
                    moves = eng.root(*state, None)
                except TypeError as e:  # another revision's engine, called as this tree's is
                    if eng is ours:
                        raise
                    raise AgainstError(f"the earlier engine's root cannot be called as this tree's ({e}): "
                                       "compare in turns instead (without --in-process)") from None
                least[which] = min(least[which], time.perf_counter() - start)
                if r == 0:
                    nodes[which] += eng.nodes
                    answers[which] = None if eng.aborted else sorted(moves)
                    capped[which] += eng.aborted
        if None not in answers.values() and answers["before"] != answers["after"]:
            raise AgainstError(f"{name} seed {seed}: the two engines' answers differ: "
                               f"{answers['before']} against {answers['after']}")
        for which, t in least.items():
            times[which].append(t * 1000)
    ratios = [a / b for a, b in zip(times["after"], times["before"]) if b > 0]
    return {"set": name, "measure": measure, "deals": count, "repeat": repeat,
            "median_before": statistics.median(times["before"]), "median_after": statistics.median(times["after"]),
            "total_before": sum(times["before"]), "total_after": sum(times["after"]),
            "ratio_of_medians": statistics.median(ratios) if ratios else float("nan"),
            "nodes_before": nodes["before"], "nodes_after": nodes["after"],
            "capped_before": capped["before"], "capped_after": capped["after"]}


def in_process_table(rows: list[dict[str, Any]]) -> str:
    """Markdown rows of ``in_process`` results (after over before: below 1 is faster)."""
    lines = ["| set | measure | deals (least of) | median ms (before → after) | total ms (before → after) "
             "| time ratio: totals | median of per-deal ratios | nodes (before → after) | capped |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['set']} | {r['measure']} | {r['deals']} ({r['repeat']}) "
                     f"| {r['median_before']:.3f} → {r['median_after']:.3f} "
                     f"| {r['total_before']:.1f} → {r['total_after']:.1f} "
                     f"| {r['total_after'] / r['total_before']:.3f} | {r['ratio_of_medians']:.3f} "
                     f"| {r['nodes_before']:,} → {r['nodes_after']:,} "
                     f"| {r['capped_before']} → {r['capped_after']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.against", description=__doc__.split("\n\n")[0])
    ap.add_argument("rev", help="the earlier commit (anything git names: a hash, a tag, HEAD~3)")
    ap.add_argument("sets", nargs="*",
                    help="openhand bench sets (default: " + " ".join(DEFAULT_SETS) + "); with --in-process, "
                         "benchmarks.fulldeals sets (default: " + " ".join(DEFAULT_FULL) + ")")
    ap.add_argument("--limit", type=int, default=20, help="positions a set (default 20)")
    ap.add_argument("--cap", type=float, default=5.0, help="seconds a solve may take (default 5)")
    ap.add_argument("--measure", choices=("tricks", "points", "both"), default="tricks")
    ap.add_argument("--rounds", type=int, default=2, help="runs of each engine, taking turns (default 2)")
    ap.add_argument("--in-process", action="store_true",
                    help="both engines in this process, deal by deal (full-deal sets; see above)")
    ap.add_argument("--count", type=int, default=100, help="with --in-process: deals a set (default 100)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="with --in-process: solves of each deal by each engine, the least kept (default 3)")
    args = ap.parse_intermixed_args(argv)  # (sets may follow the options)
    if args.in_process:
        from benchmarks.fulldeals import SETS
        args.sets = args.sets or list(DEFAULT_FULL)
        unknown = [name for name in args.sets if name not in SETS]
        if unknown or args.measure == "both" or args.count < 1 or args.repeat < 1:
            ap.error(f"--in-process takes full-deal sets ({', '.join(SETS)}), one measure, and a count and "
                     f"repeat of at least 1" + (f": not {', '.join(unknown)}" if unknown else ""))
    else:
        args.sets = args.sets or list(DEFAULT_SETS)
    try:
        with tempfile.TemporaryDirectory(prefix="openhand-against-") as tmp:
            print(f"building {args.rev} ...", file=sys.stderr)
            build_revision(args.rev, Path(tmp))
            if args.in_process:
                theirs = load_engine(Path(tmp))
                rows = []
                for name in args.sets:
                    print(f"{name}: {args.rev} and this tree, deal by deal ...", file=sys.stderr)
                    rows.append(in_process(theirs, name, args.count, args.repeat, args.measure, args.cap))
                print(in_process_table(rows))
                return 0
            before: list[list[dict[str, Any]]] = []
            after: list[list[dict[str, Any]]] = []
            for k in range(args.rounds):
                print(f"round {k + 1} of {args.rounds}: {args.rev}, then this tree ...", file=sys.stderr)
                before.append(bench(Path(tmp), args.sets, args.limit, args.cap, args.measure))
                after.append(bench(ROOT, args.sets, args.limit, args.cap, args.measure))
    except AgainstError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(table(before, after))
    return 0


if __name__ == "__main__":
    sys.exit(main())
