"""The game registry: every game by its FORMAT.md name."""

from __future__ import annotations

from typing import Any

from ..errors import UnknownGameError
from .base import GOALS, MEASURES, Game, Trump
from .bridge import Bridge
from .jass import Jass
from .minimisere import Minimisere
from .minimo import Minimo
from .moon import Moon

GAMES: dict[str, type[Game]] = {g.name: g for g in (Minimo, Minimisere, Jass, Moon, Bridge)}


def game_class(name: Any) -> type[Game]:
    """The game class registered under ``name``."""
    if isinstance(name, str) and name.strip().lower() in GAMES:
        return GAMES[name.strip().lower()]
    raise UnknownGameError(f"unknown game {name!r} (games: {', '.join(GAMES)})")


def make_game(name: Any, **options: Any) -> Game:
    """A game with its options, e.g. ``make_game("minimo", trump="S")``."""
    return game_class(name)(**options)


__all__ = ["GAMES", "GOALS", "MEASURES", "Bridge", "Game", "Jass", "Minimisere", "Minimo", "Moon", "Trump",
           "game_class", "make_game"]
