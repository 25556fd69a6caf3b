"""Benchmark position sets and the runner behind ``openhand bench``.

A *set* is a list of positions of one game and variant, made from seeds so that
anyone can rebuild it, and stored compactly (msgpack, versioned) so that a
figure can be reproduced from the very same positions. The runner solves each
position (value and the value of every legal move, as ``solve`` does) and
reports time percentiles, nodes, nodes per second, table hit rate and peak
memory.
"""

from __future__ import annotations

import resource
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import msgpack

from .deal import Rng, cut, deal
from .games import make_game
from .objective import Objective
from .position import Position
from .search import Engine, engine_name, solve

SET_FORMAT = 1  # bump when the stored layout changes


@dataclass(frozen=True)
class SetSpec:
    """How a set is made: ``count`` deals of ``game`` from ``seed``, cut after ``tricks`` tricks."""

    name: str
    game: str
    options: dict[str, Any]
    tricks: int          # tricks played before the position (0 = full deal)
    count: int
    seed: int


def _specs() -> list[SetSpec]:
    variants = [
        ("minimo", "minimo-nt", {"trump": "NT"}), ("minimo", "minimo-s", {"trump": "S"}),
        ("minimisere", "minimisere", {}), ("minimisere", "minimisere-hard", {"scoring": "hard"}),
        ("jass", "jass", {}), ("moon", "moon3", {}), ("moon", "moon4", {"players": 4}),
        ("bridge", "bridge-nt", {"trump": "NT"}), ("bridge", "bridge-s", {"trump": "S"}),
    ]
    specs = []
    for i, (game, name, options) in enumerate(variants):
        hand = make_game(game, **({"contract": "none"} if game == "moon" else {}), **options).hand_size
        kinds = {0: "full", 3: "after3", 6: "after6"}
        kinds.setdefault(hand - 4, "end4")  # a 4-card endgame, unless after3/after6 is one already
        for tricks, label in sorted(kinds.items()):
            if tricks < hand:
                specs.append(SetSpec(f"{name}/{label}", game, options, tricks, 100, 1000 * i + tricks))
    return specs


#: The standard sets, by name (``game-variant/kind``).
STANDARD = {s.name: s for s in _specs()}


def make_positions(spec: SetSpec) -> list[Position]:
    """Build a set from its seeds: deals, each cut after ``tricks`` random legal tricks."""
    rng = Rng(spec.seed)
    out = []
    for _ in range(spec.count):
        pos = deal(spec.game, rng.next64(), **spec.options)
        if spec.tricks:
            pos = cut(pos, pos.game.hand_size - spec.tricks, 0, rng.next64())
        out.append(pos)
    return out


# --- storage ----------------------------------------------------------------------

def save_set(spec: SetSpec, positions: list[Position], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    # Masks, not card names: compact, and exact for every game. Options are per
    # position because a deal may choose them (Moon's contract).
    data = {"format": SET_FORMAT, "spec": asdict(spec),
            "positions": [[p.game.options_json(), p.hands, p.leader, p.trick, p.taken, p.trump] for p in positions]}
    path.write_bytes(msgpack.packb(data))


def load_set(path: Path) -> tuple[SetSpec, list[Position]]:
    data = msgpack.unpackb(path.read_bytes(), strict_map_key=False)
    if data.get("format") != SET_FORMAT:
        raise ValueError(f"{path}: benchmark set format {data.get('format')!r}, expected {SET_FORMAT}")
    spec = SetSpec(**data["spec"])
    positions = [Position(make_game(spec.game, **options), hands, leader, trick, taken, trump)
                 for options, hands, leader, trick, taken, trump in data["positions"]]
    return spec, positions


def set_path(directory: Path, name: str) -> Path:
    return directory / (name.replace("/", "__") + ".msgpack")


def get_set(name: str, directory: Path | None) -> list[Position]:
    """A standard set: from its stored file when there is one, else rebuilt from its seeds."""
    spec = STANDARD[name]
    if directory is not None and set_path(directory, name).exists():
        stored_spec, positions = load_set(set_path(directory, name))
        if stored_spec != spec:
            raise ValueError(f"{set_path(directory, name)} was made by another recipe than {name}")
        return positions
    return make_positions(spec)


# --- running -------------------------------------------------------------------------

@dataclass
class SetReport:
    name: str
    positions: int
    measure: str
    median_ms: float
    p90_ms: float
    max_ms: float
    nodes_per_solve: float
    nodes_per_second: float
    hit_rate: float | None
    peak_mb: float
    over: int = 0            # solves stopped by the cap
    repeat: int = 1          # solves a position, its least time kept
    times_ms: list[float] = field(repr=False, default_factory=list)
    nodes: list[int] = field(repr=False, default_factory=list)


def fresh_table(engine: Engine) -> None:
    """Forget the compiled engine's table before a new deal: nothing carried over, as a user sees it."""
    if engine_name(engine) == "fast":
        from . import engine as compiled
        compiled.get_engine().new_generation()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_set(name: str, positions: Iterable[Position], measure: str = "tricks", engine: Engine = "auto",
            on_solve: Callable[[], None] | None = None, cap: float | None = None,
            goal: str | None = None, repeat: int = 1) -> SetReport:
    """Solve every position (value and every legal move, no pv) with a fresh table each, and summarise.

    ``cap`` stops a solve after that many seconds (counted in ``over``; its
    time then is a lower bound). ``goal`` overrides the game's default goal.
    ``repeat`` solves each position that many times and keeps its least time
    (as ``timeit`` does): a fresh table makes every repeat the same work, so the
    extra time of the slower ones is the machine's, not the solve's (other jobs,
    cold caches). A capped solve is not repeated.
    """
    if repeat < 1:
        raise ValueError(f"repeat must be at least 1, not {repeat}")
    times, nodes, hits, probes, over = [], [], 0, 0, 0
    for pos in positions:
        obj = Objective.make(pos.game, pos.to_move, measure, goal)
        best = float("inf")
        for _ in range(repeat):
            fresh_table(engine)
            start = time.perf_counter()
            result = solve(pos, obj, engine=engine, pv=False, max_seconds=cap)
            best = min(best, (time.perf_counter() - start) * 1000)
            if not result.complete:
                break
        times.append(best)
        nodes.append(int(result.stats.get("nodes", 0)))
        hits += int(result.stats.get("tt_hits", 0))
        probes += int(result.stats.get("tt_probes", 0))
        over += not result.complete
        if on_solve:
            on_solve()
    total_s = sum(times) / 1000
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return SetReport(name, len(times), measure, statistics.median(times), percentile(times, 0.9), max(times),
                     sum(nodes) / len(nodes), sum(nodes) / total_s if total_s else 0.0,
                     hits / probes if probes else None, peak_mb, over, repeat, times, nodes)


def format_reports(reports: list[SetReport], previous: dict[str, dict[str, Any]] | None = None) -> str:
    """A table a person can read; with ``previous``, the change of the median against it."""
    head = f"{'set':<26} {'measure':<7} {'n':>4} {'median ms':>10} {'p90 ms':>9} {'max ms':>9} " \
           f"{'nodes/solve':>12} {'nodes/s':>10} {'TT hits':>7} {'peak MB':>8} {'capped':>6}"
    if previous:
        head += f" {'median vs before':>17}"
    lines = [head, "-" * len(head)]
    for r in reports:
        hit = "-" if r.hit_rate is None else f"{100 * r.hit_rate:.0f}%"
        line = (f"{r.name:<26} {r.measure:<7} {r.positions:>4} {r.median_ms:>10.3f} {r.p90_ms:>9.3f} "
                f"{r.max_ms:>9.1f} {r.nodes_per_solve:>12.0f} {r.nodes_per_second:>10.0f} {hit:>7} {r.peak_mb:>8.0f} "
                f"{r.over:>6}")
        if previous:
            before = previous.get(f"{r.name}:{r.measure}")
            line += f" {r.median_ms / before['median_ms']:>16.2f}x" if before else f" {'new':>17}"
            if before and before.get("repeat", 1) != r.repeat:  # least of N against one solve: not alike
                line += f" (repeat {r.repeat} against {before.get('repeat', 1)})"
        lines.append(line)
    return "\n".join(lines)


def reports_json(reports: list[SetReport]) -> dict[str, Any]:
    return {"format": SET_FORMAT, "reports": [{k: v for k, v in asdict(r).items() if k not in ("times_ms", "nodes")}
                                              for r in reports]}


def previous_from_json(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {f"{r['name']}:{r['measure']}": r for r in data.get("reports", [])}


def scaling(game: str, options: dict[str, Any], per_size: int, seed: int, measure: str = "tricks",
            engine: Engine = "auto", smallest: int = 4,
            on_solve: Callable[[], None] | None = None, cap: float | None = None,
            repeat: int = 1) -> list[SetReport]:
    """How time and nodes grow with the cards left: one report per hand size, ``smallest`` up to a full hand."""
    hand = make_game(game, **({"contract": "none"} if game == "moon" and "contract" not in options else {}),
                     **options).hand_size
    reports = []
    for left in range(smallest, hand + 1):
        spec = SetSpec(f"{game}/{left} cards", game, options, hand - left, per_size, seed + left)
        reports.append(run_set(spec.name, make_positions(spec), measure, engine, on_solve, cap,
                               "max" if game == "bridge" else None, repeat))
    return reports


# --- DDS, side by side -----------------------------------------------------------------

@dataclass
class DDSComparison:
    deals: int
    agree: int
    openhand_ms: list[float]
    dds_ms: list[float]
    openhand_nodes: list[int]
    #: nodes at the start of a trick, each side's (what DDS reports), where both were counted
    openhand_trick_nodes: list[int] = field(default_factory=list)
    dds_trick_nodes: list[int] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        """openhand's total time over DDS's: below 1.0 means openhand is faster."""
        return sum(self.openhand_ms) / sum(self.dds_ms)

    def summary(self) -> str:
        med_o, med_d = statistics.median(self.openhand_ms), statistics.median(self.dds_ms)
        text = (f"{self.deals} deals, {self.agree} agree with DDS; openhand median {med_o:.2f} ms "
                f"(p90 {percentile(self.openhand_ms, 0.9):.2f}), DDS median {med_d:.2f} ms "
                f"(p90 {percentile(self.dds_ms, 0.9):.2f}); time ratio openhand/DDS: total {self.ratio:.2f}, "
                f"median of per-deal ratios {statistics.median(o / d for o, d in zip(self.openhand_ms, self.dds_ms)):.2f}")
        if self.openhand_nodes:
            text += f"; openhand nodes/deal median {statistics.median(self.openhand_nodes):.0f}"
        if self.dds_trick_nodes:
            ours, theirs = self.openhand_trick_nodes, self.dds_trick_nodes
            text += (f"; nodes at a trick's start (what DDS counts): openhand median {statistics.median(ours):.0f}, "
                     f"DDS {statistics.median(theirs):.0f}, ratio total {sum(ours) / max(1, sum(theirs)):.2f}, "
                     f"median of per-deal ratios {statistics.median(o / max(1, d) for o, d in zip(ours, theirs)):.2f}")
        return text


def side_by_side(positions: Iterable[Position], engine: Engine, dds_input: Callable[[Position], Any],
                 dds_work: Callable[[Any], tuple[Any, int | None]], our_work: Callable[[Position], Any],
                 our_answer: Callable[[Position, Any], tuple[Any, dict[str, Any] | None]],
                 on_solve: Callable[[], None] | None = None) -> DDSComparison:
    """Time ``dds_work(dds_input(pos))`` (DDS's answer, and its nodes or None) against
    ``our_work(pos)`` (fresh table), and count the positions where ``our_answer`` (the answer
    in DDS's terms, and the solve's stats or None) equals DDS's. Only the two work calls are
    timed."""
    report = DDSComparison(0, 0, [], [], [])
    for pos in positions:
        given = dds_input(pos)
        start = time.perf_counter()
        theirs, their_nodes = dds_work(given)
        report.dds_ms.append((time.perf_counter() - start) * 1000)
        fresh_table(engine)
        start = time.perf_counter()
        raw = our_work(pos)
        report.openhand_ms.append((time.perf_counter() - start) * 1000)
        ours, stats = our_answer(pos, raw)
        if stats is not None:
            report.openhand_nodes.append(int(stats.get("nodes", 0)))
            if their_nodes is not None and "trick_nodes" in stats:  # (the reference does not count them)
                report.openhand_trick_nodes.append(int(stats["trick_nodes"]))
                report.dds_trick_nodes.append(their_nodes)
        report.deals += 1
        report.agree += ours == theirs
        if on_solve:
            on_solve()
    return report


def compare_leads_with_dds(positions: Iterable[Position], engine: Engine = "auto",
                           on_solve: Callable[[], None] | None = None) -> DDSComparison:
    """The same work both ways: the value of every legal card of the seat to move (DDS solutions=3)."""
    from . import dds

    def objective(pos: Position) -> Objective:
        return Objective.make(pos.game, pos.to_move, "tricks", "max")

    def answer(pos: Position, result: Any) -> tuple[dict[int, int], dict[str, Any]]:
        before = sum(pos.game.tricks(pos.taken[s]) for s in objective(pos).side(pos.game))
        return {c: v - before for c, v in result.moves}, result.stats

    return side_by_side(positions, engine, dds.to_deal, dds.move_tricks_and_nodes,
                        lambda pos: solve(pos, objective(pos), engine=engine, pv=False), answer, on_solve)


def compare_tables_with_dds(positions: Iterable[Position], engine: Engine = "auto",
                            on_solve: Callable[[], None] | None = None) -> DDSComparison:
    """The full 20-result table both ways (DDS's CalcDDtable), one process and one thread each.

    The positions must be full deals before the opening lead.
    """
    from . import dds
    from .table import table

    return side_by_side(positions, engine, lambda pos: pos, lambda pos: (dds.dd_table(pos), None),
                        lambda pos: table(pos, engine=engine),
                        lambda pos, ours: ({c: ours[c] for c in ours.contracts}, None), on_solve)
