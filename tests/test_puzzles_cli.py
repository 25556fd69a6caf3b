"""``openhand puzzles``: generate, show, check, play and svg, and the committed sample collections."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from puzzles.cli import main, register
from puzzles.puzzle import load, save

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "puzzles" / "samples").glob("*.msgpack"))


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("puzzles") / "minimo.msgpack"
    rc = main(["generate", "--game", "minimo", "--count", "3", "--seed", "7", "--cards", "3",
               "--out", str(out), "--jsonl", str(out.with_suffix(".jsonl")), "--engine", "reference"])
    assert rc == 0
    return out


def test_generate_writes_both_files(made: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert len(load(made)) == 3 and load(made) == load(made.with_suffix(".jsonl"))
    assert main(["check", str(made.with_suffix(".jsonl")), "--engine", "reference"]) == 0
    assert "3/3 puzzles verified" in capsys.readouterr().out


def test_show_hides_the_answer_unless_asked(made: Path, capsys: pytest.CaptureFixture[str]) -> None:
    puzzle = load(made).puzzles[0]
    assert main(["show", str(made), puzzle.id[:6]]) == 0
    out = capsys.readouterr().out
    assert puzzle.id in out and "Answer" not in out and "to move" in out
    assert main(["show", str(made), "--answer"]) == 0
    assert capsys.readouterr().out.count("Answer:") == 3


def test_check_fails_on_a_false_claim(made: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    collection = load(made)
    collection.puzzles[1].value += 1
    bad = tmp_path / "bad.msgpack"
    save(collection, bad)
    assert main(["check", str(bad), "--engine", "reference"]) == 1
    out = capsys.readouterr().out
    assert f"{collection.puzzles[1].id}: value" in out and "1 with problems" in out


def test_svg_command(made: Path, tmp_path: Path) -> None:
    out = tmp_path / "p.svg"
    assert main(["svg", str(made), "2", "--answer", "--out", str(out)]) == 0
    assert out.read_text().startswith("<svg") and "</svg>" in out.read_text()


def test_play_with_piped_input(made: Path) -> None:
    puzzle = load(made).puzzles[0]
    team = set(puzzle.task().team(puzzle.to_position().game))
    # Walk the principal line, answering only for the team's seats.
    pos = puzzle.to_position()
    moves = []
    for token in puzzle.line:
        if pos.to_move in team:
            moves.append(token)
        pos.play(token)
    run = subprocess.run([sys.executable, "-m", "puzzles", "play", str(made), puzzle.id, "--engine", "reference"],
                         input="hint\n" + "\n".join(moves) + "\n", capture_output=True, text=True, cwd=ROOT,
                         timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "still optimal" in run.stdout and "Solved" in run.stdout and "hint:" in run.stdout
    wrong = next(t for t, v in puzzle.moves if t not in puzzle.key)
    run = subprocess.run([sys.executable, "-m", "puzzles", "play", str(made), puzzle.id, "--engine", "reference"],
                         input=wrong + "\n" + "\n".join(["quit"]) + "\n", capture_output=True, text=True, cwd=ROOT,
                         timeout=60)
    assert "not optimal" in run.stdout and run.returncode in (1, 2)


def test_user_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "--game", "poker", "--out", str(tmp_path / "x")]) == 2
    assert main(["generate", "--game", "minimo", "-o", "trump=Z", "--out", str(tmp_path / "x")]) == 2
    assert main(["show", str(tmp_path / "missing.msgpack")]) == 2
    (tmp_path / "junk.jsonl").write_text("{\"format\": \"other\"}\n")
    assert main(["check", str(tmp_path / "junk.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.count("error: ") == 4 and "Traceback" not in err


def test_register_adds_the_puzzles_subcommands() -> None:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    for cmd in ("generate --game moon --out f", "show f", "check f", "play f", "svg f"):
        args = parser.parse_args(["puzzles", *cmd.split()])
        assert callable(args.func)


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_sample_collections_verify(path: Path) -> None:
    collection = load(path)
    assert len(collection) >= 6
    assert load(path.with_suffix(".jsonl")) == collection
    assert main(["check", str(path)]) == 0


def test_samples_cover_every_game() -> None:
    assert {p.stem for p in SAMPLES} == {"minimo", "minimisere", "jass", "moon", "bridge", "open-minimo-sd"}


def test_openhand_cli_loads_the_plugin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # The same path as the installed entry point "puzzles = puzzles.cli:register" in openhand.commands.
    import solver.cli

    class EntryPoint:
        def load(self):  # noqa: ANN202
            return register

    real = solver.cli.entry_points
    monkeypatch.setattr(solver.cli, "entry_points",
                        lambda group: [EntryPoint()] + [ep for ep in real(group=group) if ep.name != "puzzles"])
    assert solver.cli.main(["puzzles", "show", str(SAMPLES[0]), "1"]) == 0
    assert "to move" in capsys.readouterr().out
    assert solver.cli.main(["puzzles", "show", str(SAMPLES[0]), "no-such-id"]) == 2
    assert "error: no puzzle" in capsys.readouterr().err
