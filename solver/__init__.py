"""openhand: exact double-dummy analysis for Minimo, Minimisere, Mittlere Jass, Moon and bridge.

>>> from solver import Position, solve
>>> pos = Position.from_json({"game": "minimo", "hands": [["SA", "S7", "HK"], ["SQ", "H9", "D9"], ["S8", "H7", "CA"]]})
>>> solve(pos).value
1
"""

from .deal import deal
from .errors import (DuplicateCardError, FormatError, HandSizeError, IllegalMoveError, IllegalTrickError,
                     ObjectiveError, OptionError, PositionError, UnknownCardError, UnknownGameError)
from .games import GAMES, Game, make_game
from .objective import Objective
from .position import Position
from .result import SolveResult
from .search import solve

__version__ = "0.1.0"

__all__ = ["GAMES", "DuplicateCardError", "FormatError", "Game", "HandSizeError", "IllegalMoveError",
           "IllegalTrickError", "Objective", "ObjectiveError", "OptionError", "Position", "PositionError",
           "SolveResult", "UnknownCardError", "UnknownGameError", "deal", "make_game", "solve"]
