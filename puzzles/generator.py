"""The puzzle generator: seeded sources of positions, the analysis, and the quality filters.

Candidates come from two sources: random deals cut at a random trick
(``solver.deal.cut``, sometimes mid-trick) and seeded deals played out by
simple players (each seat follows one of the simple policies) to the same
point, which gives more natural positions. Every candidate goes through the
filters in order; each filter's entries and passes are counted, so the
acceptance rate of each is known.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from solver import Position, make_game, solve
from solver.deal import Rng, cut, deal
from solver.search import engine_name

from .equivalence import canonical_key
from .policies import AVOID, TAKE
from .puzzle import Collection, Puzzle
from .quality import difficulty, key_check, policy_failures, tags_for
from .task import Task, default_objective
from .tree import TreeRejected, build_tree, max_decisions, principal_line

#: The filters, in the order a candidate meets them.
FILTERS = ("key", "tree", "decisions", "not obvious", "duplicate")

#: The variant options each game draws from when ``vary`` is on (the first value is the default).
VARIANTS: dict[str, dict[str, list[Any]]] = {
    "minimo": {"trump": ["NT", "S", "H", "D", "C"], "double_penalty": [False, True], "open": [False, True]},
    "minimisere": {"scoring": ["standard", "hard"], "trump": [None, "S", "H", "D", "C"],
                   "partners": [False, True], "queen_of_spades": [10, 12]},
    "jass": {"no_trump_eights": [8, 0]},
    "moon": {"players": [3, 4], "contract": [None, "0", "1", "2", "3", "4", "5", "6", "doubles", "none"],
             "bidder": [0, 1, 2]},
    "bridge": {"trump": ["NT", "S", "H", "D", "C"]},
}

#: Candidates drawn in a row from one variant.
VARIANT_RUN = 8

#: Games whose points measure makes a puzzle of its own (Moon and bridge count tricks only).
POINTS_GAMES = ("minimo", "minimisere", "jass")


class SettingsError(ValueError):
    """Generator settings that make no sense (unknown game, bad range)."""


@dataclass
class Settings:
    game: str
    options: dict[str, Any] = field(default_factory=dict)  # fixed options; the rest vary if ``vary``
    vary: bool = True
    cards: tuple[int, int] = (3, 4)             # pieces per hand at the cut, inclusive
    sources: tuple[str, ...] = ("cut", "playout")
    measure: str = "tricks"                     # tricks | points | mixed
    margin: int = 1                             # how much worse every non-key move must be
    pool: str = "main"                          # main: 2..6 decisions; easy: exactly 1
    max_decisions: int = 6
    policies_must_fail: str = "all"             # all | any | none
    max_tree_nodes: int = 400
    engine: str = "auto"
    single_dummy: bool = False                  # Open Minimo puzzles seen from the player's seat
    threshold: float = 0.95                     # single-dummy: the key's least share of layouts
    max_layouts: int = 5000                     # single-dummy: views with more are skipped

    def check(self) -> None:
        if self.game not in VARIANTS:
            raise SettingsError(f"unknown game {self.game!r} (games: {', '.join(VARIANTS)})")
        lo, hi = self.cards
        if not 1 <= lo <= hi <= 13:
            raise SettingsError(f"cards per hand must be a range within 1..13, got {lo}..{hi}")
        bad = set(self.sources) - {"cut", "playout"}
        if bad or not self.sources:
            raise SettingsError(f"sources must be among cut, playout; got {', '.join(self.sources)}")
        if self.measure not in ("tricks", "points", "mixed"):
            raise SettingsError(f"measure must be tricks, points or mixed, got {self.measure!r}")
        if self.measure != "tricks" and self.game not in POINTS_GAMES:
            raise SettingsError(f"{self.game} puzzles count tricks only")
        if self.pool not in ("main", "easy"):
            raise SettingsError(f"pool must be main or easy, got {self.pool!r}")
        if self.policies_must_fail not in ("all", "any", "none"):
            raise SettingsError(f"policies_must_fail must be all, any or none, got {self.policies_must_fail!r}")
        if self.margin < 1:
            raise SettingsError("margin must be at least 1")
        if self.single_dummy:
            if self.game != "minimo" or self.options.get("open", True) is not True:
                raise SettingsError("single-dummy puzzles are made for Open Minimo only (game minimo, open)")
            if not 0.5 < self.threshold <= 1:
                raise SettingsError(f"threshold must be in (0.5, 1], got {self.threshold}")
        opts = {**_required_defaults(self.game), **self.options}
        if isinstance(opts.get("open"), bool):
            del opts["open"]  # Minimo's open=true means "deal face-up cards", which deal() does
        make_game(self.game, **opts)  # the options are checked here

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["cards"] = list(self.cards)
        out["sources"] = list(self.sources)
        return out


def _required_defaults(game: str) -> dict[str, Any]:
    return {"moon": {"contract": "none"}, "bridge": {"trump": "NT"}}.get(game, {})


@dataclass
class Stats:
    """Counts per filter, and the time spent."""

    candidates: int = 0
    entered: dict[str, int] = field(default_factory=lambda: {f: 0 for f in FILTERS})
    passed: dict[str, int] = field(default_factory=lambda: {f: 0 for f in FILTERS})
    filters: tuple[str, ...] = FILTERS
    reasons: dict[str, int] = field(default_factory=dict)
    policy_failures: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    @classmethod
    def over(cls, filters: tuple[str, ...]) -> Stats:
        return cls(entered={f: 0 for f in filters}, passed={f: 0 for f in filters}, filters=filters)

    def rates(self) -> dict[str, float | None]:
        return {f: (round(self.passed[f] / self.entered[f], 4) if self.entered[f] else None) for f in self.filters}

    def to_json(self) -> dict[str, Any]:
        accepted = self.passed[self.filters[-1]]
        return {"candidates": self.candidates, "accepted": accepted, "entered": dict(self.entered),
                "passed": dict(self.passed), "acceptance": self.rates(), "reasons": dict(sorted(self.reasons.items())),
                "policy_failures": dict(sorted(self.policy_failures.items())), "seconds": round(self.seconds, 2),
                "per_minute": round(60 * accepted / self.seconds, 2) if self.seconds else None}


# --- sources ---------------------------------------------------------------------

def _variant(settings: Settings, rng: Rng) -> dict[str, Any]:
    opts = dict(settings.options)
    if settings.vary:
        for name, values in VARIANTS[settings.game].items():
            if name not in opts:
                opts[name] = rng.choice(values)
    if settings.game == "moon":
        players = opts.get("players", 3)
        if opts.get("bidder", 0) >= players:
            opts["bidder"] = 0
    if settings.game == "minimo":
        opts["open"] = opts.get("open") is True or settings.single_dummy  # deal() draws the face-up cards
    if settings.game == "bridge":
        opts.setdefault("trump", "NT")
    return opts


def play_out(position: Position, cards_left: int, extra: int, players: list[str]) -> Position:
    """``position`` played on by simple players (``players[seat]`` names a policy) to ``cards_left``
    pieces a hand, then ``extra`` more moves."""
    pos = position.copy()
    everyone = {**AVOID, **TAKE}

    def step() -> None:
        pos.push(everyone[players[pos.to_move]](pos))

    while max(h.bit_count() for h in pos.hands) > cards_left or pos.trick:
        step()
    for _ in range(extra):
        if not pos.is_over():
            step()
    return pos


def candidate(settings: Settings, rng: Rng, opts: dict[str, Any] | None = None) -> tuple[Position, Task, dict[str, Any]]:
    """One seeded candidate position (of variant ``opts``, else a fresh draw), its task and its source."""
    opts = dict(opts) if opts is not None else _variant(settings, rng)
    deal_seed = rng.next64()
    base = deal(settings.game, deal_seed, **opts)
    lo, hi = settings.cards
    left = lo + rng.below(hi - lo + 1)
    extra = rng.below(base.n_players)
    kind = rng.choice(list(settings.sources))
    source: dict[str, Any] = {"kind": kind, "deal_seed": deal_seed, "deal_options": opts, "cards": left,
                              "extra": extra}
    if kind == "cut":
        source["cut_seed"] = rng.next64()
        pos = cut(base, left, extra, source["cut_seed"])
    else:
        names = sorted({**AVOID, **TAKE})
        source["players"] = [rng.choice(names) for _ in range(base.n_players)]
        pos = play_out(base, left, extra, source["players"])
    measure = settings.measure
    if measure == "mixed":
        measure = rng.choice(["tricks", "points"])
    objective = default_objective(pos.game, pos.to_move, measure)
    pos.objective = objective
    return pos, Task(pos.to_move, objective), source


# --- analysis -----------------------------------------------------------------------

class Rejected(Exception):
    def __init__(self, filter_name: str, reason: str) -> None:
        super().__init__(f"{filter_name}: {reason}")
        self.filter = filter_name
        self.reason = reason


def analyse(pos: Position, task: Task, settings: Settings, stats: Stats | None = None,
            seen: set[str] | None = None, source: dict[str, Any] | None = None) -> Puzzle:
    """Solve ``pos`` for ``task`` and build its puzzle; raise ``Rejected`` at the first filter it fails."""
    stats = stats or Stats()
    game = pos.game

    def enter(name: str) -> None:
        stats.entered[name] += 1

    def reject(name: str, reason: str) -> Rejected:
        stats.reasons[f"{name}: {reason}"] = stats.reasons.get(f"{name}: {reason}", 0) + 1
        return Rejected(name, reason)

    enter("key")
    result = solve(pos, task.objective, engine=settings.engine)  # type: ignore[arg-type]
    margin = settings.margin if task.objective.measure == "points" else 1
    why = key_check(pos, result, task, margin)
    if why:
        raise reject("key", why)
    stats.passed["key"] += 1

    enter("tree")
    try:
        tree = build_tree(pos, task, engine=settings.engine, max_nodes=settings.max_tree_nodes,
                          require_unique=True, root_result=result)
    except TreeRejected as e:
        raise reject("tree", e.reason) from None
    stats.passed["tree"] += 1

    enter("decisions")
    decisions = max_decisions(tree)
    lo, hi = (1, 1) if settings.pool == "easy" else (2, settings.max_decisions)
    if not lo <= decisions <= hi:
        raise reject("decisions", f"{decisions} decision(s)")
    stats.passed["decisions"] += 1

    enter("not obvious")
    policies = policy_failures(tree, task)
    for name, failure in policies.items():
        if failure is not None:
            stats.policy_failures[name] = stats.policy_failures.get(name, 0) + 1
    failing = sum(1 for v in policies.values() if v is not None)
    need = {"all": len(policies), "any": 1, "none": 0}[settings.policies_must_fail]
    if failing < need:
        works = [k for k, v in policies.items() if v is None]
        raise reject("not obvious", f"{'/'.join(works)} works")
    stats.passed["not obvious"] += 1

    enter("duplicate")
    key = canonical_key(pos)
    if seen is not None:
        if key in seen:
            raise reject("duplicate", "seen")
        seen.add(key)
    stats.passed["duplicate"] += 1

    values = dict(result.moves)
    root = tree.nodes[tree.graph["root"]]
    first = [e for _, _, e in tree.out_edges(tree.graph["root"], data=True)]
    score, level = difficulty(tree, policies, decisions)
    fmt = game.format_piece
    return Puzzle(
        id=hashlib.sha1(key.encode()).hexdigest()[:10],
        position=pos.to_json(),
        player=task.player,
        value=int(root["value"]),
        key=list(first[0]["equivalent"]),
        moves=[[fmt(m), values[m]] for m in pos.legal_moves()],
        tree=tree,
        line=principal_line(tree),
        decisions=decisions,
        difficulty=score,
        level=level,
        tags=tags_for(tree, task, engine=settings.engine),
        policies=policies,
        pool=settings.pool,
        source=source or {},
    )


def generate(settings: Settings, count: int, seed: int, *, max_candidates: int | None = None,
             progress: Callable[[int, int, int], None] | None = None) -> Collection:
    """``count`` puzzles from ``seed`` (fewer if ``max_candidates`` runs out first).

    ``progress(accepted, count, candidates)`` is called after every candidate.
    """
    settings.check()
    from . import single_dummy as sd  # imports this module: not at the top
    rng = Rng(seed)
    stats = Stats.over(sd.FILTERS) if settings.single_dummy else Stats()
    seen: set[str] = set()
    puzzles: list[Puzzle] = []
    start = time.perf_counter()
    opts: dict[str, Any] = {}
    while len(puzzles) < count and (max_candidates is None or stats.candidates < max_candidates):
        if stats.candidates % VARIANT_RUN == 0:
            # A variant is kept for a run of candidates: the fast engine compiles tables per variant.
            opts = _variant(settings, rng)
        pos, task, source = candidate(settings, rng, opts)
        stats.candidates += 1
        source["candidate"] = stats.candidates
        try:
            if settings.single_dummy:
                puzzles.append(sd.make_puzzle(pos, task, threshold=settings.threshold, max_layouts=settings.max_layouts,
                                              engine=settings.engine, seen=seen, source=source, stats=stats))
            else:
                puzzles.append(analyse(pos, task, settings, stats, seen, source))
        except Rejected:
            pass
        if progress:
            progress(len(puzzles), count, stats.candidates)
    stats.seconds = time.perf_counter() - start
    # Which solver actually ran, so rates in different files can be compared.
    return Collection(puzzles, seed, settings.to_json(), {**stats.to_json(), "engine": engine_name(settings.engine)})  # type: ignore[arg-type]
