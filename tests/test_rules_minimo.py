"""Minimo (RULES.md §1), written from the rules.

Penalty per seat: 1 a trick; +5 Q♠, +3 A♥, +2 King of trumps (none under NT),
stacking; each zero-trick player adds +5 to every player with a trick; a
zero-trick player scores 0. Double penalty doubles the three card bonuses only.
"""

import pytest

from solver import Objective, Position, cards as C
from solver.errors import OptionError, UnknownCardError
from solver.games import Minimo


def m(text):
    return C.mask_of(C.parse_card_token(t) for t in text.split())


def cs(text):
    return [C.parse_card_token(t) for t in text.split()]


# Filler tricks of plain cards that carry no bonus (3 cards = one trick).
PLAIN = ["S7 S8 S9", "D7 D8 D9", "C7 C8 C9", "ST SJ SA", "DT DJ DQ", "CT CJ CQ", "H7 H8 H9", "HT HJ HQ",
         "DK DA CK", "SK HK CA"]


def tricks(*idx, extra=""):
    """A taken mask made of the filler tricks ``idx`` plus ``extra`` cards."""
    return m(" ".join(PLAIN[i] for i in idx) + " " + extra)


# --- pack and play ------------------------------------------------------------

def test_pack_is_32_cards_seven_to_ace():
    g = Minimo()
    assert C.popcount(g.deck) == 32 and g.hand_size == 10 and g.dealt_out == 2
    with pytest.raises(UnknownCardError, match="S2"):
        g.parse_piece("S2")
    with pytest.raises(UnknownCardError, match="H6"):
        g.parse_piece("H6")


def test_plain_must_follow_no_obligation_to_trump():
    g = Minimo(trump="H")
    assert set(g.format_hand(g.legal(m("SA S7 H7 DA"), cs("SK"), g.trump))) == {"SA", "S7"}
    assert set(g.format_hand(g.legal(m("H7 DA"), cs("SK"), g.trump))) == {"H7", "DA"}
    assert set(g.format_hand(g.legal(m("H7 DA"), [], g.trump))) == {"H7", "DA"}


def test_winner_highest_trump_else_highest_of_led_suit():
    assert Minimo(trump="H").winner(cs("SA H7 SK"), C.HEARTS) == 1
    assert Minimo(trump="H").winner(cs("SA H7 HA"), C.HEARTS) == 2
    assert Minimo().winner(cs("SA H7 SK"), None) == 0
    assert Minimo().winner(cs("S7 HA DA"), None) == 0       # off-suit aces do not win
    assert Minimo().winner(cs("S7 S8 SA"), None) == 2
    for order in ("SA SK SQ SJ ST S9 S8 S7",):
        ranks = order.split()
        for i in range(len(ranks) - 1):
            assert Minimo().winner(cs(f"{ranks[i + 1]} {ranks[i]} D7"), None) == 1


def test_trump_option_values():
    assert Minimo().options == {"trump": "NT", "double_penalty": False, "open": None}
    assert Minimo(trump="♠").trump == C.SPADES
    assert Minimo(trump="nt").trump is None
    with pytest.raises(OptionError, match="trump"):
        Minimo(trump="X")
    with pytest.raises(OptionError, match="double_penalty"):
        Minimo(double_penalty="yes")


# --- scores -------------------------------------------------------------------

def test_tricks_count_one_each_no_zero_trick_player():
    # 2, 1, 1 tricks, no bonus cards.
    taken = [tricks(0, 1), tricks(2), tricks(3)]
    assert Minimo().scores(taken, None, None) == [2, 1, 1]


def test_one_zero_trick_player_adds_five_to_the_others():
    # Seat 2 takes no trick: seats 0 and 1 (with tricks) get +5 each; seat 2 scores 0.
    taken = [tricks(0, 1), tricks(2), 0]
    assert Minimo().scores(taken, None, None) == [2 + 5, 1 + 5, 0]


def test_two_zero_trick_players_add_ten():
    taken = [tricks(0, 1, 2), 0, 0]
    assert Minimo().scores(taken, None, None) == [3 + 10, 0, 0]


def test_one_player_takes_all_ten_tricks():
    # Widow S7 D7 (no bonus card); seat 1 takes the other 30 cards: 10 tricks,
    # Q♠ 5 + A♥ 3 = 8 (NT: no King bonus), +10 from the two zero-trick players.
    g = Minimo()
    all30 = g.deck & ~m("S7 D7")
    assert g.scores([0, all30, 0], None, 1) == [0, 10 + 8 + 10, 0]
    # ♠ trumps: K♠ +2 more
    assert Minimo(trump="S").scores([0, all30, 0], C.SPADES, 1) == [0, 30, 0]
    # double penalty, ♠ trumps: bonuses 10 + 6 + 4; tricks and zero-trick not doubled
    assert Minimo(trump="S", double_penalty=True).scores([0, all30, 0], C.SPADES, 1) == [0, 10 + 20 + 10, 0]
    # with Q♠ in the widow the bonus is gone
    all30b = g.deck & ~m("SQ D7")
    assert g.scores([all30b, 0, 0], None, 0) == [10 + 3 + 10, 0, 0]


def test_zero_trick_player_scores_zero_even_with_no_cards():
    assert Minimo().scores([tricks(0), 0, 0], None, None)[1:] == [0, 0]


def test_card_bonuses():
    # one trick each; the bonus cards added to seat 0's trick
    g = Minimo()
    base = [tricks(0), tricks(1), tricks(2)]
    assert g.scores(base, None, None) == [1, 1, 1]
    qs = [m("SQ H7 H8"), tricks(1), tricks(2)]
    assert g.scores(qs, None, None)[0] == 1 + 5
    ah = [m("HA H7 H8"), tricks(1), tricks(2)]
    assert g.scores(ah, None, None)[0] == 1 + 3


def test_king_of_trumps_bonus_only_with_a_trump():
    kh = [m("HK H7 H8"), tricks(1), tricks(2)]
    assert Minimo().scores(kh, None, None)[0] == 1            # NT: no King bonus
    assert Minimo(trump="H").scores(kh, C.HEARTS, None)[0] == 1 + 2
    assert Minimo(trump="D").scores(kh, C.DIAMONDS, None)[0] == 1  # K♥ is not the King of trumps
    ks = [m("SK H7 H8"), tricks(1), tricks(2)]
    assert Minimo().scores(ks, None, None)[0] == 1


def test_bonuses_stack_hearts_trump():
    # ♥ trumps: A♥ +3 and K♥ +2 in one trick.
    taken = [m("HA HK H7"), tricks(1), tricks(2)]
    assert Minimo(trump="H").scores(taken, C.HEARTS, None) == [1 + 3 + 2, 1, 1]


def test_bonuses_stack_spades_trump():
    # ♠ trumps: Q♠ +5 and K♠ +2; with A♥ too: +10.
    taken = [m("SQ SK HA"), tricks(1), tricks(2)]
    assert Minimo(trump="S").scores(taken, C.SPADES, None) == [1 + 5 + 2 + 3, 1, 1]
    assert Minimo().scores(taken, None, None) == [1 + 5 + 3, 1, 1]


def test_double_penalty_doubles_only_card_bonuses():
    # Seat 0: 1 trick with Q♠ (5 -> 10); seat 2 no trick (+5 not doubled).
    taken = [m("SQ H7 H8"), tricks(1), 0]
    assert Minimo(double_penalty=True).scores(taken, None, None) == [1 + 10 + 5, 1 + 5, 0]
    taken = [m("SQ SK HA"), tricks(1), tricks(2)]
    assert Minimo(trump="S", double_penalty=True).scores(taken, C.SPADES, None) == [1 + 10 + 4 + 6, 1, 1]


def test_measures_and_objective_on_a_finished_hand():
    # Play a 2-trick endgame: seat 0 takes both tricks, so seats 1 and 2
    # have none: seat 0 scores 2 + 10 = 12 (+5 for the Q♠ it wins).
    p = Position.from_json({"game": "minimo", "hands": [["SA", "HA"], ["SQ", "H7"], ["S7", "H8"]]})
    for c in ("SA", "SQ", "S7", "HA", "H7", "H8"):
        p.play(c)
    assert p.is_over()
    assert p.tricks_taken() == [2, 0, 0]
    # SA wins Q♠ (+5); HA is its own card: +3
    assert p.scores() == [2 + 5 + 3 + 10, 0, 0]
    assert p.measure(Objective(0, "points", "min")) == 20
    assert p.measure(Objective(1, "points", "min")) == 0
    assert p.measure(Objective(0, "tricks", "min")) == 2
