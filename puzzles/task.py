"""What a puzzle asks: the seat to move, the objective it is judged by, and who plays with it.

The objective is the solver's (RULES.md §6): a hero side pursues a goal on a
measure. A puzzle's *player* is the seat to move; it may sit on either side of
that objective (a Moon defender is judged by the bidder's tricks, which it
wants few of). The player's *team* is every seat on the same side of the
minimax; the person solving the puzzle plays all of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver import Game, Objective


@dataclass(frozen=True)
class Task:
    player: int
    objective: Objective

    def team(self, game: Game) -> tuple[int, ...]:
        side = set(self.objective.side(game))
        inside = self.player in side
        return tuple(s for s in range(game.n_players) if (s in side) == inside)

    def wants_more(self, game: Game) -> bool:
        """Whether the player's team wants the objective's measure high."""
        return (self.player in self.objective.side(game)) == (self.objective.goal == "max")

    def takes(self, game: Game) -> bool:
        """Whether the player's team wants to win tricks (or points) itself, rather than avoid them.

        A team judged by the other side's measure wants that low by taking tricks itself.
        """
        return self.wants_more(game) == (self.player in self.objective.side(game))

    def better(self, game: Game, a: int, b: int) -> bool:
        """Whether value ``a`` is better than ``b`` for the player's team."""
        return a > b if self.wants_more(game) else a < b

    def describe(self, game: Game) -> str:
        """The task in words, e.g. "Seat 0 to play: take as few tricks as possible"."""
        obj = self.objective
        side = obj.side(game)
        what = "tricks" if obj.measure == "tricks" else "points"
        amount = "as many" if self.wants_more(game) else "as few"
        team = self.team(game)
        plays = f"seat {self.player}" if len(team) == 1 else f"seats {'+'.join(map(str, team))}"
        if self.player in side:
            aim = f"take {amount} {what} as possible" + (" for your side" if len(team) > 1 else "")
        else:
            aim = f"hold seat{'s' if len(side) > 1 else ''} {'+'.join(map(str, side))} to {amount} {what} as possible"
        return f"You play {plays}, seat {self.player} to move: {aim}"

    def to_json(self, game: Game) -> dict[str, Any]:
        return {"player": self.player, "objective": {k: v for k, v in self.objective.to_json(game).items()
                                                      if k != "side"}}


def default_objective(game: Game, player: int, measure: str = "tricks") -> Objective:
    """The objective a puzzle for ``player`` is judged by.

    Plain games: the player's own tricks or points, as few as possible (Jass points:
    the game's goal, as many). Moon: the bidder's tricks, which the bidder wants many
    of and the defenders few. Bridge: the other side's tricks, as few as possible.
    """
    if game.name == "moon":
        return Objective.make(game, game.bidder, "tricks", "max")  # type: ignore[attr-defined]
    if game.name == "bridge":
        return Objective.make(game, (player + 1) % game.n_players, "tricks", "max")
    return Objective.make(game, player, measure, None if measure == "points" else "min")
