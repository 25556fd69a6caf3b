"""Bridge card play (RULES.md §5): plain must follow, N+S vs E+W, tricks."""

import pytest

from solver import Objective, Position, cards as C
from solver.errors import OptionError
from solver.games import Bridge


def m(text):
    return C.mask_of(C.parse_card_token(t) for t in text.split())


def cs(text):
    return [C.parse_card_token(t) for t in text.split()]


def test_trump_is_required():
    with pytest.raises(OptionError, match="trump"):
        Bridge()
    with pytest.raises(OptionError, match="trump"):
        Bridge(trump="X")
    assert Bridge(trump="nt").options == {"trump": "NT"}
    assert Bridge(trump="h").trump == C.HEARTS


def test_pack_and_partners():
    g = Bridge(trump="NT")
    assert C.popcount(g.deck) == 52 and g.hand_size == 13
    assert g.side(0) == (0, 2) and g.side(1) == (1, 3) and g.side(3) == (1, 3)


def test_must_follow_and_winner():
    g = Bridge(trump="S")
    assert set(g.format_hand(g.legal(m("HA H2 S2"), cs("HK"), C.SPADES))) == {"HA", "H2"}
    assert set(g.format_hand(g.legal(m("D2 S2"), cs("HK"), C.SPADES))) == {"D2", "S2"}
    assert g.winner(cs("HK HA S2 H3"), C.SPADES) == 2
    assert g.winner(cs("HK HA D2 H3"), C.SPADES) == 1
    assert Bridge(trump="NT").winner(cs("HK HA S2 H3"), None) == 1


def test_partnership_tricks():
    # N leads SA, all follow; N wins. N leads H2: E HA wins. Side N+S 1, E+W 1.
    p = Position.from_json({"game": "bridge", "options": {"trump": "NT"},
                            "hands": ["A.2..", "2.A..", "3.3..", "4.4.."]})
    for c in ("SA", "S2", "S3", "S4", "H2", "HA", "H3", "H4"):
        p.play(c)
    assert p.tricks_taken() == [1, 1, 0, 0]
    assert p.measure(Objective(2, "tricks", "max")) == 1
    assert p.measure(Objective(3, "tricks", "max")) == 1
    assert p.measure(Objective(2, "points", "max")) == 1  # points are tricks in bridge
