"""The engine against an earlier commit's, in one run: ``python -m benchmarks.against REV [SET ...]``.

Builds REV's engine in a temporary directory (``git archive``, then an in-place build:
it needs git, Cython and a C compiler, as building this tree does), then runs
``openhand bench`` on the same sets with the two engines taking turns, each round in
fresh processes, and prints one Markdown row per set: both engines' medians, mean
nodes, the node ratio and the time ratio (sums of the medians). That is the speed of a
change against the core before it, on the same machine at the same time: node counts
do not depend on the load, times do, so take the ratios of a quiet machine.
This tree's engine must be built in place first (``python setup.py build_ext --inplace``).
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

#: a set of each game, small enough for a few minutes a round
DEFAULT_SETS = ("bridge-nt/after3", "bridge-s/after3", "bridge-nt/full", "minimisere/after6",
                "minimisere-hard/after6", "jass/after3", "minimo-nt/full", "minimo-s/full",
                "moon3/full", "moon4/full")


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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.against", description=__doc__.split("\n\n")[0])
    ap.add_argument("rev", help="the earlier commit (anything git names: a hash, a tag, HEAD~3)")
    ap.add_argument("sets", nargs="*", default=list(DEFAULT_SETS),
                    help="openhand bench sets (default: " + " ".join(DEFAULT_SETS) + ")")
    ap.add_argument("--limit", type=int, default=20, help="positions a set (default 20)")
    ap.add_argument("--cap", type=float, default=5.0, help="seconds a solve may take (default 5)")
    ap.add_argument("--measure", choices=("tricks", "points", "both"), default="tricks")
    ap.add_argument("--rounds", type=int, default=2, help="runs of each engine, taking turns (default 2)")
    args = ap.parse_args(argv)
    try:
        with tempfile.TemporaryDirectory(prefix="openhand-against-") as tmp:
            print(f"building {args.rev} ...", file=sys.stderr)
            build_revision(args.rev, Path(tmp))
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
