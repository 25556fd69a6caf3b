"""A position: the hands, the current trick, who leads, what each seat has taken.

``Position`` is the one state type of openhand. It reads and writes the JSON of
FORMAT.md (lenient in, canonical out, exact round trip), checks that the
position can arise in play, and plays and takes back moves by the rules of its
game.
"""

from __future__ import annotations

import json
from types import EllipsisType
from collections.abc import Mapping, Sequence
from typing import Any

from . import cards as C
from .errors import DuplicateCardError, FormatError, HandSizeError, IllegalMoveError, IllegalTrickError
from .games import Game, Trump, game_class
from .games.base import options_from_json
from .objective import Objective


class Position:
    """Hands (bitmasks), the current trick, the leader, the taken cards and the trump state."""

    def __init__(self, game: Game, hands: Sequence[int], leader: int = 0, trick: Sequence[int] = (),
                 taken: Sequence[int] | None = None, trump: Trump | EllipsisType = ...,
                 objective: Objective | None = None) -> None:
        n = game.n_players
        self.game = game
        self.hands = list(hands)
        self.leader = leader
        self.trick = list(trick)
        self.taken = list(taken) if taken is not None else [0] * n
        given_trump = game.initial_trump() if trump is ... else trump
        self._check_shape()
        self.trump: Trump = self._check_trick(given_trump)
        self.objective = objective if objective is not None else Objective.make(game, self.to_move)
        self._history: list[tuple[int, int, list[int], Trump, int | None]] = []

    # --- state ------------------------------------------------------------------

    @property
    def n_players(self) -> int:
        return self.game.n_players

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.n_players

    def is_over(self) -> bool:
        return not any(self.hands) and not self.trick

    def tricks_left(self) -> int:
        """Tricks still to be completed, the current one included."""
        return C.popcount(self.hands[self.to_move])

    def legal_moves(self) -> list[int]:
        """The legal plays of the seat to move, in canonical order."""
        return self.game.sorted_pieces(self.legal_mask())

    def legal_mask(self) -> int:
        return self.game.legal(self.hands[self.to_move], self.trick, self.trump)

    def play(self, piece: int | str) -> None:
        """Play a card or tile (an index or a token) for the seat to move, checking it is legal."""
        if isinstance(piece, str):
            piece = self.game.parse_piece(piece)
        if not self.legal_mask() >> piece & 1:
            legal = " ".join(self.game.format_hand(self.legal_mask()))
            raise IllegalMoveError(f"seat {self.to_move} cannot play {self.game.format_piece(piece)} here "
                                   f"(legal: {legal})")
        self.push(piece)

    def push(self, piece: int) -> None:
        """Play ``piece`` for the seat to move without checking it (the caller knows it is legal)."""
        seat = self.to_move
        self._history.append((seat, piece, list(self.trick), self.trump, self.leader))
        self.hands[seat] &= ~(1 << piece)
        self.trump = self.game.next_trump(self.trump, self.trick, piece)
        self.trick.append(piece)
        if len(self.trick) == self.n_players:
            winner = (self.leader + self.game.winner(self.trick, self.trump)) % self.n_players
            self.taken[winner] |= C.mask_of(self.trick)
            self.leader = winner
            self.trick = []

    def undo(self) -> int:
        """Take back the last move played; returns it."""
        seat, piece, trick, trump, leader = self._history.pop()
        if not self.trick:  # the move completed a trick: give the trick back
            self.taken[self.leader] &= ~C.mask_of(trick + [piece])
        self.hands[seat] |= 1 << piece
        self.trick, self.trump, self.leader = trick, trump, leader
        return piece

    def copy(self) -> Position:
        p = Position.__new__(Position)
        p.__dict__.update(self.__dict__)
        p.hands, p.trick, p.taken, p._history = list(self.hands), list(self.trick), list(self.taken), []
        return p

    # --- scores -------------------------------------------------------------------

    def last_winner(self) -> int | None:
        """The winner of the hand's last trick, once the hand is over (it leads next)."""
        return self.leader if self.is_over() else None

    def scores(self) -> list[int]:
        """Each seat's hand score from what it has taken so far (final once the hand is over)."""
        return self.game.scores(self.taken, self.trump, self.last_winner())

    def measure(self, objective: Objective | None = None) -> int:
        """The objective's measure for its side, from what has been taken so far."""
        obj = objective or self.objective
        return self.game.measure(self.taken, self.trump, self.last_winner(), obj.side(self.game), obj.measure)

    def tricks_taken(self) -> list[int]:
        return [self.game.tricks(t) for t in self.taken]

    # --- checks ---------------------------------------------------------------------

    def _check_shape(self) -> None:
        g, n = self.game, self.n_players
        if len(self.hands) != n:
            raise HandSizeError(f"{g.name} has {n} seats, got {len(self.hands)} hands")
        if len(self.taken) != n:
            raise HandSizeError(f"{g.name} has {n} seats, got {len(self.taken)} 'taken' lists")
        if isinstance(self.leader, bool) or not isinstance(self.leader, int) or not 0 <= self.leader < n:
            raise FormatError(f"leader must be a seat 0..{n - 1}, got {self.leader!r}")
        if len(self.trick) >= n:
            raise IllegalTrickError(f"the current trick holds {len(self.trick)} cards; a complete trick has "
                                    f"{n} and belongs in 'taken'")
        places = [(f"hand of seat {s}", h) for s, h in enumerate(self.hands)]
        places += [("the current trick", 0)]
        places += [(f"'taken' of seat {s}", t) for s, t in enumerate(self.taken)]
        seen: dict[int, str] = {}
        trick_pieces = set()
        for piece in self.trick:
            if piece in trick_pieces:
                raise DuplicateCardError(f"{g.format_piece(piece)} appears twice in the current trick")
            trick_pieces.add(piece)
        for where, mask in places:
            for piece in (C.bits(mask) if where != "the current trick" else self.trick):
                if piece in seen:
                    raise DuplicateCardError(f"{g.format_piece(piece)} is in the {seen[piece]} and in the {where}")
                seen[piece] = where
        # Seats that already played to the trick hold one card fewer than the rest.
        played = {(self.leader + i) % n for i in range(len(self.trick))}
        sizes = [C.popcount(h) + (1 if s in played else 0) for s, h in enumerate(self.hands)]
        if len(set(sizes)) != 1:
            detail = ", ".join(f"seat {s}: {C.popcount(h)}" for s, h in enumerate(self.hands))
            raise HandSizeError(f"hand sizes {detail} cannot arise in play with leader {self.leader} and "
                                f"{len(self.trick)} card(s) in the current trick")
        left = sizes[0]
        for s, t in enumerate(self.taken):
            if C.popcount(t) % n:
                raise HandSizeError(f"'taken' of seat {s} holds {C.popcount(t)} cards, not whole tricks of {n}")
        done = sum(self.tricks_taken())
        if left > g.hand_size or done + left > g.hand_size:
            raise HandSizeError(f"{done} tricks taken and {left} to play is more than the {g.hand_size} "
                                f"tricks of a hand of {g.name}")
        if self.trick and left == 0:
            raise HandSizeError("a trick is under way but the seats still to play hold no cards")
        in_play = C.popcount(g.deck) - g.dealt_out
        if len(seen) > in_play:
            raise HandSizeError(f"the position uses {len(seen)} {g._piece_word()}s but only {in_play} are "
                                f"played in a hand of {g.name}")

    def _check_trick(self, trump: Trump) -> Trump:
        """Replay the current trick from the hands; return the trump state after it.

        Under a trump that play fixes (Jass), a given trump may have been fixed
        before this trick or by a card in it; either history is accepted.
        """
        starts: list[Trump] = [trump]
        if self.game.dynamic_trump and trump is not None:
            starts.append(None)
        first_error = ""
        for start in starts:
            error, end = self._replay_trick(start)
            if not error and (trump is None or end == trump):
                return end
            first_error = first_error or error or (
                f"the current trick does not fix trump {self.game.format_trump(trump)}")
        raise IllegalTrickError(first_error)

    def _replay_trick(self, trump: Trump) -> tuple[str, Trump]:
        g, n = self.game, self.n_players
        hands = list(self.hands)
        for i, piece in enumerate(self.trick):
            hands[(self.leader + i) % n] |= 1 << piece
        for i, piece in enumerate(self.trick):
            seat = (self.leader + i) % n
            legal = g.legal(hands[seat], self.trick[:i], trump)
            if not legal >> piece & 1:
                return (f"the current trick is illegal: seat {seat} could not play {g.format_piece(piece)} "
                        f"(legal: {' '.join(g.format_hand(legal))})"), trump
            hands[seat] &= ~(1 << piece)
            trump = g.next_trump(trump, self.trick[:i], piece)
        return "", trump

    # --- JSON -----------------------------------------------------------------------

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str) -> Position:
        """Read a FORMAT.md position (a dict, or a JSON string)."""
        data = json_object(data, "a position")
        if "game" not in data:
            raise FormatError("a position needs a 'game' field")
        cls_ = game_class(data["game"])
        options = options_from_json(data.get("options"), cls_.name)
        hands_json = data.get("hands")
        if not isinstance(hands_json, list):
            raise FormatError("a position needs 'hands': a list with one hand per seat")
        if cls_.name == "moon" and "players" not in options:
            options["players"] = len(hands_json)
        game = cls_(**options)
        hands = [C.mask_of(game.parse_hand(h, f"hand of seat {s}: ")) for s, h in enumerate(hands_json)]
        game.check_options_against(hands)
        trick_json = data.get("trick", [])
        trick = game.parse_hand(trick_json, "current trick: ") if trick_json is not None else []
        taken_json = data.get("taken")
        if taken_json is None:
            taken = [0] * len(hands)
        elif isinstance(taken_json, list):
            taken = [C.mask_of(game.parse_hand(t, f"'taken' of seat {s}: ")) for s, t in enumerate(taken_json)]
        else:
            raise FormatError("'taken' must be a list with one list of cards per seat")
        leader = data.get("leader", 0)
        trump = game.initial_trump()
        pos = cls(game, hands, leader, trick, taken, trump)
        pos.objective = Objective.from_json(data.get("objective"), game, pos.to_move)
        return pos

    def to_json(self) -> dict[str, Any]:
        """The canonical FORMAT.md form."""
        g = self.game
        return {
            "game": g.name,
            "options": g.options_for(self.trump, self.hands),
            "hands": [g.format_hand(h) for h in self.hands],
            "leader": self.leader,
            "trick": [g.format_piece(c) for c in self.trick],
            "taken": [g.format_hand(t) for t in self.taken],
            "objective": {k: v for k, v in self.objective.to_json(g).items() if k != "side"},
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json())

    def key(self) -> tuple[Any, ...]:
        """Everything that defines the position (for equality and hashing)."""
        # The game by its name and its options *as this state writes them*: a
        # game's state-dependent options (Jass's trump fixed so far, Minimo's
        # face-up cards still in hand) are part of the state, so a position equals
        # its JSON round trip whatever options it was first dealt with.
        options = json.dumps(self.game.options_for(self.trump, self.hands), sort_keys=True)
        return ((self.game.name, options), tuple(self.hands), self.leader, tuple(self.trick), tuple(self.taken),
                self.trump, self.objective)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"Position.from_json({self.dumps()!r})"


def json_object(data: Mapping[str, Any] | str | bytes, what: str) -> Mapping[str, Any]:
    """``data`` as a JSON object: parsed when it is text, checked to be an object (``what`` names it in errors)."""
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as e:
            raise FormatError(f"not valid JSON: {e}") from None
    if not isinstance(data, Mapping):
        raise FormatError(f"{what} must be a JSON object, got {type(data).__name__}")
    return data
