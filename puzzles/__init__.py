"""openhand puzzles: "play to take as few tricks as possible" problems, each with its solved answer.

>>> from puzzles import Settings, generate, check_collection
>>> collection = generate(Settings("minimo", cards=(3, 3)), count=1, seed=1)
>>> check_collection(collection)
{}

Modules: ``generator`` (sources, filters, ``generate``), ``puzzle`` (``Puzzle``,
``Collection``, msgpack / JSON Lines files), ``tree`` (solution trees as
networkx DiGraphs), ``quality`` (key check, simple policies defeated, tags,
difficulty), ``policies``, ``equivalence`` (equivalent cards, canonical keys),
``task`` (who plays and for what), ``check`` (re-solve and confirm every claim),
``render`` (text and SVG), ``play`` (interactive), ``cli`` (``openhand puzzles``),
``single_dummy`` (Open Minimo puzzles judged over every hidden layout of the player's view).
"""

from .check import check_collection, check_puzzle
from .generator import Settings, SettingsError, analyse, generate
from .play import play
from .puzzle import Collection, CollectionError, Puzzle, load, save
from .render import position_svg, show_text, svg
from .task import Task, default_objective
from .tree import build_tree

__version__ = "0.1.0"

__all__ = ["Collection", "CollectionError", "Puzzle", "Settings", "SettingsError", "Task", "analyse", "build_tree",
           "check_collection", "check_puzzle", "default_objective", "generate", "load", "play", "position_svg",
           "save", "show_text", "svg"]
