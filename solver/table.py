"""Double-dummy tables: one deal's value for every contract and every hero seat.

``tables(position)`` returns the game's tables (FORMAT.md "Table result"),
one per measure and goal:

* Minimo: trumps S H D C NT x seats, least tricks and least penalty points;
* Minimisere: least tricks (with the declarations each seat can make) and least
  penalty under standard and hard scoring;
* Mittlere Jass: most and least card points;
* Moon: contracts 0..6, doubles, none x seats, most tricks; with 3 players also
  every discard of the bidder's 8 tiles and the best bid they support;
* bridge: the 20-result table (strains x declarers, the declarer's left-hand
  opponent leads, tricks for the declarer's side), as DDS computes it.

A ``Table`` indexes like endplay's ``DDTable``: ``table["NT", 0]`` or
``table["NT"][0]`` (bridge seats may be given as ``"N"``), prints as a grid,
and writes FORMAT.md JSON with ``to_json()``.
"""

from __future__ import annotations

from contextlib import nullcontext
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from . import cards as C
from .games import Game, make_game
from .games.bridge import SEAT_NAMES
from .games.moon import CONTRACTS as MOON_CONTRACTS
from .objective import Objective
from .position import Position
from .progress import Progress
from .search import Engine, engine_name

TRUMPS = ("S", "H", "D", "C", "NT")
#: Minimisere declarations: the most tricks declared, and the score for keeping to it.
DECLARATIONS = {0: -20, 1: -10, 2: -5, 3: -3}


# --- the table type --------------------------------------------------------------

@dataclass
class Table:
    """Values by contract and seat: ``values[contract][seat]`` for one measure and goal."""

    game: str
    measure: str
    goal: str
    contracts: list[str]
    values: dict[str, list[int | None]]
    extra: dict[str, Any] = field(default_factory=dict)  # game additions (FORMAT.md allows them)
    title: str = ""

    @property
    def n_seats(self) -> int:
        return len(next(iter(self.values.values())))

    def seat_names(self) -> list[str]:
        return list(SEAT_NAMES) if self.game == "bridge" else [str(s) for s in range(self.n_seats)]

    def _seat(self, seat: int | str) -> int:
        if isinstance(seat, str):
            names = [n.upper() for n in self.seat_names()]
            if seat.upper() not in names:
                raise KeyError(seat)
            return names.index(seat.upper())
        return seat

    def __getitem__(self, key: str | tuple[str, int | str]) -> Any:
        if isinstance(key, tuple):
            contract, seat = key
            return self.values[self._contract(contract)][self._seat(seat)]
        return self.values[self._contract(key)]

    def _contract(self, contract: Any) -> str:
        text = str(contract)
        for c in self.contracts:
            if c.upper() == text.upper():
                return c
        raise KeyError(contract)

    def to_list(self) -> list[list[int | None]]:
        """Rows by contract (in ``contracts`` order), columns by seat."""
        return [list(self.values[c]) for c in self.contracts]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game, "measure": self.measure, "goal": self.goal,
                               "contracts": list(self.contracts),
                               "values": {c: list(self.values[c]) for c in self.contracts}}
        out.update(self.extra)
        return out

    def __str__(self) -> str:
        """A grid as DDS and endplay print one: contracts across, seats down."""
        head = self.title or f"{self.game}: {self.goal} {self.measure}"
        width = max(3, *(len(c) + 1 for c in self.contracts))
        names = self.seat_names()
        order = [0, 2, 1, 3] if self.game == "bridge" else range(self.n_seats)  # N S E W, as endplay
        cols = ["C", "D", "H", "S", "NT"] if self.game == "bridge" else self.contracts  # as endplay
        lines = [head, "    " + "".join(f"{c:>{width}}" for c in cols)]
        for s in order:
            cells = "".join(f"{'-' if self.values[c][s] is None else self.values[c][s]:>{width}}" for c in cols)
            lines.append(f"{names[s]:>3} {cells}")
        lines += _extra_lines(self)
        return "\n".join(lines)


def _extra_lines(t: Table) -> list[str]:
    lines = []
    if "declarations" in t.extra:
        safe = t.extra["declarations"]
        lines.append("safe declarations: " + "; ".join(
            f"seat {s}: {' '.join(map(str, d)) or 'none'}" for s, d in enumerate(safe)))
    if "discards" in t.extra:
        discards: dict[str, dict[str, int]] = t.extra["discards"]
        width = 4
        lines.append(f"bidder {t.extra['bidder']}'s tricks by discard (rows) and contract (columns):")
        lines.append("     " + "".join(f"{c[:3]:>{width}}" for c in t.contracts))
        for tile, row in discards.items():
            lines.append(f"{tile:>4} " + "".join(f"{row[c]:>{width}}" for c in t.contracts))
        bid = t.extra["best_bid"]
        lines.append("best bid: " + ("pass" if bid is None else
                                     f"{bid['bid']} (discard {bid['discard']}, contract {bid['contract']}, "
                                     f"{bid['tricks']} tricks)"))
    return lines


# --- solving the cells -------------------------------------------------------------

Job = tuple[dict[str, Any], int, str, str]  # (position JSON, hero, measure, goal)


def solve_value(position: Position, objective: Objective, engine: Engine = "auto") -> int:
    """The value of ``position`` alone: the cheapest call that gives it."""
    if engine_name(engine) == "reference":
        from .reference import ReferenceSearch  # value only: no move list, no line
        return ReferenceSearch(position, objective).exact()
    if position.is_over():
        return position.measure(objective)
    from . import engine as fast
    # The core's value search alone: no per-move values and no line, which a table does not need.
    with getattr(fast, "_lock", nullcontext()):  # one search at a time on the engine's shared table
        eng, _, state = fast.prepare(position, objective)
        eng.set_budget(None, None)
        value = eng.value(*state, state[4])
    assert value is not None  # no budget was set
    return value


def _solve_job(job: Job, engine: Engine) -> int:
    pos_json, hero, measure, goal = job
    pos = Position.from_json(pos_json)
    return solve_value(pos, Objective.make(pos.game, hero, measure, goal), engine)


def run_jobs(jobs: Sequence[Job], engine: Engine = "auto", jobs_n: int = 1, progress: bool | None = None,
             label: str = "table") -> list[int]:
    """Solve every job (in a process pool when ``jobs_n > 1``); values in job order."""
    out: list[int] = [0] * len(jobs)
    if jobs_n <= 1 or len(jobs) <= 1:
        for i in Progress.over(range(len(jobs)), label, progress):
            out[i] = _solve_job(jobs[i], engine)
        return out
    with ProcessPoolExecutor(max_workers=jobs_n) as pool, Progress(len(jobs), label, progress) as bar:
        futures = {pool.submit(_solve_job, job, engine): i for i, job in enumerate(jobs)}
        for fut in as_completed(futures):
            out[futures[fut]] = fut.result()
            bar.update()
    return out


# --- per game ---------------------------------------------------------------------

def with_options(position: Position, **options: Any) -> Position:
    """``position`` under the same game with some options changed (a trump, a contract)."""
    g = position.game
    game = make_game(g.name, **{**g.options, **options})
    return Position(game, position.hands, position.leader, position.trick, position.taken)


def _sides(game: Game) -> list[int]:
    """One hero per side: partners share a value, so each side is solved once."""
    return [team[0] for team in game.partners()]


@dataclass
class _Plan:
    """The cells to solve, and how to assemble the tables from their values."""

    jobs: list[Job] = field(default_factory=list)
    build: Callable[[list[int]], list[Table]] | None = None

    def add(self, position: Position, hero: int, measure: str, goal: str) -> int:
        self.jobs.append((position.to_json(), hero, measure, goal))
        return len(self.jobs) - 1


def _grid(plan: _Plan, variants: dict[str, Position], measure: str, goal: str) -> dict[str, list[int]]:
    """Queue one job per contract and side; return contract -> seat -> job index."""
    cells: dict[str, list[int]] = {}
    for contract, pos in variants.items():
        g = pos.game
        row = [0] * g.n_players
        for hero in _sides(g):
            index = plan.add(pos, hero, measure, goal)
            for seat in g.side(hero):
                row[seat] = index
        cells[contract] = row
    return cells


def _fill(cells: dict[str, list[int]], values: list[int]) -> dict[str, list[int | None]]:
    return {c: [values[i] for i in row] for c, row in cells.items()}


def _plan_minimo(pos: Position) -> _Plan:
    plan = _Plan()
    variants = {t: with_options(pos, trump=t) for t in TRUMPS}
    grids = {m: _grid(plan, variants, m, "min") for m in ("tricks", "points")}
    plan.build = lambda v: [
        Table("minimo", m, "min", list(TRUMPS), _fill(grids[m], v),
              title=f"Minimo: least {'tricks' if m == 'tricks' else 'penalty'} each seat can be held to")
        for m in ("tricks", "points")]
    return plan


def _plan_minimisere(pos: Position) -> _Plan:
    plan = _Plan()
    label = pos.game.options["trump"] or "NT"
    tricks = _grid(plan, {label: pos}, "tricks", "min")
    scorings = ("standard", "hard")
    points = _grid(plan, {s: with_options(pos, scoring=s) for s in scorings}, "points", "min")

    def build(v: list[int]) -> list[Table]:
        least = _fill(tricks, v)
        row = least[label]
        safe = [[d for d in DECLARATIONS if t is not None and t <= d] for t in row]
        best = [min(d) if d else None for d in safe]
        return [Table("minimisere", "tricks", "min", [label], least,
                      {"declarations": safe, "declare": best},
                      title="Minimisere: least tricks each seat can be held to"),
                Table("minimisere", "points", "min", list(scorings), _fill(points, v),
                      title="Minimisere: least penalty each seat can be held to (standard, hard)")]
    plan.build = build
    return plan


def _plan_jass(pos: Position) -> _Plan:
    plan = _Plan()
    label = pos.game.format_trump(pos.trump)
    grids = {goal: _grid(plan, {label: pos}, "points", goal) for goal in ("max", "min")}
    plan.build = lambda v: [
        Table("jass", "points", goal, [label], _fill(grids[goal], v),
              title=f"Mittlere Jass: {'most' if goal == 'max' else 'least'} card points each seat can take")
        for goal in ("max", "min")]
    return plan


def _missing(pos: Position) -> int:
    """The pieces of the game in no hand, trick or taken pile (the widow or discard)."""
    seen = C.mask_of(pos.trick)
    for m in (*pos.hands, *pos.taken):
        seen |= m
    return pos.game.deck & ~seen


def _plan_moon(pos: Position) -> _Plan:
    plan = _Plan()
    g = pos.game
    variants = {c: with_options(pos, contract=c) for c in MOON_CONTRACTS}
    grid = _grid(plan, variants, "tricks", "max")
    bidder = g.options["bidder"]
    missing = _missing(pos)
    swap = g.n_players == 3 and C.popcount(missing) == 1 and not pos.trick
    disc_cells: dict[int, dict[str, int]] = {}
    if swap:
        eight = pos.hands[bidder] | missing
        for tile in g.sorted_pieces(eight):
            hands = list(pos.hands)
            hands[bidder] = eight & ~(1 << tile)
            disc_cells[tile] = {}
            for c in MOON_CONTRACTS:
                p = Position(make_game("moon", **{**g.options, "contract": c}), hands, pos.leader, [], pos.taken)
                disc_cells[tile][c] = plan.add(p, bidder, "tricks", "max")

    def build(v: list[int]) -> list[Table]:
        extra: dict[str, Any] = {}
        if swap:
            discards = {g.format_piece(t): {c: v[i] for c, i in row.items()} for t, row in disc_cells.items()}
            extra = {"bidder": bidder, "discard": g.format_piece(next(C.bits(missing))), "discards": discards,
                     "best_bid": _best_bid(discards)}
        return [Table("moon", "tricks", "max", list(MOON_CONTRACTS), _fill(grid, v), extra,
                      title="Moon: most tricks each seat (side) can take, by contract")]
    plan.build = build
    return plan


def _best_bid(discards: dict[str, dict[str, int]]) -> dict[str, Any] | None:
    """The highest bid the bidder makes double-dummy: 21 with all 7 tricks, else 4..7; None: pass."""
    tricks, discard, contract = max((t, d, c) for d, row in discards.items() for c, t in row.items())
    if tricks < 4:
        return None
    return {"bid": 21 if tricks == 7 else tricks, "tricks": tricks, "discard": discard, "contract": contract}


def _plan_bridge(pos: Position) -> _Plan:
    if pos.trick:
        raise ValueError("a bridge table needs a position between tricks (the declarer's left-hand "
                         "opponent leads)")
    plan = _Plan()
    cells: dict[str, list[int]] = {}
    for contract in TRUMPS:
        p = with_options(pos, trump=contract)
        # One search per declarer (its left-hand opponent leads), partners one after the other: the
        # engine keeps its table while the side is the same, as DDS does across declarers.
        row = [0] * 4
        for d in (0, 2, 1, 3):
            row[d] = plan.add(Position(p.game, p.hands, (d + 1) % 4, [], p.taken), d, "tricks", "max")
        cells[contract] = row
    plan.build = lambda v: [Table("bridge", "tricks", "max", list(TRUMPS), _fill(cells, v),
                                  title="Bridge: tricks for the declarer (rows) by strain")]
    return plan


PLANS: dict[str, Callable[[Position], _Plan]] = {
    "minimo": _plan_minimo, "minimisere": _plan_minimisere, "jass": _plan_jass,
    "moon": _plan_moon, "bridge": _plan_bridge}


def tables(position: Position, *, engine: Engine = "auto", jobs: int = 1,
           progress: bool | None = None) -> list[Table]:
    """Every table of ``position``'s game (see the module docstring), solved cell by cell.

    ``jobs > 1`` solves the cells in that many processes. ``progress`` draws a
    bar on standard error (default: when it is a terminal).
    """
    return _tables(position, None, None, engine, jobs, progress)


def table(position: Position, measure: str | None = None, goal: str | None = None, *,
          engine: Engine = "auto", jobs: int = 1, progress: bool | None = None) -> Table:
    """The one table of ``position`` for ``measure`` and ``goal`` (the game's first when not given)."""
    return _tables(position, measure, goal, engine, jobs, progress)[0]


def _tables(position: Position, measure: str | None, goal: str | None, engine: Engine, jobs: int,
            progress: bool | None) -> list[Table]:
    plan = PLANS[position.game.name](position)
    wanted = [i for i, (_, _, m, g) in enumerate(plan.jobs)
              if (measure is None or m == measure) and (goal is None or g == goal)]
    if not wanted:
        raise ValueError(f"no {position.game.name} table for measure {measure!r}, goal {goal!r}")
    if measure is not None or goal is not None:  # the first matching table only
        m0, g0 = plan.jobs[wanted[0]][2], plan.jobs[wanted[0]][3]
        wanted = [i for i in wanted if plan.jobs[i][2:] == (m0, g0)]
    solved = run_jobs([plan.jobs[i] for i in wanted], engine, jobs, progress, f"{position.game.name} table")
    values: list[Any] = [None] * len(plan.jobs)  # cells of tables not asked for stay unsolved
    for i, v in zip(wanted, solved):
        values[i] = v
    assert plan.build is not None
    return [t for t in plan.build(values)
            if all(v is not None for row in t.values.values() for v in row)]
