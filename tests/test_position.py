"""The Position API: who moves, play/push/undo, copies, trick and hand state."""

import pytest

from solver import Position, cards as C
from solver.errors import IllegalMoveError

EXAMPLE = {"game": "minimo", "hands": [["SA", "S7", "HK"], ["SQ", "H9", "D9"], ["S8", "H7", "CA"]]}


def test_to_move_follows_leader_and_trick():
    p = Position.from_json({"game": "minimisere", "leader": 3, "trick": ["SA", "S2"],
                            "hands": [["H2"], ["H4", "H5"], ["H6", "H7"], ["H8"]]})
    # leader 3 played SA, seat 0 played S2: seat 1 is to move
    assert p.to_move == 1
    assert p.objective.hero == 1
    assert p.tricks_left() == 2


def test_play_by_token_or_index_and_trick_completion():
    p = Position.from_json(EXAMPLE)
    assert p.legal_moves() == [C.card(C.SPADES, C.ACE), C.card(C.SPADES, C.SEVEN), C.card(C.HEARTS, C.KING)]
    p.play("HK")
    p.play(C.card(C.HEARTS, C.NINE))
    assert p.trick == [C.card(C.HEARTS, C.KING), C.card(C.HEARTS, C.NINE)] and p.to_move == 2
    p.play("h7")
    assert p.trick == [] and p.leader == 0 and p.tricks_taken() == [1, 0, 0]
    assert not p.is_over() and p.last_winner() is None
    for c in ("S7", "SQ", "S8", "D9", "CA", "SA"):
        p.play(c)
    assert p.is_over() and p.last_winner() == 1 and p.tricks_taken() == [1, 2, 0]
    assert p.legal_moves() == []


def test_play_rejects_cards_not_held_or_not_legal():
    p = Position.from_json(EXAMPLE)
    with pytest.raises(IllegalMoveError, match="seat 0"):
        p.play("SQ")
    p.play("SA")
    with pytest.raises(IllegalMoveError):
        p.play("D9")
    assert p.trick == [C.card(C.SPADES, C.ACE)]   # a refused move changes nothing


def test_undo_across_trick_boundary():
    p = Position.from_json(EXAMPLE)
    start = p.to_json()
    for c in ("SA", "SQ", "S8"):
        p.play(c)
    mid = p.to_json()
    p.play("S7")
    assert p.undo() == C.card(C.SPADES, C.SEVEN)
    assert p.to_json() == mid
    for c in ("S8", "SQ", "SA"):
        assert p.undo() == C.parse_card_token(c)
    assert p.to_json() == start


def test_copy_is_independent():
    p = Position.from_json(EXAMPLE)
    q = p.copy()
    q.play("SA")
    assert p.trick == [] and C.popcount(p.hands[0]) == 3
    assert q != p
    q.undo()
    assert q == p


def test_jass_undo_restores_trump():
    p = Position.from_json({"game": "jass", "hands": [["SA", "S6"], ["H6", "C6"], ["SK", "S7"]]})
    p.play("SA")
    p.play("H6")
    assert p.trump == C.HEARTS
    p.undo()
    assert p.trump is None
    assert p.to_json()["options"]["trump"] is None
