"""Every cheap bound's claims against the engine: ``python -m benchmarks.bounds [--count N] [--only GAME]``.

The search's cheap bounds (quick tricks, sure trump tricks, the lone hero's and
the teams' losses, points still out) cut where they decide the window it asks,
so a bound that claims too much changes an answer only now and then, and the
sweeps against the reference (``benchmarks.sweep``) or against the engine
itself (``benchmarks.keys``) see it late. This asks them directly, at every
trick start of ``count`` seeded random positions a variant (3-8 cards a hand for
3 players, 3-6 for 4; two tricks or more left), both measures with the goal and
hero cycling as in the sweep: for the full window and for the null windows
around the value, the lower bound may not exceed the value nor the upper bound
fall below it, against the engine's own value with its bounds switched off
(``tests/engine_cases.bound_claims``). Prints one line per variant; exits 1 on
any claim that fails. About 3 minutes at the default 2,000 positions a variant.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from engine_cases import bound_problems, four_players, variant_seed  # noqa: E402

from benchmarks.sweep import run_variants  # noqa: E402


def check(game: str, options: dict, count: int, seed: int) -> tuple[int, list[str]]:
    """(trick starts checked, problems) for one variant."""
    cards = (3, 6) if four_players(game, options) else (3, 8)
    return bound_problems(game, options, count, variant_seed(game, options, seed), cards)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bounds", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=2000, help="positions a variant (default 2000)")
    ap.add_argument("--only", default="", help="only variants whose id starts with this")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)

    def one(game: str, options: dict) -> tuple[str, list[str]]:
        done, problems = check(game, options, args.count, args.seed)
        return f"trick starts {done:5d} failures {len(problems)}", problems

    return run_variants(args.only, one)


if __name__ == "__main__":
    sys.exit(main())
