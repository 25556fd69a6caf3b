"""The full engine-vs-reference sweep: ``python -m benchmarks.sweep [--count N] [--only GAME]``.

For every game and variant of ``tests/engine_cases.VARIANTS``: ``count`` seeded
random positions (3-6 cards a hand for 3 players; 3-``--max4`` for 4, since the
reference needs seconds on 4-player 6-card positions), part-played tricks and
non-empty ``taken`` included, each compared on both measures with the goal and
hero cycling. Prints one line per variant and exits 1 on any disagreement.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from engine_cases import VARIANTS, compare, four_players, objective_for, variant_id  # noqa: E402

from solver.deal import random_positions  # noqa: E402


def sweep(game: str, options: dict, count: int, max4: int, seed: int = 2026) -> tuple[int, list[str]]:
    """(comparisons made, failures) for one variant."""
    cards = (3, max4) if four_players(game, options) else (3, 6)
    failures: list[str] = []
    done = 0
    vseed = seed * 1000 + sum(map(ord, variant_id(game, options)))
    for i, pos in enumerate(random_positions(game, count, vseed, cards_left=cards, **options)):
        for obj in objective_for(pos, i):
            try:
                problem = compare(pos, obj)
            except Exception as e:  # a crash is a failure to report, not the end of the sweep
                problem = f"{type(e).__name__}: {e}: {pos.dumps()} {obj}"
            done += 1
            if problem:
                failures.append(problem)
    return done, failures


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--count", type=int, default=2000, help="positions per variant")
    ap.add_argument("--max4", type=int, default=5, help="most cards a hand for 4-player games")
    ap.add_argument("--only", default="", help="only variants whose id starts with this")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)
    bad = 0
    for game, options in VARIANTS:
        vid = variant_id(game, options)
        if not vid.startswith(args.only):
            continue
        start = time.perf_counter()
        done, failures = sweep(game, options, args.count, args.max4, args.seed)
        bad += len(failures)
        print(f"{vid:40s} positions {args.count:5d} comparisons {done:5d} failures {len(failures)} "
              f"({time.perf_counter() - start:.0f} s)", flush=True)
        for f in failures[:3]:
            print("   ", f, flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
