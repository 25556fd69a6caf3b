"""What double-dummy analysis optimises (RULES.md §6): a hero, a measure and a goal."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import ObjectiveError
from .games import GOALS, MEASURES, Game


@dataclass(frozen=True)
class Objective:
    """The hero's side pursues ``goal`` on ``measure``; every other seat opposes it."""

    hero: int
    measure: str = "tricks"
    goal: str = "min"

    @classmethod
    def make(cls, game: Game, hero: Any, measure: Any = None, goal: Any = None) -> Objective:
        """Check the parts against ``game`` and fill in the defaults (FORMAT.md)."""
        if isinstance(hero, bool) or not isinstance(hero, int) or not 0 <= hero < game.n_players:
            raise ObjectiveError(f"objective: hero must be a seat 0..{game.n_players - 1}, got {hero!r}")
        measure = "tricks" if measure is None else measure
        if measure not in MEASURES:
            raise ObjectiveError(f"objective: measure must be 'tricks' or 'points', got {measure!r}")
        goal = game.default_goal(measure) if goal is None else goal
        if goal not in GOALS:
            raise ObjectiveError(f"objective: goal must be 'min' or 'max', got {goal!r}")
        return cls(hero, measure, goal)

    @classmethod
    def from_json(cls, data: Any, game: Game, to_move: int) -> Objective:
        if data is None:
            data = {}
        if not isinstance(data, Mapping):
            raise ObjectiveError(f"objective must be an object, got {data!r}")
        unknown = set(data) - {"hero", "measure", "goal", "side"}
        if unknown:
            raise ObjectiveError(f"objective: unknown field {sorted(unknown)[0]!r}")
        hero = data.get("hero")
        return cls.make(game, to_move if hero is None else hero, data.get("measure"), data.get("goal"))

    def side(self, game: Game) -> tuple[int, ...]:
        return game.side(self.hero)

    def to_json(self, game: Game) -> dict[str, Any]:
        return {"hero": self.hero, "measure": self.measure, "goal": self.goal, "side": list(self.side(game))}
