"""The full engine-vs-reference sweep: ``python -m benchmarks.sweep [--count N] [--only GAME]``.

For every game and variant of ``tests/engine_cases.VARIANTS``: ``count`` seeded
random positions (3-6 cards a hand for 3 players; 3-``--max4`` for 4, since the
reference needs seconds on 4-player 6-card positions), part-played tricks and
non-empty ``taken`` included, each compared on both measures with the goal and
hero cycling. Prints one line per variant and exits 1 on any disagreement.

With ``--answers DIR`` the reference's answers are kept in ``DIR`` (one msgpack
file per variant and seed, keyed by position and objective, saved as they come):
the reference is the slow side, so a later sweep of a changed engine over the
same positions only runs the engine.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import msgpack  # noqa: E402
from engine_cases import (  # noqa: E402
    VARIANTS, Answer, compare, four_players, objective_for, reference_answer, variant_id, variant_seed)

from solver.deal import random_positions  # noqa: E402


class AnswerStore:
    """The reference's answers for one variant and seed, read from and saved to ``path``."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.answers: dict[str, list] = {}
        self.fresh = 0
        if path is not None and path.exists():
            self.answers = msgpack.unpackb(path.read_bytes())

    def get(self, key: str, compute) -> Answer:
        if key not in self.answers:
            self.answers[key] = list(compute())
            self.fresh += 1
            if self.fresh % 100 == 0:
                self.save()
        value, moves, best = self.answers[key]
        return value, [tuple(m) for m in moves], list(best)

    def save(self) -> None:
        if self.path is not None and self.fresh:
            tmp = self.path.with_suffix(".tmp")
            tmp.write_bytes(msgpack.packb(self.answers))
            tmp.replace(self.path)  # a sweep killed mid-write keeps the previous file


def sweep(game: str, options: dict, count: int, max4: int, seed: int = 2026,
          answers: Path | None = None) -> tuple[int, list[str]]:
    """(comparisons made, failures) for one variant."""
    cards = (3, max4) if four_players(game, options) else (3, 6)
    failures: list[str] = []
    done = 0
    vid = variant_id(game, options)
    vseed = variant_seed(game, options, seed)
    store = AnswerStore(answers / f"{vid}-max4={max4}-seed={seed}.msgpack" if answers else None)
    try:
        for i, pos in enumerate(random_positions(game, count, vseed, cards_left=cards, **options)):
            for obj in objective_for(pos, i):
                try:
                    answer = store.get(f"{pos.dumps()} {obj}", lambda: reference_answer(pos, obj))
                    problem = compare(pos, obj, answer)
                except Exception as e:  # a crash is a failure to report, not the end of the sweep
                    problem = f"{type(e).__name__}: {e}: {pos.dumps()} {obj}"
                done += 1
                if problem:
                    failures.append(problem)
    finally:
        store.save()
    return done, failures


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--count", type=int, default=2000, help="positions per variant")
    ap.add_argument("--max4", type=int, default=5, help="most cards a hand for 4-player games")
    ap.add_argument("--only", default="", help="only variants whose id starts with this")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--answers", type=Path, help="folder keeping the reference's answers between runs")
    args = ap.parse_args(argv)
    if args.answers:
        args.answers.mkdir(parents=True, exist_ok=True)

    def one(game: str, options: dict) -> tuple[str, list[str]]:
        done, failures = sweep(game, options, args.count, args.max4, args.seed, args.answers)
        return f"positions {args.count:5d} comparisons {done:5d} failures {len(failures)}", failures

    return run_variants(args.only, one)


def run_variants(only: str, check: Callable[[str, dict], tuple[str, list[str]]]) -> int:
    """``check(game, options)`` -> (summary, problems) for every variant whose id starts with
    ``only``: one line a variant (id, summary, time taken) and its first three problems.
    Exit status: 1 on any problem, else 0."""
    bad = 0
    for game, options in VARIANTS:
        vid = variant_id(game, options)
        if not vid.startswith(only):
            continue
        start = time.perf_counter()
        summary, problems = check(game, options)
        bad += len(problems)
        print(f"{vid:40s} {summary} ({time.perf_counter() - start:.0f} s)", flush=True)
        for p in problems[:3]:
            print("   ", p, flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
