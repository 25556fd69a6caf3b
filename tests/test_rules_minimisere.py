"""Minimisere (RULES.md §2), written from the rules.

Standard: A 4, K 3, Q 2, J 1, Q♠ 10 (or 12 by option): 48 (50) in all.
Hard: A 11, K Q J 10, 10..2 face value: 380 in all, Q♠ no extra.
Plain must follow; with a trump (option) the winner is as in Minimo.
Partners: 0+2 against 1+3, a team scores the sum.
"""

import pytest

from solver import Objective, Position, cards as C
from solver.errors import OptionError
from solver.games import Minimisere


def m(text):
    return C.mask_of(C.parse_card_token(t) for t in text.split())


def cs(text):
    return [C.parse_card_token(t) for t in text.split()]


def pts(game, text):
    return game.card_points(m(text), game.trump)


def test_standard_values():
    g = Minimisere()
    assert [pts(g, c) for c in ("HA", "HK", "HQ", "HJ", "HT", "H9", "H2")] == [4, 3, 2, 1, 0, 0, 0]
    assert [pts(g, c) for c in ("SA", "SK", "SQ", "SJ", "ST")] == [4, 3, 10, 1, 0]


def test_queen_of_spades_option():
    assert pts(Minimisere(queen_of_spades=12), "SQ") == 12
    assert pts(Minimisere(queen_of_spades=12), "HQ") == 2
    with pytest.raises(OptionError, match="queen_of_spades"):
        Minimisere(queen_of_spades=11)


def test_totals_48_and_50():
    # per suit A+K+Q+J = 10, 40 in all; the Q♠ adds 8 (10 in place of 2) or 10.
    g = Minimisere()
    assert g.scores([g.deck, 0, 0, 0], None, 0) == [48, 0, 0, 0]
    assert Minimisere(queen_of_spades=12).scores([0, g.deck, 0, 0], None, 1) == [0, 50, 0, 0]


def test_hard_scoring_values_and_total_380():
    # per suit 2+..+10 = 54, J Q K 30, A 11: 95; four suits 380.
    g = Minimisere(scoring="hard")
    assert [pts(g, "S" + r) for r in "AKQJT98765432"] == [11, 10, 10, 10, 10, 9, 8, 7, 6, 5, 4, 3, 2]
    assert g.scores([0, 0, g.deck, 0], None, 2) == [0, 0, 380, 0]
    # Q♠ has no extra under hard scoring, whatever queen_of_spades says
    assert pts(Minimisere(scoring="hard", queen_of_spades=12), "SQ") == 10
    with pytest.raises(OptionError, match="scoring"):
        Minimisere(scoring="easy")


def test_plain_must_follow():
    g = Minimisere()
    assert set(g.format_hand(g.legal(m("S2 SA H3 D4"), cs("SK"), None))) == {"S2", "SA"}
    assert set(g.format_hand(g.legal(m("H3 D4"), cs("SK"), None))) == {"H3", "D4"}


def test_winner_without_trump_highest_of_led_suit():
    g = Minimisere()
    assert g.winner(cs("S2 HA DA S3"), None) == 3
    assert g.winner(cs("SK SA S2 HA"), None) == 1


def test_trump_variant_winner_as_in_minimo():
    g = Minimisere(trump="H")
    assert g.trump == C.HEARTS
    assert g.winner(cs("SA H2 SK SQ"), C.HEARTS) == 1
    assert g.winner(cs("SA H2 H3 SQ"), C.HEARTS) == 2
    assert g.winner(cs("H2 SA SK HA"), C.HEARTS) == 3
    # follow rules unchanged: no obligation to trump
    assert set(g.format_hand(g.legal(m("H3 D4"), cs("SK"), C.HEARTS))) == {"H3", "D4"}
    assert set(g.format_hand(g.legal(m("S3 H3 D4"), cs("SK"), C.HEARTS))) == {"S3"}


def test_trump_variant_scoring_unchanged():
    assert pts(Minimisere(trump="S"), "SK") == 3


def test_partners_side_and_team_score():
    g = Minimisere(partners=True)
    assert g.side(0) == (0, 2) and g.side(2) == (0, 2) and g.side(1) == (1, 3)
    assert Minimisere().side(2) == (2,)
    taken = [m("SQ S2 S3 S4"), m("HA H2 H3 H4"), m("HK H5 H6 H7"), 0]
    # seat 0: 10, seat 1: 4, seat 2: 3; team 0+2: 13, team 1+3: 4.
    assert g.measure(taken, None, None, g.side(0), "points") == 13
    assert g.measure(taken, None, None, g.side(1), "points") == 4
    assert g.measure(taken, None, None, g.side(0), "tricks") == 2
    assert Minimisere().measure(taken, None, None, (0,), "points") == 10


def test_partners_position_objective_side():
    p = Position.from_json({"game": "minimisere", "options": {"partners": True},
                            "hands": [["SA"], ["SK"], ["SQ"], ["SJ"]]})
    for c in ("SA", "SK", "SQ", "SJ"):
        p.play(c)
    # Seat 0 wins: A 4 + K 3 + Q♠ 10 + J 1 = 18 for team 0+2
    assert p.scores() == [18, 0, 0, 0]
    assert p.measure(Objective(2, "points", "min")) == 18
    assert p.measure(Objective(3, "points", "min")) == 0
    assert p.measure(Objective(2, "tricks", "min")) == 1


def test_options_canonical():
    assert Minimisere().options == {"scoring": "standard", "trump": None, "partners": False, "queen_of_spades": 10}
    with pytest.raises(OptionError, match="partners"):
        Minimisere(partners=1)
