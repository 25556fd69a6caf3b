"""The big engine-vs-reference sweep (2,000 positions per variant): ``pytest -m slow``."""

from __future__ import annotations

import pytest

from engine_cases import VARIANTS, variant_id
from solver.search import fast_available

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not fast_available(), reason="the engine is not built")]


@pytest.mark.parametrize("game,options", VARIANTS, ids=[variant_id(g, o) for g, o in VARIANTS])
def test_sweep(game, options):
    from benchmarks.sweep import sweep
    done, failures = sweep(game, options, 2000, 5)
    assert done == 4000
    assert not failures, "\n".join(failures[:5])
