"""The fast engine's Python side: Position + Objective -> C state -> ``SolveResult``.

The search itself is ``solver._engine`` (Cython, ``cext/_engine.pyx``); this
module compiles the game to tables (``solver.tables``), computes the running
total and score key of what has already been taken, asks the core for the
value of every legal move, and walks one principal variation.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from . import cards as C
from ._engine import Engine
from .objective import Objective
from .position import Position
from .result import SolveResult
from .tables import KIND_MINIMO, Tables, compile_tables, trump_state

#: log2 of the transposition table's bucket count (4 entries of 56 bytes a bucket, and a 4-byte
#: tag for each entry): 60 MiB, the fixed memory budget.
TT_BITS = 18
#: Small games use only the start of the table, which then stays in cache (measured: Moon
#: full deals 1.5-2x faster at 2**13 buckets than at 2**18, with the same node counts; at
#: 2**11 (4p: 2**12 against 2**14), timing each deal's first solve as a user meets it, Moon 3p
#: 200 deals had the lower median in 9 of 10 runs taking turns, on average 0.26 against 0.30
#: ms, and Moon 4p 60 deals 8% lower in 3 of 3, with 0.05% and 1.7% more nodes; in two
#: quieter runs of benchmarks.fulldeals the medians were alike, 0.16 ms, the p90 lower. Minimo
#: at 2**14 against 2**16, 60 full deals: nodes +0.04% tricks and +0.5% points, mean time 4%
#: and 3% less, while 2**13 costs 0.4% and 3.5% more nodes).
GAME_TT_BITS = {"moon": 11, "minimo": 14}

_engine: Engine | None = None
#: One search at a time on the shared table: the core releases the GIL while it searches,
#: so other Python threads run meanwhile, but two searches must not share the table at once.
_lock = threading.RLock()


def get_engine() -> Engine:
    """The shared engine (one transposition table, reused across solves)."""
    global _engine
    if _engine is None:
        _engine = Engine(TT_BITS)
    return _engine


#: (game, hero, measure, goal) -> (the engine's tables key, tables, table bits) for the games
#: solved lately: a solve of a game seen before (an equal one: each dealt or parsed position
#: brings its own) skips working out the side and looking up its tables, and hands the engine
#: the key it holds, which it then recognises by identity
_prepared: dict[tuple, tuple] = {}


def tables_for(position: Position, objective: Objective) -> tuple[tuple, Tables, int]:
    """The engine's tables for ``position``'s game and ``objective``: (the key an engine
    knows them by, the tables, the table size in bits that suits the game)."""
    game = position.game
    pkey = (game, objective.hero, objective.measure, objective.goal)
    got = _prepared.get(pkey)
    if got is None:
        what = (game.side(objective.hero), objective.measure, objective.goal)
        bits = GAME_TT_BITS.get(game.name, TT_BITS) + (1 if game.n_players == 4 and game.name == "moon" else 0)
        if len(_prepared) >= 64:
            _prepared.clear()
        got = _prepared[pkey] = ((game, *what), compile_tables(game, *what), bits)
    return got


def prepare(position: Position, objective: Objective, table_bits: int | None = None) -> tuple[Engine, Tables, tuple]:
    """Load the tables for ``position``'s game and ``objective``; the C state of the position.

    Small games use a cache-sized part of the transposition table, right for
    one solve; ``table_bits`` asks for another size (a sweep over many
    neighbouring positions gains from the whole table).
    """
    eng = get_engine()
    key, tb, bits = tables_for(position, objective)
    eng.load(key, lambda: tb)
    eng.use_table_bits(bits if table_bits is None else table_bits)  # forgets the table only when the size changes
    return eng, tb, state_of(position, tb)


def search_lock() -> threading.RLock:
    """The lock that keeps one search at a time on the engine's shared table."""
    return _lock


def state_of(position: Position, tb: Tables) -> tuple:
    """(hands, trick, leader, trump state, running total, score key) of ``position``."""
    ts = 0 if position.game.name == "moon" else trump_state(position.trump)
    acc = skey = 0
    n = position.n_players
    for s in range(n) if any(position.taken) else ():  # (nothing taken at a deal's start)
        taken = position.taken[s]
        if tb.kind == KIND_MINIMO and taken:
            skey |= 1 << s
        if not tb.side_mask >> s & 1:
            continue
        acc += C.popcount(taken) // n * tb.trick_value
        for c in C.bits(taken):
            acc += tb.points[ts][c]
            skey |= tb.sum_bit[ts][c]
    return (list(position.hands), list(position.trick), position.leader, ts, acc, skey)


def solve(position: Position, objective: Objective | None = None, *, max_nodes: int | None = None,
          max_seconds: float | None = None, pv: bool = True,
          progress: Callable[[int, int], None] | None = None) -> SolveResult:
    """Solve ``position`` like ``solver.reference.solve``, with the compiled core.

    With a budget (``max_nodes`` search nodes, ``max_seconds``) the result may
    come back with ``complete=False``: ``value`` is then ``None`` unless every
    move was valued (only the pv was cut short), and moves not yet valued have
    ``None``. ``pv=False`` skips the principal variation (for timing the search).
    ``progress(done, total)`` is called first with 0 and after each distinct
    move is valued (interchangeable moves count once), for a progress bar.
    """
    with _lock:
        return _solve(position, objective, max_nodes, max_seconds, pv, progress)


def _solve(position: Position, objective: Objective | None, max_nodes: int | None, max_seconds: float | None,
           pv: bool, progress: Callable[[int, int], None] | None = None) -> SolveResult:
    start = time.perf_counter()
    obj = objective or position.objective
    game = position.game
    if position.is_over():
        return SolveResult(game, position.measure(obj), obj, position.to_move, [], [], [],
                           {"nodes": 0, "trick_nodes": 0, "tt_hits": 0, "tt_probes": 0, "seconds": 0.0,
                            "engine": "fast"})
    eng, tb, state = prepare(position, obj)
    eng.set_budget(max_nodes, max_seconds)
    moves = eng.root(*state, progress)  # highest piece first: the order of tiles
    if game.pieces != "tiles":
        moves.sort(key=lambda move: game.sort_key(move[0]))
    values = [v for _, v in moves]
    complete = None not in values
    value = None
    best: list[int] = []
    line: list[int] = []
    if complete:
        value = (max if tb.max_mask >> position.to_move & 1 else min)(values)  # type: ignore[type-var]
        best = [m for m, v in moves if v == value]
        if pv:
            walked = principal_variation(eng, state, value)
            complete = walked is not None  # the budget ran out on the way: value and moves stand
            line = walked or []
    stats = {"nodes": eng.nodes, "trick_nodes": eng.trick_nodes, "tt_hits": eng.tt_hits, "tt_probes": eng.tt_probes,
             "searches": eng.searches, "seconds": round(time.perf_counter() - start, 6), "engine": "fast"}
    return SolveResult(game, value, obj, position.to_move, moves, best, line, stats, complete)


def principal_variation(eng: Engine, state: tuple, value: int) -> list[int] | None:
    """One optimal line to the end of the hand: at each step a move that keeps ``value``."""
    line = []
    while any(state[0]) or state[1]:
        hands, trick, leader, ts, acc, skey = state
        for m in C.bits(eng.representatives(hands, trick, leader, ts)):
            child = eng.child(*state, m)
            w = eng.window(*child, value - 1, value + 1)
            if w is None:
                return None
            if w == value:
                line.append(m)
                state = child
                break
        else:  # pragma: no cover - a value always has a move that keeps it
            raise AssertionError("no move keeps the value")
    return line
