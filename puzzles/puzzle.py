"""The Puzzle type and puzzle collections (msgpack files and JSON Lines exports).

A collection file is one msgpack map: ``format`` ("openhand-puzzles"),
``schema`` (an int, bumped on any incompatible change), ``generator``
(name and version), ``seed``, ``settings``, ``stats`` and ``puzzles``. The
JSON Lines export holds the same: a first line with everything but the
puzzles, then one puzzle a line. Both load back to an equal ``Collection``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import msgpack
import networkx as nx

from solver import Objective, Position

from .task import Task
from .tree import tree_from_data, tree_to_data

FORMAT_NAME = "openhand-puzzles"
SCHEMA = 1
#: Written when a collection holds single-dummy puzzles, so that readers of schema 1 refuse it rather
#: than show those puzzles' hidden cards; this version reads both.
SINGLE_DUMMY_SCHEMA = 2
READS = (SCHEMA, SINGLE_DUMMY_SCHEMA)
GENERATOR = "openhand.puzzles"
VERSION = "0.1.0"  # the generator version written into every collection


class CollectionError(ValueError):
    """A collection file that cannot be read, or a puzzle id that is not in it."""


@dataclass(eq=False)
class Puzzle:
    """A position, the task, and its solved answer."""

    id: str
    position: dict[str, Any]            # FORMAT.md JSON, objective included
    player: int                         # the seat to move
    value: int                          # what the team can hold the objective's measure to
    key: list[str]                      # the correct first move and the cards equivalent to it
    moves: list[list[Any]]              # [token, value] for every legal first move
    tree: nx.DiGraph                    # see puzzles.tree
    line: list[str]                     # a principal line, root to the last decision
    decisions: int                      # most hero decisions on one branch of the tree
    difficulty: float
    level: int                          # 1 (easy) .. 5
    tags: list[str]
    policies: dict[str, Any]            # policy -> None (it works) or where it fails
    pool: str = "main"                  # "main", "easy" (one decision) or "single-dummy"
    source: dict[str, Any] = field(default_factory=dict)
    single_dummy: dict[str, Any] | None = None  # view and layout statistics (puzzles.single_dummy)

    # --- derived views ---------------------------------------------------------

    def to_position(self) -> Position:
        return Position.from_json(self.position)

    def task(self) -> Task:
        pos = self.to_position()
        return Task(self.player, pos.objective)

    @property
    def objective(self) -> Objective:
        return self.to_position().objective

    @property
    def game(self) -> str:
        return str(self.position["game"])

    # --- plain data ------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["tree"] = tree_to_data(self.tree)
        if self.single_dummy is None:
            del out["single_dummy"]  # double-dummy puzzles are written exactly as in schema 1
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Puzzle:
        names = {f.name for f in fields(cls)}
        missing = names - set(data) - {"pool", "source", "single_dummy"}
        if missing:
            raise CollectionError(f"puzzle {data.get('id', '?')!r} lacks {sorted(missing)[0]!r}")
        kwargs = {k: v for k, v in data.items() if k in names}
        kwargs["tree"] = tree_from_data(data["tree"])
        return cls(**kwargs)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Puzzle) and _normal(self.to_dict()) == _normal(other.to_dict())


def _normal(data: Any) -> Any:
    """Tuples and lists alike (msgpack and JSON both give lists back)."""
    if isinstance(data, dict):
        return {k: _normal(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_normal(v) for v in data]
    return data


@dataclass(eq=False)
class Collection:
    """Puzzles with the generator settings and statistics that produced them."""

    puzzles: list[Puzzle]
    seed: int | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    stats: dict[str, Any] = field(default_factory=dict)
    generator: dict[str, str] = field(default_factory=lambda: {"name": GENERATOR, "version": VERSION})
    schema: int = SCHEMA

    def header(self) -> dict[str, Any]:
        schema = max(self.schema, SINGLE_DUMMY_SCHEMA if any(p.single_dummy for p in self.puzzles) else SCHEMA)
        return {"format": FORMAT_NAME, "schema": schema, "generator": self.generator, "seed": self.seed,
                "settings": self.settings, "stats": self.stats}

    def to_dict(self) -> dict[str, Any]:
        return {**self.header(), "puzzles": [p.to_dict() for p in self.puzzles]}

    @classmethod
    def from_dict(cls, data: Any, where: str = "collection") -> Collection:
        if not isinstance(data, dict) or data.get("format") != FORMAT_NAME:
            raise CollectionError(f"{where} is not an openhand puzzle collection")
        schema = data.get("schema")
        if schema not in READS:
            raise CollectionError(f"{where} has schema {schema!r}; this version reads schemas "
                                  f"{', '.join(map(str, READS))}")
        puzzles = [Puzzle.from_dict(p) for p in data.get("puzzles", [])]
        return cls(puzzles, data.get("seed"), data.get("settings") or {}, data.get("stats") or {},
                   data.get("generator") or {}, schema)

    def get(self, puzzle_id: str) -> Puzzle:
        """A puzzle by id, by an unambiguous id prefix, or by its 1-based number."""
        if puzzle_id.isdigit() and 1 <= int(puzzle_id) <= len(self.puzzles) \
                and not any(p.id == puzzle_id for p in self.puzzles):
            return self.puzzles[int(puzzle_id) - 1]
        found = [p for p in self.puzzles if p.id.startswith(puzzle_id)]
        if len(found) == 1:
            return found[0]
        raise CollectionError(f"no puzzle {puzzle_id!r} in the collection" if not found
                              else f"puzzle id {puzzle_id!r} is ambiguous")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Collection) and _normal(self.to_dict()) == _normal(other.to_dict())

    def __len__(self) -> int:
        return len(self.puzzles)


# --- files ---------------------------------------------------------------------------

def save(collection: Collection, path: str | Path) -> None:
    """Write ``collection``: JSON Lines when the name ends in ``.jsonl``, else msgpack."""
    path = Path(path)
    if path.suffix == ".jsonl":
        lines = [json.dumps(collection.header(), sort_keys=True)]
        lines += [json.dumps(p.to_dict(), sort_keys=True) for p in collection.puzzles]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    else:
        path.write_bytes(msgpack.packb(collection.to_dict(), use_bin_type=True))


def load(path: str | Path) -> Collection:
    """Read a collection written by ``save`` (msgpack or JSON Lines, told apart by content)."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise CollectionError(f"cannot read {path}: {e.strerror}") from None
    if raw[:1] == b"{":
        try:
            rows = [json.loads(line) for line in raw.decode("utf-8").splitlines() if line.strip()]
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise CollectionError(f"{path} is not valid JSON Lines: {e}") from None
        if not rows:
            raise CollectionError(f"{path} is empty")
        return Collection.from_dict({**rows[0], "puzzles": rows[1:]}, str(path))
    try:
        data = msgpack.unpackb(raw, raw=False, strict_map_key=False)
    except Exception as e:  # msgpack raises several unrelated types on bad input
        raise CollectionError(f"{path} is not a msgpack puzzle collection ({type(e).__name__})") from None
    return Collection.from_dict(data, str(path))
