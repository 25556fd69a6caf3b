"""The puzzle database: SQLite, created and migrated on start.

Puzzles are stored whole (their collection form, as JSON) with the columns the
API filters on; attempts are recorded per anonymous session; puzzles and
sessions carry Glicko-2 ratings.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..puzzle import Puzzle
from .rating import Rating, initial_for_level, update

#: Each step brings the schema from version i to i+1; never edit a shipped step.
MIGRATIONS = [
    """
    CREATE TABLE puzzles (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        variant TEXT NOT NULL,
        level INTEGER NOT NULL,
        difficulty REAL NOT NULL,
        pool TEXT NOT NULL,
        tags TEXT NOT NULL,
        data TEXT NOT NULL,
        rating REAL NOT NULL,
        rd REAL NOT NULL,
        volatility REAL NOT NULL,
        plays INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE puzzle_tags (puzzle_id TEXT NOT NULL REFERENCES puzzles(id), tag TEXT NOT NULL);
    CREATE INDEX puzzle_tags_tag ON puzzle_tags(tag);
    CREATE INDEX puzzles_game ON puzzles(game, variant, level);
    CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        rating REAL NOT NULL, rd REAL NOT NULL, volatility REAL NOT NULL
    );
    CREATE TABLE attempts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        puzzle_id TEXT NOT NULL REFERENCES puzzles(id),
        session TEXT NOT NULL,
        moves TEXT NOT NULL,
        correct INTEGER NOT NULL,
        finished INTEGER NOT NULL,
        created REAL NOT NULL DEFAULT (julianday('now'))
    );
    CREATE INDEX attempts_puzzle ON attempts(puzzle_id);
    """,
]


def variant_of(puzzle: Puzzle) -> str:
    """A short name for the variant: the options that differ from the game's defaults."""
    from solver import make_game
    pos = puzzle.position
    game = make_game(pos["game"], **(pos.get("options") or {}))
    changed = [f"{k}={v}" for k, v in game.options_json().items()
               if k != "open" and v != game.defaults.get(k) and v is not None]
    if getattr(game, "open", None) is not None:
        changed.append("open")
    return ",".join(changed) or "standard"


class Store:
    """A thread-safe handle on the database file (one connection, serialised)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.lock = threading.Lock()
        self.conn = sqlite3.connect(self.path, check_same_thread=False)
        self.conn.row_factory = sqlite3.Row
        self.conn.execute("PRAGMA foreign_keys = ON")
        self.migrate()

    def migrate(self) -> None:
        with self.lock, self.conn:
            version = self.conn.execute("PRAGMA user_version").fetchone()[0]
            for step, sql in enumerate(MIGRATIONS[version:], start=version + 1):
                self.conn.executescript(sql)
                self.conn.execute(f"PRAGMA user_version = {step}")

    def schema_version(self) -> int:
        return int(self.conn.execute("PRAGMA user_version").fetchone()[0])

    # --- puzzles -----------------------------------------------------------------

    def import_puzzles(self, puzzles: Iterable[Puzzle]) -> int:
        """Add puzzles not yet in the database (by id); returns how many were new."""
        added = 0
        with self.lock, self.conn:
            for p in puzzles:
                if self.conn.execute("SELECT 1 FROM puzzles WHERE id = ?", (p.id,)).fetchone():
                    continue
                r = initial_for_level(p.level)
                self.conn.execute(
                    "INSERT INTO puzzles (id, game, variant, level, difficulty, pool, tags, data, rating, rd, "
                    "volatility) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (p.id, p.game, variant_of(p), p.level, p.difficulty, p.pool, json.dumps(p.tags),
                     json.dumps(p.to_dict()), r.rating, r.rd, r.volatility))
                self.conn.executemany("INSERT INTO puzzle_tags VALUES (?, ?)", [(p.id, t) for t in p.tags])
                added += 1
        return added

    def list_puzzles(self, game: str | None = None, variant: str | None = None, level: int | None = None,
                     tag: str | None = None, page: int = 1, per_page: int = 20) -> tuple[int, list[dict[str, Any]]]:
        where, args = [], []
        for column, value in (("game", game), ("variant", variant), ("level", level)):
            if value is not None:
                where.append(f"{column} = ?")
                args.append(value)
        if tag is not None:
            where.append("id IN (SELECT puzzle_id FROM puzzle_tags WHERE tag = ?)")
            args.append(tag)
        clause = (" WHERE " + " AND ".join(where)) if where else ""
        with self.lock:
            total = self.conn.execute(f"SELECT COUNT(*) FROM puzzles{clause}", args).fetchone()[0]
            rows = self.conn.execute(
                f"SELECT id, game, variant, level, difficulty, pool, tags, rating, plays, wins FROM puzzles{clause} "
                "ORDER BY game, rating, id LIMIT ? OFFSET ?", [*args, per_page, (page - 1) * per_page]).fetchall()
        return total, [summary(row) for row in rows]

    def get_puzzle(self, puzzle_id: str) -> tuple[Puzzle, dict[str, Any]] | None:
        with self.lock:
            row = self.conn.execute("SELECT * FROM puzzles WHERE id = ?", (puzzle_id,)).fetchone()
        if row is None:
            return None
        return Puzzle.from_dict(json.loads(row["data"])), summary(row)

    # --- attempts and ratings ----------------------------------------------------------

    def record_attempt(self, puzzle_id: str, session: str, moves: list[str], correct: bool,
                       finished: bool) -> dict[str, float] | None:
        """Store an attempt; a finished one (solved or failed) moves both ratings. Returns the new ratings."""
        with self.lock, self.conn:
            self.conn.execute("INSERT INTO attempts (puzzle_id, session, moves, correct, finished) "
                              "VALUES (?, ?, ?, ?, ?)", (puzzle_id, session, json.dumps(moves), correct, finished))
            if not finished:
                return None
            prow = self.conn.execute("SELECT rating, rd, volatility FROM puzzles WHERE id = ?",
                                     (puzzle_id,)).fetchone()
            srow = self.conn.execute("SELECT rating, rd, volatility FROM sessions WHERE id = ?",
                                     (session,)).fetchone()
            puzzle = Rating(*prow)
            player = Rating(*srow) if srow else Rating()
            score = 1.0 if correct else 0.0
            new_player, new_puzzle = update(player, puzzle, score), update(puzzle, player, 1.0 - score)
            self.conn.execute("UPDATE puzzles SET rating = ?, rd = ?, volatility = ?, plays = plays + 1, "
                              "wins = wins + ? WHERE id = ?",
                              (new_puzzle.rating, new_puzzle.rd, new_puzzle.volatility, int(correct), puzzle_id))
            self.conn.execute("INSERT OR REPLACE INTO sessions VALUES (?, ?, ?, ?)",
                              (session, new_player.rating, new_player.rd, new_player.volatility))
            return {"puzzle": round(new_puzzle.rating, 1), "player": round(new_player.rating, 1)}

    def attempts(self, puzzle_id: str) -> int:
        with self.lock:
            return int(self.conn.execute("SELECT COUNT(*) FROM attempts WHERE puzzle_id = ?",
                                         (puzzle_id,)).fetchone()[0])


def summary(row: sqlite3.Row) -> dict[str, Any]:
    return {"id": row["id"], "game": row["game"], "variant": row["variant"], "level": row["level"],
            "difficulty": row["difficulty"], "pool": row["pool"], "tags": json.loads(row["tags"]),
            "rating": round(row["rating"], 1), "plays": row["plays"], "wins": row["wins"]}
