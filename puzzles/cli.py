"""``openhand puzzles ...``: generate, show, check, play and draw puzzle collections.

Plugged into the ``openhand`` command through the ``openhand.commands`` entry
point (``register``); ``python -m puzzles`` runs the same commands alone.
Errors from user input are ``ValueError``s, which the CLI prints as
``error: ...`` with exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from solver.cli import parse_option
from solver.progress import Progress

from .check import check_collection
from .generator import FILTERS, Settings, SettingsError, generate
from .play import play
from .puzzle import load, save
from .render import show_text, svg


def _cards(text: str) -> tuple[int, int]:
    lo, _, hi = text.partition("-")
    try:
        return int(lo), int(hi or lo)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--cards wants N or LO-HI, got {text!r}") from None


def cmd_generate(args: argparse.Namespace) -> int:
    options = dict(parse_option(o) for o in args.option)
    cards = args.cards or ((4, 6) if args.single_dummy else (3, 4))
    settings = Settings(args.game, options=options, vary=not args.fixed, cards=cards,
                        sources=tuple(args.source or ("cut", "playout")), measure=args.measure,
                        margin=args.margin, pool=args.pool, policies_must_fail=args.policies,
                        max_tree_nodes=args.max_tree_nodes, engine=args.engine,
                        single_dummy=args.single_dummy, threshold=args.threshold, max_layouts=args.max_layouts)
    with Progress(args.count, f"{args.game} puzzles", enabled=args.progress) as bar:
        def tick(accepted: int, count: int, candidates: int) -> None:
            if accepted > bar.done:
                bar.update(accepted - bar.done)

        collection = generate(settings, args.count, args.seed, max_candidates=args.max_candidates, progress=tick)
    save(collection, args.out)
    if args.jsonl:
        save(collection, args.jsonl)
    st = collection.stats
    rates = ", ".join(f"{k} {'-' if v is None else f'{100 * v:.0f}%'}" for k, v in st["acceptance"].items())
    print(f"{len(collection)} puzzles from {st['candidates']} candidates in {st['seconds']} s "
          f"({st['per_minute']} a minute) -> {args.out}")
    print(f"filter acceptance: {rates}")
    return 0 if len(collection) == args.count else 1


def cmd_show(args: argparse.Namespace) -> int:
    collection = load(args.file)
    if args.id:
        print(show_text(collection.get(args.id), answer=args.answer))
        return 0
    for i, puzzle in enumerate(collection.puzzles, 1):
        print(show_text(puzzle, answer=args.answer, number=i))
        print()
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    collection = load(args.file)
    with Progress(len(collection), "checking", enabled=args.progress) as bar:
        problems = check_collection(collection, engine=args.engine, progress=lambda done, total: bar.update())
    for pid, items in problems.items():
        for item in items:
            print(f"{pid}: {item}")
    bad = len(problems)
    print(f"{len(collection) - bad}/{len(collection)} puzzles verified" + (f", {bad} with problems" if bad else ""))
    return 1 if bad else 0


def cmd_play(args: argparse.Namespace) -> int:
    collection = load(args.file)
    puzzle = collection.get(args.id) if args.id else collection.puzzles[0]
    return play(puzzle, sys.stdin, sys.stdout, engine=args.engine)


def cmd_svg(args: argparse.Namespace) -> int:
    collection = load(args.file)
    puzzle = collection.get(args.id) if args.id else collection.puzzles[0]
    text = svg(puzzle, answer=args.answer)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from .service.db import Store  # sqlite3 only: no need for the service extra
    store = Store(args.db)
    for path in args.files:
        collection = load(path)
        print(f"{path}: {store.import_puzzles(collection.puzzles)} new of {len(collection)} puzzles")
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    """One Markdown table row per collection: rate and the acceptance of each filter."""
    print("| game | settings | puzzles | candidates | seconds | accepted / min / core | "
          + " | ".join(FILTERS) + " |")
    print("|" + "---|" * (6 + len(FILTERS)))
    for path in args.files:
        c = load(path)
        st, se = c.stats, c.settings
        rates = " | ".join("-" if st["acceptance"].get(f) is None else f"{100 * st['acceptance'][f]:.0f}%"
                           for f in FILTERS)  # single-dummy collections have filters of their own: "-"
        what = f"cards {se['cards'][0]}-{se['cards'][1]}, {se['measure']}, {st.get('engine', se['engine'])}, seed {c.seed}"
        print(f"| {se['game']} | {what} | {len(c)} | {st['candidates']} | {st['seconds']} | {st['per_minute']} | {rates} |")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``puzzles`` and its subcommands to the ``openhand`` parser."""
    top = subparsers.add_parser("puzzles", help="generate, show, check, play and draw puzzles")
    sub = top.add_subparsers(dest="puzzles_command", metavar="COMMAND")
    top.set_defaults(func=lambda args: (top.print_help(), 2)[1])
    engine = {"choices": ("auto", "fast", "reference"), "default": "auto", "help": "solver engine (default auto)"}

    p = sub.add_parser("generate", help="generate a puzzle collection")
    p.add_argument("--game", required=True, help="minimo, minimisere, jass, moon or bridge")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a fixed game option (repeatable); options not given vary from deal to deal")
    p.add_argument("--fixed", action="store_true", help="do not vary the options not given (use the defaults)")
    p.add_argument("--count", type=int, default=10, help="puzzles to keep (default 10)")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--out", required=True, help="the collection file (.msgpack; .jsonl for JSON Lines)")
    p.add_argument("--jsonl", help="also write a JSON Lines export here")
    p.add_argument("--cards", type=_cards, default=None,
                   help="pieces a hand at the cut, N or LO-HI (default 3-4; 4-6 with --single-dummy)")
    p.add_argument("--source", action="append", choices=("cut", "playout"), help="candidate sources (default both)")
    p.add_argument("--measure", choices=("tricks", "points", "mixed"), default="tricks")
    p.add_argument("--margin", type=int, default=1, help="how much worse every non-key move must be, "
                                                         "in points puzzles (default 1)")
    p.add_argument("--pool", choices=("main", "easy"), default="main", help="main: 2-6 decisions; easy: 1")
    p.add_argument("--policies", choices=("all", "any", "none"), default="all",
                   help="how many simple policies must fail (default all)")
    p.add_argument("--max-tree-nodes", type=int, default=400)
    p.add_argument("--max-candidates", type=int, default=None, help="give up after this many candidates")
    p.add_argument("--single-dummy", action="store_true",
                   help="Open Minimo puzzles seen from the player's seat: the key is best in most hidden layouts")
    p.add_argument("--threshold", type=float, default=0.95,
                   help="single-dummy: the share of layouts where the key must be best (default 0.95)")
    p.add_argument("--max-layouts", type=int, default=5000,
                   help="single-dummy: skip views with more hidden layouts than this (default 5000)")
    p.add_argument("--engine", **engine)  # type: ignore[arg-type]
    p.add_argument("--progress", action="store_true", default=None, help="draw the progress bar even when not a tty")
    p.set_defaults(func=cmd_generate)

    p = sub.add_parser("show", help="print puzzles (the answer only with --answer)")
    p.add_argument("file")
    p.add_argument("id", nargs="?", help="a puzzle id (or prefix, or 1-based number); default all")
    p.add_argument("--answer", action="store_true", help="show the solved answer too")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("check", help="re-solve every puzzle and confirm every stored claim")
    p.add_argument("file")
    p.add_argument("--engine", **engine)  # type: ignore[arg-type]
    p.add_argument("--progress", action="store_true", default=None)
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("play", help="play a puzzle (moves from standard input)")
    p.add_argument("file")
    p.add_argument("id", nargs="?", help="a puzzle id (default the first)")
    p.add_argument("--engine", **engine)  # type: ignore[arg-type]
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("stats", help="generation rate and filter acceptance of collections, as a Markdown table")
    p.add_argument("files", nargs="+")
    p.set_defaults(func=cmd_stats)

    p = sub.add_parser("import", help="load collections into the service's database",
                       description="Add the puzzles of each collection to a SQLite database (created and "
                                   "migrated if needed), as 'openhand serve' reads it. Puzzles already there "
                                   "(same id) are left as they are.")
    p.add_argument("files", nargs="+", help="collection files (msgpack or JSON Lines)")
    p.add_argument("--db", default="openhand.db", help="the database file (default openhand.db)")
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("svg", help="draw a puzzle position as SVG")
    p.add_argument("file")
    p.add_argument("id", nargs="?", help="a puzzle id (default the first)")
    p.add_argument("--answer", action="store_true", help="outline the key")
    p.add_argument("--out", help="write here instead of standard output")
    p.set_defaults(func=cmd_svg)


def main(argv: list[str] | None = None) -> int:
    """``python -m puzzles ...``: the puzzle commands without the rest of ``openhand``."""
    parser = argparse.ArgumentParser(prog="python -m puzzles")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    register(sub)
    args = parser.parse_args(["puzzles", *(sys.argv[1:] if argv is None else argv)])
    try:
        return int(args.func(args))
    except (ValueError, OSError) as e:  # SettingsError, CollectionError, PositionError...
        print(f"error: {e}", file=sys.stderr)
        return 2


__all__ = ["SettingsError", "main", "register"]
