"""Single-dummy analysis: one seat's view, every hidden layout consistent with it, solved.

A **view** is what one seat knows: its own hand, the others' known cards (Open
Minimo's face-up cards), how many hidden cards each other seat holds, how many
pieces are out of play unseen (Minimo's widow), and everything played. Its
JSON (the FORMAT.md position fields, with hands partly known)::

    {
      "game": "minimo",
      "options": {"trump": "S", "open": [[...], [...], [...]]},
      "seat": 0,                          # the viewer
      "hands": [["SA", ...], ["HK", ...], ["D9", ...]],  # the known cards still in each hand
      "hidden": [0, 5, 5],                # unknown cards in each hand [hand size - known]
      "out": 2,                           # unseen pieces out of play [the game's dealt_out - out_known]
      "out_known": [],                    # out-of-play pieces the viewer knows (Moon bidder's discard) []
      "exclude": [[], ["H7"], []],        # pieces a seat is known not to hold (e.g. shown by a revoke) []
      "voids": [[], ["S"], []],           # card games: suits a seat is known to lack []
      "leader": 0, "trick": [], "taken": [[], [], []],
      "objective": {"hero": 0, "measure": "points", "goal": "min"}   # hero defaults to the viewer
    }

``hidden`` may be left out when every hand has the same size (the trick
under way accounted for). A seat that played off suit in the current trick is
known void in the led suit without being told. Every **layout** (an
assignment of the unknown pieces to the hidden places and the out-of-play
pile) is equally likely; ``layouts(view)`` enumerates them, ``count`` counts
them exactly (a fresh Open Minimo deal: 12!/(5! 5! 2!) = 16,632), and
``sample`` draws them uniformly with a seed. ``analyse(view)`` solves every
layout (or a sample when there are too many) and reports, for every legal
move of the seat to move, the mean, worst and best value and the distribution.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from math import factorial
from typing import Any

from . import cards as C
from .deal import Rng
from .errors import DuplicateCardError, FormatError, HandSizeError, PositionError
from .games import Game, game_class
from .games.base import options_from_json
from .objective import Objective
from .position import Position, json_object
from .progress import Progress
from .search import Engine, engine_name, solve

#: Enumerate every layout up to this many; sample beyond it.
MAX_EXACT = 200_000


# --- the view ---------------------------------------------------------------------

@dataclass
class View:
    """One seat's knowledge of a position (see the module docstring)."""

    game: Game
    seat: int
    known: list[int]            # per seat, the known pieces still in its hand
    hidden: list[int]           # per seat, the number of unknown pieces in its hand
    out: int = 0                # unseen pieces out of play
    out_known: int = 0          # mask of out-of-play pieces the viewer knows
    exclude: list[int] = field(default_factory=list)  # per seat, pieces it cannot hold
    leader: int = 0
    trick: list[int] = field(default_factory=list)
    taken: list[int] = field(default_factory=list)
    objective: Objective | None = None

    def __post_init__(self) -> None:
        n = self.game.n_players
        self.exclude = list(self.exclude) or [0] * n
        self.taken = list(self.taken) or [0] * n
        if not 0 <= self.seat < n:
            raise FormatError(f"view: seat must be 0..{n - 1}, got {self.seat!r}")
        if not len(self.known) == len(self.hidden) == len(self.exclude) == len(self.taken) == n:
            raise FormatError(f"view: {self.game.name} has {n} seats; hands, hidden, exclude and taken need one "
                              f"entry each")
        seen = 0
        for where, m in [("the current trick", C.mask_of(self.trick)), ("out_known", self.out_known),
                         *((f"hand of seat {s}", k) for s, k in enumerate(self.known)),
                         *((f"'taken' of seat {s}", t) for s, t in enumerate(self.taken))]:
            if seen & m:
                raise DuplicateCardError(f"view: {self.game.format_piece(next(C.bits(seen & m)))} appears twice "
                                         f"(again in {where})")
            seen |= m
        if self.hidden[self.seat]:
            raise FormatError(f"view: the viewer (seat {self.seat}) knows its own hand; hidden must be 0")
        if any(h < 0 for h in self.hidden) or self.out < 0:
            raise FormatError("view: hidden and out counts must be 0 or more")
        pool = C.popcount(self.pool())
        if pool != sum(self.hidden) + self.out:
            raise HandSizeError(f"view: {pool} {self.game._piece_word()}s are unseen but the hidden places "
                                f"hold {sum(self.hidden)} and out of play {self.out}")
        self.exclude = [x | self._trick_voids(s) for s, x in enumerate(self.exclude)]
        if self.objective is None:
            self.objective = Objective.make(self.game, self.seat)

    def seen(self) -> int:
        m = self.out_known | C.mask_of(self.trick)
        for x in (*self.known, *self.taken):
            m |= x
        return m

    def pool(self) -> int:
        """The unseen pieces: in hidden places or out of play."""
        return self.game.deck & ~self.seen()

    def _trick_voids(self, seat: int) -> int:
        """Pieces ``seat`` cannot hold given what it played to the current trick.

        A piece is excluded when holding it would have made that play illegal.
        For must-follow rules this is exact; every layout is also checked whole
        when its position is built.
        """
        n, g = self.game.n_players, self.game
        for i, piece in enumerate(self.trick):
            if (self.leader + i) % n != seat or i == 0:
                continue
            before = self.trick[:i]
            trump = g.initial_trump()
            for j, p in enumerate(before):  # Jass: a card of this trick may have fixed the trump
                trump = g.next_trump(trump, before[:j], p)
            base = self.known[seat] | 1 << piece
            return C.mask_of(x for x in C.bits(self.pool())
                             if not g.legal(base | 1 << x, before, trump) >> piece & 1)
        return 0

    def position(self, layout: Sequence[int]) -> Position:
        """The full position of one layout (``layout[s]``: the hidden pieces of seat ``s``)."""
        hands = [k | h for k, h in zip(self.known, layout)]
        return Position(self.game, hands, self.leader, self.trick, self.taken, objective=self.objective)

    # --- JSON ---------------------------------------------------------------------

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str) -> View:
        """Read a view (see the module docstring)."""
        data = json_object(data, "a view")
        if "game" not in data or "hands" not in data or "seat" not in data:
            raise FormatError("a view needs 'game', 'seat' and 'hands'")
        cls_ = game_class(data["game"])
        options = options_from_json(data.get("options"), cls_.name)
        hands_json = data["hands"]
        if not isinstance(hands_json, list):
            raise FormatError("view: 'hands' must list the known pieces of each seat")
        if cls_.name == "moon" and "players" not in options:
            options["players"] = len(hands_json)
        g = cls_(**options)
        n = g.n_players
        if len(hands_json) != n:
            raise FormatError(f"view: {g.name} has {n} seats, got {len(hands_json)} hands")

        def masks(key: str) -> list[int]:
            raw = data.get(key) or [[] for _ in range(n)]
            if not isinstance(raw, list) or len(raw) != n:
                raise FormatError(f"view: {key!r} must have one list per seat")
            return [C.mask_of(g.parse_hand(h or [], f"view {key!r}, seat {s}: ")) for s, h in enumerate(raw)]

        known = masks("hands")
        taken = masks("taken")
        exclude = masks("exclude")
        for s, suits in enumerate(data.get("voids") or [[] for _ in range(n)]):
            for letter in suits:
                if g.pieces != "cards" or str(letter).upper() not in C.SUITS:
                    raise FormatError(f"view: voids of seat {s}: {letter!r} is not a suit (S H D C)")
                exclude[s] |= C.suit_bits(C.SUITS.index(str(letter).upper()))
        trick = g.parse_hand(data.get("trick") or [], "view current trick: ")
        leader = data.get("leader", 0)
        seat = data["seat"]
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise FormatError(f"view: seat must be 0..{n - 1}, got {seat!r}")
        out_known = C.mask_of(g.parse_hand(data.get("out_known") or [], "view 'out_known': "))
        hidden = data.get("hidden")
        if hidden is None:
            hidden = _default_hidden(g, known, leader, len(trick), seat)
        out = data.get("out")
        if out is None:
            out = g.dealt_out - C.popcount(out_known)
        view = cls(g, seat, known, list(hidden), out, out_known, exclude, leader, list(trick), taken)
        to_move = (leader + len(trick)) % n
        view.objective = Objective.from_json({"hero": seat, **(data.get("objective") or {})}, g, to_move)
        return view

    @classmethod
    def from_position(cls, position: Position, seat: int) -> View:
        """What ``seat`` knows of ``position``: its hand, the face-up cards (Open Minimo), all play.

        Moon's bidder also knows its discard (the one tile in no hand).
        """
        g, n = position.game, position.n_players
        faceup = getattr(g, "open", None) or (0,) * n
        known = [h if s == seat else h & faceup[s] for s, h in enumerate(position.hands)]
        hidden = [C.popcount(h & ~k) for h, k in zip(position.hands, known)]
        out_known = 0
        if g.name == "moon" and g.options["bidder"] == seat:
            seen = C.mask_of(position.trick)
            for m in (*position.hands, *position.taken):
                seen |= m
            out_known = g.deck & ~seen
        objective = Objective.make(g, seat, position.objective.measure,
                                   position.objective.goal if position.objective.hero == seat else None)
        return cls(g, seat, known, hidden, g.dealt_out - C.popcount(out_known), out_known, [],
                   position.leader, list(position.trick), list(position.taken), objective)

    def to_json(self) -> dict[str, Any]:
        g = self.game
        assert self.objective is not None
        return {"game": g.name, "options": g.options_json(), "seat": self.seat,
                "hands": [g.format_hand(k) for k in self.known], "hidden": list(self.hidden),
                "out": self.out, "out_known": g.format_hand(self.out_known),
                "exclude": [g.format_hand(x & self.pool()) for x in self.exclude],
                "leader": self.leader, "trick": [g.format_piece(p) for p in self.trick],
                "taken": [g.format_hand(t) for t in self.taken],
                "objective": {k: v for k, v in self.objective.to_json(g).items() if k != "side"}}


def _default_hidden(g: Game, known: list[int], leader: int, trick_len: int, seat: int) -> list[int]:
    """Hidden counts when every hand is as long as the viewer's (seats already in the trick one fewer)."""
    n = g.n_players
    played = {(leader + i) % n for i in range(trick_len)}
    size = C.popcount(known[seat]) + (seat in played)
    return [0 if s == seat else size - (s in played) - C.popcount(k) for s, k in enumerate(known)]


# --- layouts ---------------------------------------------------------------------

def _places(view: View) -> tuple[list[int], list[int]]:
    """The places unseen pieces go to: each seat with hidden cards, then out of play (``-1``)."""
    seats = [s for s, h in enumerate(view.hidden) if h] + ([-1] if view.out else [])
    caps = [view.hidden[s] if s >= 0 else view.out for s in seats]
    return seats, caps


def _pieces(view: View) -> list[int]:
    """The unseen pieces in the order layouts assign them (the last ones vary fastest)."""
    return list(C.bits(view.pool()))


def _allowed(view: View, seats: list[int]) -> list[int]:
    """Per pool piece (low index first), a bitmask over places that may hold it."""
    out = []
    for piece in _pieces(view):
        mask = 0
        for i, s in enumerate(seats):
            if s < 0 or not view.exclude[s] >> piece & 1:
                mask |= 1 << i
        out.append(mask)
    return out


class _Counter:
    """Counts the layouts completing a partial one, for exact counting and uniform sampling."""

    def __init__(self, allowed: list[int], caps: list[int]) -> None:
        self.allowed = allowed
        self.k = len(caps)

        @lru_cache(maxsize=None)
        def ways(i: int, left: tuple[int, ...]) -> int:
            if i == len(allowed):
                return 1 if not any(left) else 0
            total = 0
            for p in range(self.k):
                if left[p] and allowed[i] >> p & 1:
                    total += ways(i + 1, left[:p] + (left[p] - 1,) + left[p + 1:])
            return total

        self.ways = ways


def count(view: View) -> int:
    """The exact number of layouts consistent with the view (with its exclusions)."""
    seats, caps = _places(view)
    allowed = _allowed(view, seats)
    if all(a == (1 << len(seats)) - 1 for a in allowed):  # no exclusions: a multinomial
        total = factorial(len(allowed))
        for c in caps:
            total //= factorial(c)
        return total
    return _Counter(allowed, caps).ways(0, tuple(caps))


def layouts(view: View) -> Iterator[list[int]]:
    """Every layout, as per-seat masks of hidden pieces (out-of-play pieces are dropped)."""
    seats, caps = _places(view)
    pieces = _pieces(view)
    allowed = _allowed(view, seats)
    n = view.game.n_players
    counter = _Counter(allowed, caps)
    hands = [0] * n
    left = list(caps)

    def rec(i: int) -> Iterator[list[int]]:
        if i == len(pieces):
            yield list(hands)
            return
        for p, s in enumerate(seats):
            if left[p] and allowed[i] >> p & 1:
                left[p] -= 1
                if counter.ways(i + 1, tuple(left)):  # prune dead ends (only with exclusions)
                    if s >= 0:
                        hands[s] |= 1 << pieces[i]
                    yield from rec(i + 1)
                    if s >= 0:
                        hands[s] &= ~(1 << pieces[i])
                left[p] += 1

    yield from rec(0)


def sample(view: View, k: int, seed: int) -> Iterator[list[int]]:
    """``k`` layouts drawn uniformly (with replacement) from the consistent ones, seeded."""
    seats, caps = _places(view)
    pieces = _pieces(view)
    allowed = _allowed(view, seats)
    counter = _Counter(allowed, caps)
    rng = Rng(seed)
    n = view.game.n_players
    if not counter.ways(0, tuple(caps)):
        return
    for _ in range(k):
        hands = [0] * n
        left = list(caps)
        for i, piece in enumerate(pieces):
            # Choose the place with probability proportional to the layouts it leaves.
            options = []
            for p in range(len(seats)):
                if left[p] and allowed[i] >> p & 1:
                    left[p] -= 1
                    options.append((p, counter.ways(i + 1, tuple(left))))
                    left[p] += 1
            r = rng.below(sum(w for _, w in options))
            for p, w in options:
                if r < w:
                    break
                r -= w
            left[p] -= 1
            if seats[p] >= 0:
                hands[seats[p]] |= 1 << piece
        yield hands


# --- analysis ---------------------------------------------------------------------

@dataclass
class MoveStats:
    """One move's values over the layouts where it was legal."""

    piece: int
    values: dict[int, int] = field(default_factory=dict)  # value -> number of layouts
    best_in: int = 0                                       # layouts where it is a best move

    @property
    def layouts(self) -> int:
        return sum(self.values.values())

    def mean(self) -> float:
        return sum(v * k for v, k in self.values.items()) / self.layouts


@dataclass
class Analysis:
    """The single-dummy result: per move statistics over the layouts solved.

    Moves are those of the seat to move (when that is not the viewer, a move
    counts in the layouts where the mover holds it). ``worst`` and ``best``
    are from the mover's side: for the hero's side the goal's worst and best,
    for the coalition the reverse. ``best_in`` counts the layouts in which the
    move reaches that layout's optimum.
    """

    view: View
    moves: list[MoveStats]
    layouts: int                # layouts solved
    total: int                  # layouts consistent with the view
    exact: bool                 # every layout solved (else a uniform sample)
    seconds: float              # wall-clock time
    seed: int | None = None
    skipped: int = 0            # layouts whose position was illegal (only with non must-follow rules)
    cpu_seconds: float = 0.0    # this process's CPU time (with jobs > 1, the workers' is not counted)

    @property
    def maximize(self) -> bool:
        """Whether the seat to move wants the value high."""
        obj, g = self.view.objective, self.view.game
        assert obj is not None
        to_move = (self.view.leader + len(self.view.trick)) % g.n_players
        return (to_move in obj.side(g)) == (obj.goal == "max")

    def worst(self, m: MoveStats) -> int:
        return (min if self.maximize else max)(m.values)

    def best(self, m: MoveStats) -> int:
        return (max if self.maximize else min)(m.values)

    def most_often_best(self) -> list[int]:
        if not self.moves:
            return []
        top = max(m.best_in for m in self.moves)
        return [m.piece for m in self.moves if m.best_in == top]

    def best_mean(self) -> list[int]:
        if not self.moves:
            return []
        sign = 1 if self.maximize else -1
        top = max(sign * m.mean() for m in self.moves)
        return [m.piece for m in self.moves if abs(sign * m.mean() - top) < 1e-12]

    def to_json(self) -> dict[str, Any]:
        g = self.view.game
        assert self.view.objective is not None
        fmt = g.format_piece
        return {
            "game": g.name, "seat": self.view.seat,
            "objective": self.view.objective.to_json(g),
            "to_move": (self.view.leader + len(self.view.trick)) % g.n_players,
            "layouts": self.layouts, "total": self.total, "exact": self.exact, "seed": self.seed,
            "moves": [{"card": fmt(m.piece), "layouts": m.layouts, "mean": round(m.mean(), 4),
                       "worst": self.worst(m), "best": self.best(m), "best_in": m.best_in,
                       "distribution": {str(v): k for v, k in sorted(m.values.items())}}
                      for m in self.moves],
            "most_often_best": [fmt(p) for p in self.most_often_best()],
            "best_mean": [fmt(p) for p in self.best_mean()],
            "stats": {"seconds": round(self.seconds, 3), "cpu_seconds": round(self.cpu_seconds, 3),
                      "skipped": self.skipped},
        }

    def __str__(self) -> str:
        g = self.view.game
        head = (f"{g.title}, seat {self.view.seat}'s view: {self.layouts} of {self.total} layouts "
                f"({'all' if self.exact else f'sample, seed {self.seed}'}), {self.seconds:.1f} s "
                f"({self.cpu_seconds:.1f} s CPU here)")
        rows = [head, f"{'move':>5} {'mean':>7} {'worst':>5} {'best':>5} {'best in':>8}  distribution"]
        for m in sorted(self.moves, key=lambda m: -m.best_in):
            dist = " ".join(f"{v}:{k}" for v, k in sorted(m.values.items()))
            rows.append(f"{g.format_piece(m.piece):>5} {m.mean():7.3f} {self.worst(m):>5} {self.best(m):>5} "
                        f"{m.best_in:>8}  {dist}")
        rows.append("best in the most layouts: " + " ".join(map(g.format_piece, self.most_often_best())))
        rows.append("best on average: " + " ".join(map(g.format_piece, self.best_mean())))
        return "\n".join(rows)


def solve_moves(position: Position, objective: Objective, engine: Engine = "auto",
                guesses: dict[int, int] | None = None) -> list[tuple[int, int]]:
    """Every legal move's value (no principal variation: analysis does not need one).

    With the engine, each move's MTD(f) search starts from ``guesses[move]``
    (updated in place): neighbouring layouts differ by a card or two, so the
    previous layout's value of the move is usually right or close, and a right
    guess needs two null-window searches.
    """
    if engine_name(engine) == "reference":
        return [(m, v) for m, v in solve(position, objective, engine="reference").moves if v is not None]
    if position.is_over():
        return []
    from . import engine as fast
    guesses = {} if guesses is None else guesses
    with fast.search_lock():  # one search at a time on the engine's shared table
        # The whole table: a sweep of neighbouring layouts gains from keeping entries
        # (a fresh Open Minimo deal: about 1.6x faster with 2**18 buckets than 2**16).
        eng, _, state = fast.prepare(position, objective, table_bits=fast.TT_BITS)
        eng.set_budget(None, None)
        rep_of = eng.rep_map(*state[:4])
        reps = sorted(set(rep_of.values()))
        values = eng.move_values(*state, reps, [guesses.get(m, state[4]) for m in reps])
        assert len(values) == len(reps)  # no budget was set
        guesses.update(zip(reps, values))
        return [(m, guesses[rep_of[m]]) for m in position.game.sorted_pieces(C.mask_of(rep_of))]


def _solve_chunk(view_json: dict[str, Any], chunk: list[list[int]], engine: Engine
                 ) -> list[list[tuple[int, int]] | None]:
    view = View.from_json(view_json)
    guesses: dict[int, int] = {}
    return [_solve_layout(view, layout, engine, guesses) for layout in chunk]


def _solve_layout(view: View, layout: list[int], engine: Engine, guesses: dict[int, int]
                  ) -> list[tuple[int, int]] | None:
    try:
        pos = view.position(layout)
    except PositionError:  # a current trick this layout could not have produced
        return None
    assert view.objective is not None
    return solve_moves(pos, view.objective, engine, guesses)


def analyse(view: View, *, samples: int | None = None, seed: int = 1, engine: Engine = "auto",
            jobs: int = 1, progress: bool | None = None, max_exact: int = MAX_EXACT) -> Analysis:
    """Solve every layout of ``view`` (or ``samples`` seeded uniform draws) and gather per-move statistics.

    Layouts are enumerated exactly when there are at most ``max_exact`` of
    them and ``samples`` is not given; otherwise ``samples`` (default 1000)
    are drawn. ``jobs > 1`` solves in that many processes.
    """
    start, cpu_start = time.perf_counter(), time.process_time()
    total = count(view)
    exact = samples is None and total <= max_exact
    if exact:
        chosen: Iterator[list[int]] = layouts(view)
        n = total
    else:
        n = samples or 1000
        chosen = sample(view, n, seed)
    stats: dict[int, MoveStats] = {}
    solved = skipped = 0

    def gather(moves: list[tuple[int, int]] | None) -> None:
        nonlocal solved, skipped
        if moves is None:
            skipped += 1
            return
        solved += 1
        pick = max if maximize else min
        top = pick(v for _, v in moves)
        for m, v in moves:
            st = stats.setdefault(m, MoveStats(m))
            st.values[v] = st.values.get(v, 0) + 1
            st.best_in += v == top

    probe = Analysis(view, [], 0, total, exact, 0.0)
    maximize = probe.maximize
    with Progress(n, "single-dummy", progress) as bar:
        if jobs <= 1:
            guesses: dict[int, int] = {}
            for layout in chosen:
                gather(_solve_layout(view, layout, engine, guesses))
                bar.update()
        else:
            view_json = view.to_json()
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                # Long runs of neighbouring layouts per task: the per-task overhead stays small and
                # each worker's engine table carries over between neighbours.
                size = max(64, -(-n // (jobs * 4)))
                futures = [pool.submit(_solve_chunk, view_json, chunk, engine) for chunk in _chunks(chosen, size)]
                for fut in futures:
                    for moves in fut.result():
                        gather(moves)
                        bar.update()
    order = {p: i for i, p in enumerate(view.game.sorted_pieces(C.mask_of(stats)))}
    ordered = sorted(stats.values(), key=lambda m: order[m.piece])
    return Analysis(view, ordered, solved, total, exact, time.perf_counter() - start,
                    None if exact else seed, skipped, time.process_time() - cpu_start)


def _chunks(items: Iterator[list[int]], size: int) -> Iterator[list[list[int]]]:
    chunk: list[list[int]] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
