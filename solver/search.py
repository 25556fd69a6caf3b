"""The search API: ``solve(position, objective)`` with the fast engine, or the reference.

The Cython engine (``solver._engine``) is used when it is built; otherwise, or
with ``engine="reference"`` or the environment variable ``OPENHAND_PUREPYTHON``
set, the pure-Python reference solver answers with the same result type (the
msgpack-python model: one API, two implementations, tests run against both).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from types import ModuleType
from typing import Literal

from . import reference
from .objective import Objective
from .position import Position
from .result import SolveResult

Engine = Literal["auto", "fast", "reference"]


_fast: ModuleType | None = None  # solver.engine, once imported


def _fast_module() -> ModuleType | None:
    """``solver.engine``, imported once rather than at every solve, or None where the
    engine is not built."""
    global _fast
    if _fast is None:
        try:
            from . import engine
        except ImportError:
            return None
        _fast = engine
    return _fast


def fast_available() -> bool:
    """Whether the compiled engine can be used."""
    return not os.environ.get("OPENHAND_PUREPYTHON") and _fast_module() is not None


def engine_name(engine: Engine = "auto") -> str:
    """The engine ``solve`` would use: ``"fast"`` or ``"reference"``."""
    if engine == "reference" or (engine == "auto" and not fast_available()):
        return "reference"
    if engine not in ("auto", "fast"):
        raise ValueError(f"unknown engine {engine!r} (auto, fast, reference)")
    return "fast"


def solve(position: Position, objective: Objective | None = None, *, engine: Engine = "auto",
          max_nodes: int | None = None, max_seconds: float | None = None, pv: bool = True,
          progress: Callable[[int, int], None] | None = None) -> SolveResult:
    """Solve ``position`` for ``objective`` (default: the position's own).

    ``max_nodes`` / ``max_seconds`` bound the fast engine's work; when it
    stops early the result has ``complete=False``. The reference ignores them.
    ``pv=False`` leaves out the principal variation (the value and every
    move's value only, as benchmarks time it). ``progress(done, total)`` is
    called as moves get their values (the fast engine counts interchangeable
    moves once), for a progress bar.
    """
    if engine_name(engine) == "reference":
        return reference.solve(position, objective, pv=pv, progress=progress)
    fast = _fast_module()
    if fast is None:
        from . import engine as fast  # not built: raises the ImportError that says why
    return fast.solve(position, objective, max_nodes=max_nodes, max_seconds=max_seconds, pv=pv,
                      progress=progress)
