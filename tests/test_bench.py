"""Benchmark sets: rebuilt the same from their seeds, stored and loaded exactly; the runner's report."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from solver import bench, deal
from solver.cli import main
from solver.search import fast_available


def test_sets_are_reproducible_and_round_trip(tmp_path):
    spec = bench.STANDARD["moon3/after3"]
    first = bench.make_positions(spec)[:5]
    assert [p.to_json() for p in first] == [p.to_json() for p in bench.make_positions(spec)[:5]]
    path = bench.set_path(tmp_path, spec.name)
    bench.save_set(spec, first, path)
    loaded_spec, loaded = bench.load_set(path)
    assert loaded_spec == spec
    assert loaded == first
    # four tiles left in each hand after three tricks
    assert all(p.tricks_left() == 4 for p in loaded)


def test_every_standard_set_builds():
    for name, spec in bench.STANDARD.items():
        pos = bench.make_positions(bench.SetSpec(name, spec.game, spec.options, spec.tricks, 1, spec.seed))[0]
        assert pos.tricks_left() == pos.game.hand_size - spec.tricks, name
        assert not pos.trick


def test_run_set_and_compare(tmp_path, capsys):
    positions = bench.make_positions(bench.STANDARD["bridge-s/end4"])[:3]
    report = bench.run_set("bridge-s/end4", positions, "tricks", "reference")
    assert report.positions == 3 and report.median_ms > 0 and report.nodes_per_solve > 0
    old = tmp_path / "old.json"
    old.write_text(json.dumps(bench.reports_json([report])))
    assert main(["bench", "bridge-s/end4", "--limit", "3", "--engine", "reference", "--compare", str(old)]) == 0
    out = capsys.readouterr().out
    assert "bridge-s/end4" in out and "x" in out.splitlines()[-1]


def test_repeat_keeps_each_positions_least_time(monkeypatch):
    positions = bench.make_positions(bench.STANDARD["bridge-s/end4"])[:2]
    ticks = iter(range(100))  # the runner's clock: one second a reading
    monkeypatch.setattr(bench, "time", SimpleNamespace(perf_counter=lambda: float(next(ticks))))
    slow = iter([5.0, 2.0, 3.0, 1.0, 4.0, 6.0])  # the solve times the fake clock will see
    real_solve = bench.solve

    def timed_solve(*args, **kwargs):
        result = real_solve(*args, **kwargs)
        for _ in range(int(next(slow)) - 1):
            next(ticks)
        return result

    monkeypatch.setattr(bench, "solve", timed_solve)
    report = bench.run_set("bridge-s/end4", positions, "tricks", "reference", repeat=3)
    assert report.times_ms == [2000.0, 1000.0]  # min(5, 2, 3) and min(1, 4, 6) seconds
    assert len(report.nodes) == 2
    with pytest.raises(ValueError):
        bench.run_set("bridge-s/end4", positions, "tricks", "reference", repeat=0)


def test_compare_says_when_repeats_differ(tmp_path, capsys):
    positions = bench.make_positions(bench.STANDARD["bridge-s/end4"])[:2]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(bench.reports_json([bench.run_set("bridge-s/end4", positions, "tricks", "reference")])))
    assert main(["bench", "bridge-s/end4", "--limit", "2", "--engine", "reference", "--repeat", "2",
                 "--compare", str(old)]) == 0
    assert "(repeat 2 against 1)" in capsys.readouterr().out
    assert main(["bench", "bridge-s/end4", "--limit", "2", "--engine", "reference", "--compare", str(old)]) == 0
    assert "repeat" not in capsys.readouterr().out


def test_bad_repeat_is_a_user_error(capsys):
    assert main(["bench", "bridge-s/end4", "--repeat", "0"]) == 2
    assert "--repeat" in capsys.readouterr().err


def test_unknown_set_is_a_user_error(capsys):
    assert main(["bench", "nonsense/full"]) == 2
    assert "unknown set" in capsys.readouterr().err


def test_stored_sets_match_their_recipes():
    """The committed msgpack sets are exactly what their seeds make (so a figure can be reproduced)."""
    from pathlib import Path
    directory = Path(__file__).resolve().parent.parent / "benchmarks" / "sets"
    for name, spec in bench.STANDARD.items():
        stored_spec, stored = bench.load_set(bench.set_path(directory, name))
        assert stored_spec == spec
        assert stored[:3] == bench.make_positions(bench.SetSpec(name, spec.game, spec.options, spec.tricks, 3,
                                                                spec.seed)), name


def test_dds_side_by_side(capsys):
    pytest.importorskip("endplay", reason="DDS comparison needs the dds extra (pip install '.[dds]')")
    positions = bench.make_positions(bench.STANDARD["bridge-nt/end4"])[:3]
    report = bench.compare_leads_with_dds(positions)
    assert report.deals == report.agree == 3 and len(report.dds_ms) == 3 and report.ratio > 0
    from solver.search import fast_available
    if fast_available():  # both count the nodes at a trick's start: the tree sizes side by side
        assert len(report.openhand_trick_nodes) == len(report.dds_trick_nodes) == 3
        assert all(n > 0 for n in report.dds_trick_nodes + report.openhand_trick_nodes)
        assert "nodes at a trick's start (what DDS counts)" in report.summary()
    assert main(["bench", "bridge-nt/end4", "--limit", "2", "--dds"]) == 0
    assert "DDS bridge-nt/end4: 2 deals, 2 agree with DDS" in capsys.readouterr().out


@pytest.mark.needs_engine
def test_nodes_beside_dds(capsys):
    """``benchmarks.nodes --dds`` checks every answer against DDS and prints its nodes beside
    the engine's; a spec of another game is an error before any solving."""
    pytest.importorskip("endplay", reason="DDS comparison needs the dds extra (pip install '.[dds]')")
    from benchmarks import nodes

    assert nodes.main(["cut:bridge:4:trump=S", "cut:bridge:5:trump=NT", "--count", "2", "--dds"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out] == ["cut:bridge:4:trump=S", "DDS", "cut:bridge:5:trump=NT", "DDS"]
    assert all("2 deals, 2 agree with DDS" in line and "nodes at a trick's start" in line for line in out[1::2])
    assert nodes.main(["moon3", "--count", "1", "--dds"]) == 2
    captured = capsys.readouterr()
    assert "--dds solves bridge, not moon" in captured.err and captured.out == ""


@pytest.mark.needs_engine
def test_dds_tables_side_by_side():
    pytest.importorskip("endplay", reason="DDS comparison needs the dds extra (pip install '.[dds]')")
    from solver.search import fast_available
    if not fast_available():
        pytest.skip("the compiled engine is not available")
    report = bench.compare_tables_with_dds([deal("bridge", 5)])
    assert report.deals == report.agree == 1
    assert "1 deals, 1 agree with DDS" in report.summary() and "nodes" not in report.summary()


def test_dds_missing_is_said_plainly(monkeypatch, capsys):
    from solver import dds
    monkeypatch.setattr(dds, "available", lambda: False)
    assert main(["bench", "bridge-nt/end4", "--limit", "1", "--engine", "reference", "--dds"]) == 0
    captured = capsys.readouterr()
    assert "bridge-nt/end4" in captured.out and "endplay is not installed" in captured.err


def test_against_table_gives_ratios_of_two_engines():
    """``benchmarks.against`` prints one row a set: both engines' medians round by round,
    mean nodes, and the ratios (after over before; time from the sums of the medians)."""
    from benchmarks.against import table

    def rep(median, nodes, over=0):
        return {"name": "moon3/full", "measure": "tricks", "positions": 20, "median_ms": median,
                "nodes_per_solve": nodes, "over": over}

    rows = table([[rep(2.0, 1000)], [rep(2.2, 1000)]], [[rep(1.0, 800, 1)], [rep(1.1, 800)]]).splitlines()
    assert len(rows) == 3
    assert rows[2] == "| moon3/full | tricks | 20 | 2.0, 2.2 → 1.0, 1.1 | 1,000 → 800 | 0.80 | 0.50 | 0, 0 → 1, 0 |"


def test_against_reports_a_bad_revision_in_one_line(capsys):
    from benchmarks.against import main as against

    assert against(["no-such-revision", "moon3/full", "--rounds", "1"]) == 2
    err = capsys.readouterr().err
    assert "error: git archive no-such-revision" in err and "Traceback" not in err


@pytest.mark.skipif(not fast_available(), reason="the engine is not built")
def test_against_in_process_times_two_engines_deal_by_deal_and_checks_their_answers():
    """``--in-process`` solves each deal with the other engine and this tree's in turn (here
    this tree's against itself: the same nodes, both timed), and stops at a deal where the
    two engines' answers differ; a set it cannot time is a usage error, before any build."""
    from benchmarks import against
    from solver import _engine

    row = against.in_process(_engine, "moon3", 3, 2, "tricks")
    assert row["deals"] == 3 and row["nodes_before"] == row["nodes_after"] > 0
    assert row["median_before"] > 0 and row["median_after"] > 0 and row["ratio_of_medians"] > 0
    line = against.in_process_table([row]).splitlines()[2]
    assert line.startswith("| moon3 | tricks | 3 (2) | ") and line.endswith("| 0 → 0 |")

    class Wrong(_engine.Engine):  # values every move one trick too high
        def root(self, *args):
            return [(m, v + 1) for m, v in super().root(*args)]

    with pytest.raises(against.AgainstError, match="moon3 seed 0: the two engines' answers differ"):
        against.in_process(SimpleNamespace(Engine=Wrong), "moon3", 1, 1, "tricks")

    class Older(_engine.Engine):  # a root that takes other arguments
        def root(self, hands):
            return []

    with pytest.raises(against.AgainstError, match="root cannot be called as this tree's"):
        against.in_process(SimpleNamespace(Engine=Older), "moon3", 1, 1, "tricks")
    with pytest.raises(SystemExit):
        against.main(["HEAD", "--in-process", "moon3/full"])


@pytest.mark.skipif(not fast_available(), reason="the engine is not built")
def test_shapes_compares_the_shaped_search_with_the_generic_one(capsys):
    """``benchmarks.shapes`` times the search compiled for the game's shape against the
    generic one on the same deals (one line a set, with the ratio) and leaves the engine's
    shapes switched back on; an unknown set is a usage error."""
    from benchmarks import shapes
    from solver import engine

    assert shapes.main(["--sets", "moon3", "--count", "2", "--repeat", "1"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("moon3 tricks (2 deals, least of 1): shaped median") and "ratio median" in line
    assert engine.get_engine().shape == "three"
    with pytest.raises(SystemExit):
        shapes.main(["--sets", "moon5"])
    assert "unknown set 'moon5'" in capsys.readouterr().err


@pytest.mark.skipif(not fast_available(), reason="the engine is not built")
def test_bounds_check_passes_a_sound_engine_and_reports_a_wrong_claim(monkeypatch, capsys):
    """``benchmarks.bounds`` asks the search's bounds at trick starts: on a sound engine one
    line a variant and exit 0; a bound that misses the value is printed, exit 1."""
    from benchmarks import bounds
    from solver import engine

    assert bounds.main(["--count", "20", "--only", "minimo-trump=NT-"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("minimo-trump=NT-double_penalty=True") and "failures 0" in line
    assert int(line.split("trick starts")[1].split()[0]) > 0

    eng = engine.get_engine()

    class Claiming:  # the engine, with lower bounds far above any value
        def __getattr__(self, name):
            return getattr(eng, name)

        def bounds_at(self, *args):
            lb, ub = eng.bounds_at(*args)
            return max(lb, args[3] + 10**5), ub

    monkeypatch.setattr(engine, "get_engine", lambda: Claiming())
    assert bounds.main(["--count", "10", "--only", "minimo-trump=NT-"]) == 1
    out = capsys.readouterr().out
    assert "miss the value" in out and "failures 0" not in out


def test_keys_check_agrees_and_reports_a_disagreement(monkeypatch, capsys):
    """``benchmarks.keys`` compares the engine with its exact-card-key self (or, with
    ``--off bounds``, its self without the sure-trick bounds): on a sound engine one line a
    variant and exit 0; when the two answers differ, the position and exit 1."""
    from benchmarks import keys
    from solver import engine

    assert keys.main(["--count", "2", "--only", "jass-trump=S"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("jass-trump=S") and "comparisons     4" in line and "disagreements 0" in line
    assert [len(objs) for _, objs in keys.cases("jass", {}, 2, 1)] == [2, 2, 3, 3]  # 2 with no trump yet

    solve = engine.solve
    calls = []

    def every_other_off_by_one(*args, **kwargs):
        result = solve(*args, **kwargs)
        calls.append(1)
        if len(calls) % 2 == 0:
            result.moves = [(m, v + 1) for m, v in result.moves]
        return result

    monkeypatch.setattr(engine, "solve", every_other_off_by_one)
    assert keys.main(["--count", "1", "--only", "moon-players=3-contract=0"]) == 1
    out = capsys.readouterr().out
    assert "disagreements 2" in out and "with keys off" in out

    nodes = []

    def counted(*args, **kwargs):
        result = solve(*args, **kwargs)
        nodes.append(result.stats["nodes"])
        return result

    monkeypatch.setattr(engine, "solve", counted)
    assert keys.main(["--count", "3", "--only", "minimo-trump=NT", "--off", "bounds"]) == 0
    assert "disagreements 0" in capsys.readouterr().out
    assert sum(nodes[1::2]) > sum(nodes[::2])  # the other side ran without its bounds


@pytest.mark.needs_engine
def test_nodes_counts_a_spec_and_its_answers(monkeypatch, capsys):
    """``benchmarks.nodes`` prints one line a spec: node total, median, p90 and a digest of
    the answers, the same in two runs and changed when an answer changes; a bad spec or
    option is one line on stderr and exit 2."""
    from benchmarks import nodes
    from solver.deal import deal

    assert nodes.main(["cut:minimo:3:trump=cycle", "moon3", "--count", "3"]) == 0
    first = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in first] == ["cut:minimo:3:trump=cycle", "moon3"]
    assert all(" n=3 " in line and "digest=" in line for line in first)
    counted = nodes.count("moon3", 3)
    assert counted.line() == first[1] and sum(counted.nodes) > 0
    assert 0 < sum(counted.trick_nodes) < sum(counted.nodes) and f"trick_starts={sum(counted.trick_nodes):,} " in first[1]
    assert [nodes.position("cut:minimo:3:trump=cycle", s).trump for s in range(4)] == \
        [deal("minimo", s, trump=t).trump for s, t in enumerate("SHDC")]

    solve = nodes.solve

    def one_off(*args, **kwargs):
        result = solve(*args, **kwargs)
        result.value += 1
        return result

    monkeypatch.setattr(nodes, "solve", one_off)
    assert nodes.count("moon3", 3).digest != counted.digest
    monkeypatch.setattr(nodes, "solve", solve)

    assert nodes.main(["cut:minimisere:8:partners=yes", "--count", "1"]) == 2
    assert nodes.main(["nope"]) == 2
    err = capsys.readouterr().err
    assert "partners" in err and "unknown set 'nope'" in err and "Traceback" not in err
