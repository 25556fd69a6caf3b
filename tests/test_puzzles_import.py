"""``openhand puzzles import``: collections into the service's database, once each."""

from __future__ import annotations

from pathlib import Path

from puzzles import puzzle as collection_io
from puzzles.cli import main
from puzzles.service.db import Store

SAMPLES = Path(__file__).resolve().parent.parent / "puzzles" / "samples"


def test_import_adds_each_puzzle_once(tmp_path, capsys):
    db = tmp_path / "p.db"
    moon = collection_io.load(SAMPLES / "moon.msgpack")
    assert main(["import", str(SAMPLES / "moon.msgpack"), "--db", str(db)]) == 0
    assert main(["import", str(SAMPLES / "moon.jsonl"), "--db", str(db)]) == 0  # the same puzzles again
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith(f"{len(moon)} new of {len(moon)} puzzles")
    assert out[1].endswith(f"0 new of {len(moon)} puzzles")
    total, items = Store(db).list_puzzles(per_page=100)
    assert total == len(moon) and {i["id"] for i in items} == {p.id for p in moon.puzzles}


def test_import_of_a_missing_file_is_a_user_error(tmp_path, capsys):
    assert main(["import", str(tmp_path / "none.msgpack"), "--db", str(tmp_path / "p.db")]) == 2
    assert capsys.readouterr().err.startswith("error: ")
