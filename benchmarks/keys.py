"""The engine against itself with a technique off: ``python -m benchmarks.keys [--count N] [--off WHAT]``.

The sweep (``benchmarks.sweep``) checks the engine against the reference, which
limits it to 3-6 cards a hand. A table entry that matches positions it should
not (partition search, relative-rank keys), or a cheap bound that claims too
much, shows more often in larger searches, so this compares, on larger
positions, the engine as it runs with the same engine keying its table by the
cards themselves (``--off keys``: ``configure(partition=False, norm=False)``)
or without its sure-trick bounds (``--off bounds``: ``configure(qt=False)``):
value and every move's value, both measures, goal and hero cycling as in the
sweep. Jass variants whose trump is fixed in play also get as
many positions with no trump yet (every seat followed suit so far), which random
play seldom reaches, each solved with every seat as the hero minimising tricks. Solves past ``--max-nodes`` on either side are left out and
counted. Prints one line per variant; exits 1 on any disagreement.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from engine_cases import four_players, jass_before_trump, objective_for  # noqa: E402

from benchmarks.sweep import run_variants  # noqa: E402

from solver import engine  # noqa: E402
from solver.deal import random_positions  # noqa: E402
from solver.objective import Objective  # noqa: E402
from solver.position import Position  # noqa: E402


def cards_for(game: str, options: dict) -> tuple[int, int]:
    """Cards a hand: as large as a few seconds a variant allows."""
    if game == "moon":
        return (6, 7)  # full deals at 7
    if four_players(game, options):
        return (7, 8)
    return (8, 10)


def cases(game: str, options: dict, count: int, seed: int) -> Iterator[tuple[Position, list[Objective]]]:
    """Random positions with the sweep's objectives; for Jass with its trump fixed in play,
    as many again with no trump yet, each solved for every seat as hero, minimising tricks
    (the measure whose keys generalise there)."""
    lo, hi = cards_for(game, options)
    for i, pos in enumerate(random_positions(game, count, seed, cards_left=(lo, hi), **options)):
        yield pos, objective_for(pos, i)
    if game == "jass" and options.get("trump") is None:
        found, s = 0, seed
        while found < count:
            s += 1
            pos = jass_before_trump(s, hi, **options)
            if pos is not None:
                found += 1
                yield pos, [Objective.make(pos.game, hero, "tricks", "min") for hero in range(pos.n_players)]


#: what ``--off`` switches off, as ``Engine.configure`` arguments
OFF = {"keys": {"partition": False, "norm": False}, "bounds": {"qt": False}}


def check(game: str, options: dict, count: int, seed: int, max_nodes: int,
          off: str = "keys") -> tuple[int, int, list[str]]:
    """(comparisons made, comparisons left out over the budget, disagreements) for one variant."""
    eng = engine.get_engine()
    done = over = 0
    problems: list[str] = []
    try:
        for pos, objectives in cases(game, options, count, seed):
            for obj in objectives:
                eng.configure()
                got = engine.solve(pos, obj, pv=False, max_nodes=max_nodes)
                eng.configure(**OFF[off])
                want = engine.solve(pos, obj, pv=False, max_nodes=max_nodes)
                if not (got.complete and want.complete):
                    over += 1
                    continue
                done += 1
                if got.moves != want.moves:
                    problems.append(f"moves {got.moves} != with {off} off {want.moves}: {pos.dumps()} {obj}")
    finally:
        eng.configure()
    return done, over, problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=60, help="positions per variant (default 60)")
    ap.add_argument("--only", default="", help="only variants whose id starts with this")
    ap.add_argument("--seed", type=int, default=4242)
    ap.add_argument("--max-nodes", type=int, default=30_000_000, help="node budget of one solve")
    ap.add_argument("--off", choices=sorted(OFF), default="keys",
                    help="the technique the other side runs without (default: keys, exact card keys)")
    args = ap.parse_args(argv)

    def one(game: str, options: dict) -> tuple[str, list[str]]:
        done, over, problems = check(game, options, args.count, args.seed, args.max_nodes, args.off)
        return f"comparisons {done:5d} over budget {over} disagreements {len(problems)}", problems

    return run_variants(args.only, one)


if __name__ == "__main__":
    sys.exit(main())
