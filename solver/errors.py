"""Errors for bad input: one ``ValueError`` subclass per cause.

Every message says what is wrong and where, so the CLI and the service can show
it to a user as is.
"""

from __future__ import annotations


class PositionError(ValueError):
    """Base class: the input does not describe a legal position."""


class FormatError(PositionError):
    """Malformed input: wrong JSON shape, wrong type, missing field."""


class UnknownGameError(PositionError):
    """A game name that is not in the registry."""


class OptionError(PositionError):
    """A game option that is unknown or out of range."""


class UnknownCardError(PositionError):
    """A card or tile token that cannot be read, or does not exist in the game."""


class DuplicateCardError(PositionError):
    """The same card appears twice in a position."""


class HandSizeError(PositionError):
    """Hand (or taken) sizes that cannot arise in play."""


class IllegalTrickError(PositionError):
    """A current trick that could not have been played legally."""


class IllegalMoveError(PositionError):
    """A card played that is not legal for the seat to move."""


class ObjectiveError(PositionError):
    """An objective with an unknown measure, goal or seat."""
