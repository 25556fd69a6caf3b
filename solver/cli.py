"""The ``openhand`` command line: a thin layer over the Python API.

Bad input never ends in a traceback: one line ``error: ...`` on standard error
and exit status 2 (FORMAT.md "Errors"). Other packages add subcommands through
the ``openhand.commands`` entry-point group (a ``register(subparsers)``
function), which keeps ``solver`` free of imports from them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from . import __version__
from .deal import cut, deal
from .display import picture, result_table
from .errors import FormatError, PositionError
from .games import GAMES
from .objective import Objective
from .position import Position
from .progress import Progress
from .search import engine_name, solve


class UsageError(ValueError):
    """A command-line mistake (a missing file, a bad flag value)."""


# --- input ----------------------------------------------------------------------

def read_text(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"{path}: cannot read: {e}") from None


def parse_json(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise FormatError(f"{where}: not valid JSON: {e}") from None


def parse_option(text: str) -> tuple[str, Any]:
    """``key=value``; the value is read as JSON when it can be (``true``, ``12``), else a string."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise UsageError(f"--option wants key=value, got {text!r}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def objective_for(position: Position, args: argparse.Namespace) -> Objective:
    """The position's objective with the command line's overrides."""
    base = position.objective
    hero = base.hero if args.hero is None else args.hero
    measure = args.measure or base.measure
    goal = args.goal
    if goal is None:
        goal = base.goal if measure == base.measure else None  # a new measure takes its own default
    return Objective.make(position.game, hero, measure, goal)


# --- commands -------------------------------------------------------------------

def cmd_solve(args: argparse.Namespace) -> int:
    text = read_text(args.file)
    jsonl = args.jsonl or args.file.endswith(".jsonl")
    limits = {"engine": args.engine, "max_nodes": args.max_nodes, "max_seconds": args.max_seconds}
    if not jsonl:
        pos = Position.from_json(parse_json(text, args.file))
        with Progress(None, "solving: moves valued", args.progress) as bar:
            def valued(done: int, total: int) -> None:
                bar.total = total
                bar.update(done - bar.done)
            result = solve(pos, objective_for(pos, args), progress=valued, **limits)
        if args.json:
            print(json.dumps(result.to_json()))
        else:
            print(picture(pos))
            print(result_table(pos, result))
        return 0
    # JSON Lines: one result line per input line, in order. A bad line gets an
    # error object in its place (so no other result is lost) and exit status 2.
    failed = 0
    lines = list(_numbered_lines(text))
    for number, line in Progress.over(lines, "solving: lines", args.progress):
        try:
            pos = Position.from_json(parse_json(line, f"line {number}"))
            record = solve(pos, objective_for(pos, args), **limits).to_json()
        except PositionError as e:
            failed += 1
            print(f"error: line {number}: {e}", file=sys.stderr)
            record = {"line": number, "error": str(e)}
        print(json.dumps(record), flush=True)
    return 2 if failed else 0


def _numbered_lines(text: str) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            yield number, line


def cmd_deal(args: argparse.Namespace) -> int:
    options = dict(parse_option(o) for o in args.option)
    pos = deal(args.game, args.seed, **options)
    if args.cards is not None:
        if not 0 <= args.cards <= pos.game.hand_size:
            raise UsageError(f"--cards must be 0..{pos.game.hand_size} for {args.game}")
        pos = cut(pos, args.cards, 0, args.seed)
    print(json.dumps(pos.to_json(), indent=None if args.compact else 2))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    pos = Position.from_json(parse_json(read_text(args.file), args.file))
    print(picture(pos))
    return 0


#: The built-in example: a deal of each game family, with the cards a hand to solve from
#: (None: the whole hand). The 12- and 13-card games start after a few tricks so the demo
#: stays quick; ``openhand deal`` + ``openhand solve`` do whole hands of any game.
DEMO = [("minimo", {"trump": "S"}, None), ("minimisere", {}, 9), ("jass", {}, 9), ("moon", {}, None),
        ("moon", {"players": 4}, None), ("bridge", {"trump": "NT"}, 9)]


def cmd_demo(args: argparse.Namespace) -> int:
    """Deal and solve a position of every game (endgames of 4 cards a hand without the engine)."""
    full = engine_name(args.engine) == "fast"
    for name, options, cards in DEMO:
        pos = deal(name, args.seed, **options)
        cards = cards if full else 4
        if cards is not None:
            pos = cut(pos, cards, 0, args.seed)
        measure = "points" if name in ("minimo", "jass") else "tricks"
        result = solve(pos, Objective.make(pos.game, pos.to_move, measure), engine=args.engine)
        print(picture(pos))
        print(result_table(pos, result))
        print()
    if not full:
        print("(the compiled engine is not built here, so the demo solved endgames of 4 cards a hand "
              "with the pure-Python reference)")
    return 0


#: Where the repository keeps the standard sets (relative to the working directory).
STORED_SETS = Path("benchmarks/sets")


def cmd_bench(args: argparse.Namespace) -> int:
    """Solve standard position sets and print a table; optionally side by side with DDS."""
    from . import bench

    if args.repeat < 1:
        raise UsageError("--repeat must be 1 or more")
    if args.list:
        for name, spec in bench.STANDARD.items():
            print(f"{name:<26} {spec.count} positions, {spec.tricks} tricks played, seed {spec.seed}")
        return 0
    if args.scaling:
        options = dict(parse_option(o) for o in args.option)
        with Progress(None, f"scaling {args.scaling}", args.progress) as bar:
            reports = bench.scaling(args.scaling, options, args.limit or 20, 77, args.measure if args.measure != "both"
                                    else "tricks", args.engine, on_solve=bar.update, cap=args.cap, repeat=args.repeat)
        print(json.dumps(bench.reports_json(reports)) if args.json else bench.format_reports(reports))
        return 0
    names = args.sets or list(bench.STANDARD)
    unknown = [n for n in names if n not in bench.STANDARD]
    if unknown:
        raise UsageError(f"unknown set {unknown[0]!r} (see openhand bench --list)")
    if args.game:
        names = [n for n in names if bench.STANDARD[n].game == args.game]
    directory = Path(args.dir) if args.dir else (STORED_SETS if STORED_SETS.is_dir() else None)
    if args.write:
        for name in names:
            spec = bench.STANDARD[name]
            bench.save_set(spec, bench.make_positions(spec), bench.set_path(Path(args.write), name))
        print(f"wrote {len(names)} sets to {args.write}")
        return 0
    previous = None
    if args.compare:
        previous = bench.previous_from_json(parse_json(read_text(args.compare), args.compare))
    measures = ["tricks", "points"] if args.measure == "both" else [args.measure]
    reports = []
    for name in names:
        positions = bench.get_set(name, directory)[:args.limit]
        for measure in measures:
            with Progress(len(positions), f"{name} {measure}", args.progress) as bar:
                reports.append(bench.run_set(name, positions, measure, args.engine, on_solve=bar.update,
                                             cap=args.cap, goal="max" if bench.STANDARD[name].game == "bridge" else None,
                                             repeat=args.repeat))
    if args.json:
        print(json.dumps(bench.reports_json(reports)))
    else:
        print(bench.format_reports(reports, previous))
    if args.dds or args.dds_tables:
        from . import dds
        if not dds.available():
            print("DDS comparison skipped: endplay is not installed (pip install '.[dds]')", file=sys.stderr)
            return 0
        for name in names:
            if bench.STANDARD[name].game == "bridge":
                positions = bench.get_set(name, directory)[:args.limit]
                with Progress(len(positions), f"DDS {name}", args.progress) as bar:
                    comparison = bench.compare_leads_with_dds(positions, args.engine, on_solve=bar.update)
                print(f"DDS {name}: {comparison.summary()}")
                if args.dds_tables and bench.STANDARD[name].tricks == 0:
                    with Progress(len(positions), f"DDS tables {name}", args.progress) as bar:
                        comparison = bench.compare_tables_with_dds(positions, args.engine, on_solve=bar.update)
                    print(f"DDS tables {name}: {comparison.summary()}")
    return 0


# --- parser ---------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="openhand",
        description="Exact double-dummy analysis for Minimo, Minimisere, Mittlere Jass, Moon and bridge. "
                    "Positions are FORMAT.md JSON.")
    parser.add_argument("--version", action="version", version=f"openhand {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("solve", help="solve a position: its value, every legal move's value, one best line",
                       description="Solve a FORMAT.md position file (or - for stdin). A *.jsonl file (or "
                                   "--jsonl) holds one position per line and gives one JSON result line each, "
                                   "in input order.")
    p.add_argument("file", help="position JSON file, '-' for stdin, or a JSON Lines file")
    p.add_argument("--jsonl", action="store_true", help="read JSON Lines whatever the file name")
    p.add_argument("--json", action="store_true", help="print the FORMAT.md result instead of a table")
    p.add_argument("--hero", type=int, help="the seat whose side is solved for (default: the position's, "
                                            "else the seat to move)")
    p.add_argument("--measure", choices=("tricks", "points"), help="what is counted (default: tricks)")
    p.add_argument("--goal", choices=("min", "max"), help="the hero side's aim (default: min; max for Jass points)")
    p.add_argument("--engine", choices=("auto", "fast", "reference"), default="auto",
                   help="the compiled engine, the pure-Python reference, or whichever is available (default)")
    p.add_argument("--max-nodes", type=int, help="stop the engine after this many nodes (result marked incomplete)")
    p.add_argument("--max-seconds", type=float, help="stop the engine after this long (result marked incomplete)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="draw a progress bar on stderr: moves valued, or lines solved with --jsonl "
                        "(default: when it is a terminal)")
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser("deal", help="print a seeded random deal as position JSON",
                       description="Print a random deal of GAME as FORMAT.md position JSON. The same seed "
                                   "gives the same deal on every machine.")
    p.add_argument("game", choices=sorted(GAMES), help="the game")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option, e.g. trump=S, players=4, contract=doubles, open=true (Minimo: "
                        "5 random face-up cards a hand); repeatable")
    p.add_argument("--cards", type=int, help="play random legal moves until each hand holds this many cards")
    p.add_argument("--compact", action="store_true", help="one line of JSON")
    p.set_defaults(func=cmd_deal)

    p = sub.add_parser("show", help="draw a position in the terminal")
    p.add_argument("file", help="position JSON file, or - for stdin")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("bench", help="time the solver on standard seeded position sets (and against DDS)",
                       description="Solve standard seeded position sets (value and every legal move of each "
                                   "position) and print median and 90th-percentile time, nodes, nodes per second, "
                                   "table hit rate and peak memory. Sets are read from --dir when stored there, "
                                   "else rebuilt from their seeds.")
    p.add_argument("sets", nargs="*", help="set names (default: all; see --list)")
    p.add_argument("--list", action="store_true", help="list the standard sets and exit")
    p.add_argument("--game", choices=sorted(GAMES), help="only the sets of this game")
    p.add_argument("--measure", choices=("tricks", "points", "both"), default="tricks")
    p.add_argument("--limit", type=int, help="at most this many positions per set")
    p.add_argument("--dir", default=None,
                   help=f"directory of stored sets (default {STORED_SETS} when it exists, else rebuilt from seeds)")
    p.add_argument("--write", metavar="DIR", help="store the chosen sets as msgpack files in DIR and exit")
    p.add_argument("--engine", choices=("auto", "fast", "reference"), default="auto")
    p.add_argument("--cap", type=float, default=None, metavar="SECONDS",
                   help="stop a solve after this long (counted as capped; its time is then a lower bound)")
    p.add_argument("--repeat", type=int, default=1, metavar="N",
                   help="solve each position N times, a fresh table each, and keep its least time (default 1): "
                        "steadier medians on a busy machine (the repeats also find the table memory the "
                        "position uses already in the CPU's caches); node counts are the same each time")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--compare", metavar="FILE", help="an earlier --json output: show the change of each median")
    p.add_argument("--dds", action="store_true", help="also solve the bridge sets with DDS (endplay) and compare: answers, time, and "
                        "tree size as the nodes at a trick's start (the count DDS reports)")
    p.add_argument("--dds-tables", action="store_true",
                   help="--dds, and also time the full 20-result table against DDS's CalcDDtable on the "
                        "full-deal bridge sets (seconds to minutes a deal)")
    p.add_argument("--scaling", choices=sorted(GAMES), metavar="GAME",
                   help="time and nodes by cards left (4 up to a full hand), --limit deals per size (default 20)")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option for --scaling, e.g. trump=S")
    p.add_argument("--progress", action="store_true", default=None, help="draw progress bars even when not a tty")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("demo", help="deal and solve a position of every game (the built-in example)")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--engine", choices=("auto", "fast", "reference"), default="auto")
    p.set_defaults(func=cmd_demo)

    add_analysis_commands(sub)
    for ep in entry_points(group="openhand.commands"):
        ep.load()(sub)
    return parser


# --- analysis: DD tables and single-dummy (solver.table, solver.single_dummy) -------

def cmd_table(args: argparse.Namespace) -> int:
    from .table import table, tables
    pos = Position.from_json(parse_json(read_text(args.file), args.file))
    if args.jobs < 1:
        raise UsageError("--jobs must be 1 or more")
    kwargs: dict[str, Any] = {"engine": args.engine, "jobs": args.jobs, "progress": args.progress}
    if args.measure or args.goal:
        found = [table(pos, args.measure, args.goal, **kwargs)]
    else:
        found = tables(pos, **kwargs)
    if args.json:  # one FORMAT.md table result a line
        for t in found:
            print(json.dumps(t.to_json()))
    else:
        print(picture(pos))
        for t in found:
            print()
            print(t)
    return 0


def cmd_single_dummy(args: argparse.Namespace) -> int:
    from .single_dummy import View, analyse
    data = parse_json(read_text(args.file), args.file)
    if isinstance(data, dict) and "seat" in data:  # a view
        view = View.from_json(data)
        if args.seat is not None and args.seat != view.seat:
            raise UsageError(f"--seat {args.seat} differs from the view's seat {view.seat}")
    else:
        if args.seat is None:
            raise UsageError("--seat is required when FILE is a position (a view names its seat)")
        pos = Position.from_json(data)
        if not 0 <= args.seat < pos.n_players:
            raise UsageError(f"--seat must be 0..{pos.n_players - 1}")
        view = View.from_position(pos, args.seat)
    if args.measure or args.goal or args.hero is not None:
        assert view.objective is not None
        measure = args.measure or view.objective.measure
        goal = args.goal if args.goal else (view.objective.goal if measure == view.objective.measure else None)
        hero = view.seat if args.hero is None else args.hero
        view.objective = Objective.make(view.game, hero, measure, goal)
    if args.jobs < 1:
        raise UsageError("--jobs must be 1 or more")
    result = analyse(view, samples=args.samples, seed=args.seed, engine=args.engine, jobs=args.jobs,
                     progress=args.progress, max_exact=args.max_exact)
    print(json.dumps(result.to_json()) if args.json else result)
    return 0


def add_analysis_commands(sub: Any) -> None:
    """The ``table`` and ``single-dummy`` subcommands."""
    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--engine", choices=("auto", "fast", "reference"), default="auto")
        p.add_argument("--jobs", type=int, default=1, help="processes to solve in (default 1)")
        p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                       help="draw a progress bar on stderr (default: when it is a terminal)")
        p.add_argument("--json", action="store_true", help="print JSON instead of text")

    p = sub.add_parser("table", help="double-dummy table: every contract x every seat",
                       description="The DD tables of a deal (FORMAT.md 'Table result'): Minimo trumps x seats "
                                   "(least tricks, least penalty); Minimisere least tricks and declarations, "
                                   "least penalty (standard, hard); Jass most and least points; Moon contracts "
                                   "x seats (3 players: every discard of the bidder and the best bid); bridge "
                                   "the 20-result table. --json prints one table result a line.")
    p.add_argument("file", help="position JSON file, or - for stdin")
    p.add_argument("--measure", choices=("tricks", "points"), help="only the table of this measure")
    p.add_argument("--goal", choices=("min", "max"), help="only the table of this goal")
    common(p)
    p.set_defaults(func=cmd_table)

    p = sub.add_parser("single-dummy", help="one seat's view: every hidden layout solved, per-move statistics",
                       description="Single-dummy analysis: from a position and --seat (the seat sees its hand, "
                                   "the face-up cards of Open Minimo and all play) or from a view JSON "
                                   "(solver.single_dummy), solve every layout of the hidden cards consistent "
                                   "with the view (a seeded uniform sample when there are too many, or with "
                                   "--samples) and give each legal move's mean, worst, best value and "
                                   "distribution.")
    p.add_argument("file", help="position or view JSON file, or - for stdin")
    p.add_argument("--seat", type=int, help="the viewer (required for a position)")
    p.add_argument("--hero", type=int, help="the seat whose side is scored (default: the viewer)")
    p.add_argument("--measure", choices=("tricks", "points"))
    p.add_argument("--goal", choices=("min", "max"))
    p.add_argument("--samples", type=int, help="solve this many seeded uniform layouts instead of all")
    p.add_argument("--seed", type=int, default=1, help="sampling seed (default 1)")
    p.add_argument("--max-exact", type=int, default=200_000,
                   help="enumerate all layouts up to this many, else sample 1000 (default 200000)")
    common(p)
    p.set_defaults(func=cmd_single_dummy)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except (ValueError, OSError) as e:  # PositionError and UsageError are ValueErrors
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
