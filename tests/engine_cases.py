"""Shared by the engine tests and the full sweep: every game and variant, and one comparison."""

from __future__ import annotations

import random
from typing import Any

from solver import cards as C
from solver import reference
from solver.deal import deal
from solver.objective import Objective
from solver.position import Position

#: (game, options) for every game and variant of RULES.md.
VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("minimo", {"trump": "NT"}),
    ("minimo", {"trump": "S"}),
    ("minimo", {"trump": "H"}),
    ("minimo", {"trump": "C", "double_penalty": True}),
    ("minimo", {"trump": "NT", "double_penalty": True}),
    ("minimo", {"trump": "D", "open": True}),
    ("minimisere", {}),
    ("minimisere", {"scoring": "hard"}),
    ("minimisere", {"trump": "H"}),
    ("minimisere", {"trump": "S", "scoring": "hard"}),
    ("minimisere", {"partners": True}),
    ("minimisere", {"partners": True, "trump": "C"}),
    ("minimisere", {"queen_of_spades": 12}),
    ("jass", {}),
    ("jass", {"no_trump_eights": 0}),
    ("jass", {"trump": "S"}),
    ("jass", {"trump": "D", "no_trump_eights": 0}),
    *[("moon", {"players": p, "contract": c}) for p in (3, 4)
      for c in ("0", "1", "2", "3", "4", "5", "6", "doubles", "none")],
    *[("bridge", {"trump": t}) for t in ("S", "H", "D", "C", "NT")],
]


def variant_id(game: str, options: dict[str, Any]) -> str:
    return game + "".join(f"-{k}={v}" for k, v in options.items())


def variant_seed(game: str, options: dict[str, Any], seed: int) -> int:
    """A command's ``--seed`` made one variant's own (the sweeps' positions differ by variant)."""
    return seed * 1000 + sum(map(ord, variant_id(game, options)))


def four_players(game: str, options: dict[str, Any]) -> bool:
    return game in ("minimisere", "bridge") or options.get("players") == 4


def jass_before_trump(seed: int, cards_left: int, **options: Any) -> Position | None:
    """A Jass deal played on at random with every seat following suit, so that no trump is
    fixed yet (random play seldom gets far that way: a void seat soon fixes one); ``None``
    when some seat cannot follow before ``cards_left`` cards a hand."""
    rng = random.Random(seed)
    pos = deal("jass", seed, **options)
    while pos.tricks_left() > cards_left or pos.trick:
        moves = pos.legal_moves()
        if pos.trick:
            moves = [m for m in moves if C.suit_of(m) == C.suit_of(pos.trick[0])]
            if not moves:
                return None
        pos.play(rng.choice(moves))
    return pos


def objective_for(position: Position, i: int) -> list[Objective]:
    """Both measures; the goal and the hero seat cycle with ``i`` so a set covers them all."""
    n = position.n_players
    goal = ("min", "max")[i % 2]
    hero = (i // 2 + i % 3) % n
    return [Objective.make(position.game, hero, m, goal) for m in ("tricks", "points")]


#: What a comparison checks of the reference's result: value, every move's value, best moves.
Answer = tuple[int, list[tuple[int, int]], list[int]]


def reference_answer(position: Position, objective: Objective) -> Answer:
    """The reference's value, move values and best moves (what ``compare`` checks)."""
    ref = reference.solve(position, objective)
    return ref.value, [(p, v) for p, v in ref.moves], list(ref.best)


def compare(position: Position, objective: Objective, answer: Answer | None = None) -> str | None:
    """``None`` when the engine agrees with the reference on the value and every move's value
    and its principal variation is legal and reaches the value; else what went wrong.
    ``answer``: the reference's, when already known (``reference_answer``)."""
    from solver import engine

    value, moves, best = answer if answer is not None else reference_answer(position, objective)
    got = engine.solve(position, objective)
    where = f"{position.dumps()} {objective}"
    if not got.complete:
        return f"engine did not finish: {where}"
    if got.value != value:
        return f"value {got.value} != reference {value}: {where}"
    if got.moves != moves:
        return f"moves {got.moves} != reference {moves}: {where}"
    if got.best != best:
        return f"best {got.best} != reference {best}: {where}"
    p = position.copy()
    for m in got.pv:
        p.play(m)  # raises on an illegal move
    if not p.is_over():
        return f"pv stops before the end of the hand: {where}"
    if p.measure(objective) != got.value:
        return f"pv reaches {p.measure(objective)}, not {got.value}: {where}"
    return None


def exact_value(position: Position, objective: Objective) -> int:
    """The engine's value with its bounds switched off (then a plain alpha-beta with its
    table, held to the reference by the engine tests): the yardstick for the bounds'
    claims on positions too large for the reference. The engine is left as configured
    by default."""
    from solver import engine

    eng = engine.get_engine()
    try:
        eng.configure(bounds=False)
        return engine.solve(position, objective, pv=False).value
    finally:
        eng.configure()


def bound_claims(position: Position, objective: Objective) -> str | None:
    """``None`` when every cheap bound of the engine's search at ``position`` (a trick start,
    two tricks or more left) holds: asked for the full window and for the null windows
    around the value, its lower bound is never above the value and its upper bound never
    below, against ``exact_value``. Else what went wrong. The answers alone show a wrong bound
    only where it decides a window the search asks; here every claim counts."""
    from solver import engine

    value = exact_value(position, objective)
    eng, _, (hands, _, leader, ts, acc, skey) = engine.prepare(position, objective)
    for alpha, beta in [(-10**6, 10**6)] + [(b - 1, b) for b in range(value - 3, value + 4)]:
        lb, ub = eng.bounds_at(hands, leader, ts, acc, skey, alpha, beta)
        if not lb <= value <= ub:
            return (f"bounds {lb}..{ub} for the window ({alpha}, {beta}) miss the value {value}: "
                    f"{position.dumps()} {objective}")
    return None


def bound_problems(game: str, options: dict[str, Any], count: int, seed: int,
                   cards: tuple[int, int]) -> tuple[int, list[str]]:
    """(trick starts checked, ``bound_claims`` problems) over the trick starts with two tricks
    or more left among ``count`` seeded random positions of one variant, with the sweep's
    objectives (``objective_for``)."""
    from solver.deal import random_positions

    problems: list[str] = []
    done = 0
    for i, pos in enumerate(random_positions(game, count, seed, cards_left=cards, **options)):
        if pos.trick or pos.tricks_left() < 2:
            continue
        for obj in objective_for(pos, i):
            problem = bound_claims(pos, obj)
            if problem:
                problems.append(problem)
        done += 1
    return done, problems
