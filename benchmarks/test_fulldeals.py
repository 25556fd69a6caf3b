"""pytest-benchmark suite: full deals of every game, value and every first lead.

Run: ``pytest benchmarks/ --benchmark-only`` (``OPENHAND_BENCH_DEALS`` deals a
set, default 100; ``OPENHAND_BENCH_CAP`` seconds a solve, default 1;
``OPENHAND_BENCH_REPEAT`` solves a deal, its least time kept, default 1). One
benchmark round solves the whole seeded set; the per-deal median, p90 and
node counts are in each benchmark's ``extra_info`` (``--benchmark-json``).
"""

from __future__ import annotations

import os

import pytest

from benchmarks.fulldeals import SETS, positions, run_dds, run_set
from solver.search import fast_available

pytestmark = pytest.mark.skipif(not fast_available(), reason="the engine is not built")

COUNT = int(os.environ.get("OPENHAND_BENCH_DEALS", "100"))
CAP = float(os.environ.get("OPENHAND_BENCH_CAP", "1"))
REPEAT = int(os.environ.get("OPENHAND_BENCH_REPEAT", "1"))


@pytest.mark.parametrize("measure", ["tricks", "points"])
@pytest.mark.parametrize("name", list(SETS))
def test_full_deals(benchmark, name, measure):
    deals = positions(name, COUNT)
    report = benchmark.pedantic(run_set, args=(name, deals, measure, CAP, REPEAT), rounds=1, iterations=1)
    benchmark.extra_info.update(report.row())
    assert len(report.times) == COUNT


@pytest.mark.parametrize("every_lead", [False, True], ids=["value", "every-lead"])
def test_dds_bridge(benchmark, every_lead):
    pytest.importorskip("endplay")
    deals = positions("bridge", COUNT)
    report = benchmark.pedantic(run_dds, args=(deals, every_lead), rounds=1, iterations=1)
    if report is None:
        pytest.skip("DDS is not available")
    benchmark.extra_info.update(report.row())
