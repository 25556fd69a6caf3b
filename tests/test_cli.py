"""The command line: outputs, overrides, JSON Lines, and errors without tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from solver import Position
from solver.cli import main

# The FORMAT.md example: leading the HK costs one trick, S7 two, SA three.
EXAMPLE = {"game": "minimo", "options": {"trump": "NT"},
           "hands": [["SA", "S7", "HK"], ["SQ", "H9", "D9"], ["S8", "H7", "CA"]],
           "leader": 0, "trick": [], "taken": [[], [], []],
           "objective": {"hero": 0, "measure": "tricks", "goal": "min"}}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def example_file(tmp_path):
    path = tmp_path / "example.json"
    path.write_text(json.dumps(EXAMPLE))
    return str(path)


def test_solve_json_matches_format_example(capsys, example_file):
    code, out, _ = run(capsys, "solve", example_file, "--json", "--engine", "reference")
    result = json.loads(out)
    assert code == 0
    assert result["value"] == 1
    assert result["moves"] == [{"card": "SA", "value": 3}, {"card": "S7", "value": 2}, {"card": "HK", "value": 1}]
    assert result["best"] == ["HK"]
    assert result["objective"] == {"hero": 0, "measure": "tricks", "goal": "min", "side": [0]}
    assert len(result["pv"]) == 9


def test_solve_table_is_readable(capsys, example_file):
    code, out, _ = run(capsys, "solve", example_file, "--engine", "reference")
    assert code == 0
    assert "value: 1" in out
    assert "HK" in out and "best" in out


@pytest.mark.parametrize("engine", ["reference", "auto"])
def test_solve_progress_bar_counts_moves(capsys, example_file, engine):
    code, out, err = run(capsys, "solve", example_file, "--progress", "--engine", engine)
    assert code == 0 and "value: 1" in out
    assert "solving: moves valued 3/3" in err  # SA, S7 and HK: three moves, none interchangeable


def test_solve_progress_bar_counts_jsonl_lines(capsys, tmp_path):
    path = tmp_path / "two.jsonl"
    path.write_text(json.dumps(EXAMPLE) + "\n" + json.dumps(EXAMPLE) + "\n")
    code, out, err = run(capsys, "solve", str(path), "--progress", "--engine", "reference")
    assert code == 0 and len(out.splitlines()) == 2
    assert "solving: lines 2/2" in err


def test_objective_overrides(capsys, example_file):
    # Seat 1 playing to take the most tricks: the override must reach the result.
    code, out, _ = run(capsys, "solve", example_file, "--json", "--hero", "1", "--goal", "max",
                       "--measure", "points", "--engine", "reference")
    obj = json.loads(out)["objective"]
    assert code == 0
    assert obj == {"hero": 1, "measure": "points", "goal": "max", "side": [1]}


def test_stdin(capsys, monkeypatch, example_file):
    import io
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(EXAMPLE)))
    code, out, _ = run(capsys, "solve", "-", "--json", "--engine", "reference")
    assert code == 0 and json.loads(out)["value"] == 1


def test_jsonl_keeps_order_and_reports_bad_lines(capsys, tmp_path):
    other = dict(EXAMPLE, objective={"hero": 0, "measure": "tricks", "goal": "max"})
    lines = [json.dumps(EXAMPLE), '{"game": "minimo", "hands": [["S2"], [], []]}', json.dumps(other)]
    path = tmp_path / "many.jsonl"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "solve", str(path), "--engine", "reference")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 2
    assert [r.get("value") for r in records] == [1, None, 3]  # max: the SA wins all three
    assert records[1]["line"] == 2 and "S2" in records[1]["error"]
    assert err.startswith("error: line 2:")


def test_deal_is_seeded_and_round_trips(capsys):
    _, first, _ = run(capsys, "deal", "jass", "--seed", "5")
    _, again, _ = run(capsys, "deal", "jass", "--seed", "5")
    _, other, _ = run(capsys, "deal", "jass", "--seed", "6")
    assert first == again and first != other
    pos = Position.from_json(json.loads(first))
    assert pos.to_json() == json.loads(first)
    assert [len(h) for h in json.loads(first)["hands"]] == [12, 12, 12]


def test_deal_options_and_cut(capsys):
    code, out, _ = run(capsys, "deal", "moon", "--seed", "2", "-o", "players=4", "-o", "contract=doubles",
                       "--cards", "3", "--compact")
    data = json.loads(out)
    assert code == 0
    assert data["options"] == {"players": 4, "contract": "doubles", "bidder": 0}
    assert all(len(h) == 3 for h in data["hands"])
    # the objective follows the seat to move after the cut
    assert data["objective"]["hero"] == data["leader"]


def test_show(capsys, example_file):
    code, out, _ = run(capsys, "show", example_file)
    assert code == 0
    assert "seat 0" in out and "♠ A 7" in out


def test_demo_runs_every_game(capsys):
    code, out, _ = run(capsys, "demo", "--engine", "reference")
    assert code == 0
    for title in ("Minimo", "Minimisere", "Mittlere Jass", "Moon", "Bridge"):
        assert title in out
    assert out.count("value:") == 6


@pytest.mark.parametrize("argv, stdin, needle", [
    (["solve", "does-not-exist.json"], None, "no such file"),
    (["solve", "-"], "{not json", "not valid JSON"),
    (["solve", "-"], '{"game": "poker", "hands": []}', "unknown game"),
    (["solve", "-"], '{"game": "minimo", "hands": [["SA"], ["SA"], ["SK"]]}', "SA"),
    (["solve", "-"], '{"game": "minimo", "options": {"trump": "X"}, "hands": [[], [], []]}', "trump"),
    (["solve", "-"], '{"game": "bridge", "options": {"trump": "S"}, "hands": [["SA"], ["SK"], ["SQ"]]}', "4 seats"),
    (["deal", "moon", "-o", "players=5"], None, "players"),
    (["deal", "minimo", "-o", "nonsense"], None, "key=value"),
])
def test_errors_are_one_line_and_exit_2(argv, stdin, needle):
    proc = subprocess.run([sys.executable, "-m", "solver", *argv], input=stdin, capture_output=True, text=True)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert needle in lines[0]
