"""Mittlere Jass (RULES.md §3), written from the rules, not from the code.

Trump is fixed during play by the first card that fails to follow; once fixed:
L = T: play a trump if you hold one (the lone J excepted); L != T: follow or
trump, never a third suit while holding L; never undertrump a trump already in
the trick unless the hand is all trumps. Trump order J 9 A K Q 10 8 7 6.
Points: non-trump A11 K4 Q3 J2 T10; trump J20 9 14 A11 K4 Q3 T10; last trick
+5; 157 in all; without a fixed trump every 8 counts 8 (or 0 by option).
"""

import pytest

from solver import Position, cards as C
from solver.errors import IllegalMoveError, IllegalTrickError, OptionError
from solver.games import Jass

S, H, D, CL = C.SPADES, C.HEARTS, C.DIAMONDS, C.CLUBS


def m(text):
    return C.mask_of(C.parse_card_token(t) for t in text.split())


def cs(text):
    return [C.parse_card_token(t) for t in text.split()]


def legal(hand, trick, trump, **options):
    g = Jass(**options)
    return set(g.format_hand(g.legal(m(hand), cs(trick), trump)))


def position(hands, trick="", leader=0, trump=None, taken=None, **options):
    return Position.from_json({"game": "jass", "options": {"trump": trump, **options},
                               "hands": hands, "trick": trick.split(), "leader": leader,
                               "taken": taken or [[], [], []]})


# --- the pack ---------------------------------------------------------------

def test_pack_is_36_cards_six_to_ace():
    g = Jass()
    assert C.popcount(g.deck) == 36
    assert g.hand_size == 12 and g.n_players == 3
    for s in "SHDC":
        assert set(g.format_hand(g.deck & C.suit_bits("SHDC".index(s)))) == {s + r for r in "AKQJT9876"}


# --- before trump is fixed: plain must follow --------------------------------

def test_no_trump_yet_must_follow():
    assert legal("S6 SA HJ D9", "SK", None) == {"S6", "SA"}


def test_no_trump_yet_void_plays_anything():
    assert legal("HJ D9 C6", "SK", None) == {"HJ", "D9", "C6"}


def test_lead_is_free():
    assert legal("HJ D9 C6", "", H) == {"HJ", "D9", "C6"}


# --- trump led (L = T) ------------------------------------------------------

def test_trump_led_must_play_a_trump_any_not_necessarily_higher():
    # H6 is the lowest trump and cannot beat HK: still legal, and the
    # off-suit cards are not.
    assert legal("HA H6 S9 DK", "HK", H) == {"HA", "H6"}


def test_trump_led_without_trumps_plays_anything():
    assert legal("S9 DK C6", "HK", H) == {"S9", "DK", "C6"}


def test_bauer_exception_only_trump_is_the_jack():
    # The only trump is the J (the Bauer): any card may be played.
    assert legal("HJ S9 DK", "HK", H) == {"HJ", "S9", "DK"}


def test_bauer_exception_does_not_apply_with_other_trumps():
    assert legal("HJ H6 S9", "HK", H) == {"HJ", "H6"}


def test_bauer_exception_hand_of_only_the_jack():
    assert legal("HJ", "HK", H) == {"HJ"}


def test_no_undertrump_rule_when_trump_is_led():
    # The undertrump rule applies only when L != T: with trump led, a trump
    # lower than the one in the trick must still be played.
    assert legal("H7 S6", "HA", H) == {"H7"}
    assert legal("H7 H9 S6", "HA HK", H) == {"H7", "H9"}


# --- a plain suit led (L != T) ------------------------------------------------

def test_holding_led_suit_may_follow_or_trump_but_not_discard():
    assert legal("SA S6 HQ D9", "SK", H) == {"SA", "S6", "HQ"}


def test_holding_led_suit_without_trumps_must_follow():
    assert legal("SA S6 D9", "SK", H) == {"SA", "S6"}


def test_void_in_led_suit_plays_anything_if_no_trump_in_trick():
    assert legal("H6 D9 C6", "SK", H) == {"H6", "D9", "C6"}


def test_undertrump_forbidden_while_holding_the_led_suit():
    # HA (trump) is in the trick. H9 ranks above A (J > 9 > A), H7 below.
    assert legal("S6 H9 H7 D9", "SK HA", H) == {"S6", "H9"}


def test_undertrump_forbidden_when_void_with_other_cards():
    assert legal("H7 H9 D9 C6", "SK HA", H) == {"H9", "D9", "C6"}


def test_undertrump_only_low_trumps_and_a_side_card():
    assert legal("H7 H6 D9", "SK HA", H) == {"D9"}


def test_undertrump_allowed_with_all_trump_hand():
    # Nothing but trumps: any trump may be played, even under the HA.
    assert legal("H7 H6", "SK HA", H) == {"H7", "H6"}
    assert legal("H7 HJ", "SK HA", H) == {"H7", "HJ"}


def test_undertrump_compares_with_the_highest_trump_in_the_trick():
    # The last of three players sees the led card and one trump; whether a
    # trump is "lower" is by the trump order J 9 A K Q T 8 7 6.
    assert legal("H9 D9", "SK HJ", H) == {"D9"}
    assert legal("HA D9", "SK H9", H) == {"D9"}
    assert legal("HK HA D9", "SK HQ", H) == {"HK", "HA", "D9"}
    assert legal("HT HQ D9", "SK HQ", H) == {"D9"}  # T ranks below Q as a trump


def test_trump_order_j_9_a_k_q_10_8_7_6():
    g = Jass()
    order = ["HJ", "H9", "HA", "HK", "HQ", "HT", "H8", "H7", "H6"]
    for hi in range(len(order)):
        for lo in range(hi + 1, len(order)):
            for trick in ([order[hi], order[lo], "S6"], [order[lo], order[hi], "S6"],
                          ["S6", order[lo], order[hi]]):
                w = g.winner(cs(" ".join(trick)), H)
                assert trick[w] == order[hi], (trick, w)


def test_plain_order_a_k_q_j_10_9_8_7_6():
    g = Jass()
    order = ["SA", "SK", "SQ", "SJ", "ST", "S9", "S8", "S7", "S6"]
    for trump in (None, H):
        for hi in range(len(order)):
            for lo in range(hi + 1, len(order)):
                assert g.winner(cs(f"{order[lo]} {order[hi]} D6"), trump) == 1
                assert g.winner(cs(f"{order[hi]} {order[lo]} D6"), trump) == 0


def test_any_trump_beats_the_led_suit():
    assert Jass().winner(cs("SA H6 SK"), H) == 1


def test_off_suit_non_trump_never_wins():
    assert Jass().winner(cs("S6 DA CA"), H) == 0
    assert Jass().winner(cs("S6 DA CA"), None) == 0


# --- trump fixed during play ------------------------------------------------

def test_first_off_suit_card_fixes_trump_and_wins_its_trick():
    # Seat 1 is void in spades and plays H6: hearts become trump at once and
    # the H6 (lowest trump) beats both spades.
    p = position([["SA", "S6", "D6"], ["H6", "C6", "C7"], ["SK", "S7", "D7"]])
    assert p.trump is None
    p.play("SA")
    p.play("H6")
    assert p.trump == H
    # Seat 2 holds spades and no trump: must follow spades, D7 (third suit) not allowed.
    assert set(p.game.format_hand(p.legal_mask())) == {"SK", "S7"}
    p.play("SK")
    assert p.leader == 1  # H6 won
    assert p.taken[1] == m("SA H6 SK")
    assert p.to_json()["options"]["trump"] == "H"


def test_later_player_in_fixing_trick_may_trump_instead_of_following():
    # After SA, HA (fixes hearts), seat 2 holds SK, H6, HJ, DA:
    # may follow (SK) or trump over (HJ); not H6 (undertrump), not DA (third suit).
    # Under plain must follow only SK would be legal.
    p = position([["SA", "S6", "D6", "D8"], ["HA", "C6", "C7", "C8"], ["SK", "H6", "HJ", "DA"]])
    p.play("SA")
    p.play("HA")
    assert set(p.game.format_hand(p.legal_mask())) == {"SK", "HJ"}
    with pytest.raises(IllegalMoveError):
        p.play("H6")
    with pytest.raises(IllegalMoveError):
        p.play("DA")
    p.play("HJ")
    assert p.leader == 2  # HJ is the highest trump


def test_second_off_suit_card_in_same_trick_does_not_change_trump():
    # Seats 1 and 2 are both void in spades: D6 fixes diamonds; C A is then a
    # mere discard (neither led suit nor trump) and D6 wins.
    p = position([["SA", "S6"], ["D6", "D7"], ["CA", "CK"]])
    p.play("SA")
    p.play("D6")
    p.play("CA")
    assert p.trump == D
    assert p.leader == 1


def test_trump_stays_fixed_for_the_rest_of_the_hand():
    p = position([["SA", "HA"], ["D6", "HK"], ["SK", "H6"]])
    for c in ("SA", "D6", "SK"):   # D6 fixes diamonds, wins
        p.play(c)
    assert p.trump == D and p.leader == 1
    # Seat 1 leads HK; everyone follows hearts; no card changes the trump.
    for c in ("HK", "H6", "HA"):
        p.play(c)
    assert p.trump == D
    assert p.leader == 0  # HA wins the hearts trick (A > K as plain cards)


def test_completed_tricks_keep_their_winners():
    # Trick 1, no trump yet: HA H9 H6 - plain order, the HA wins for seat 0.
    # Trick 2: SA, then seat 1 (void in spades) plays HK, fixing hearts, and
    # wins. Under the trump order H9 would beat HA, but trick 1 was complete
    # before hearts became trump: it stays with seat 0.
    p = position([["HA", "SA"], ["H9", "HK"], ["H6", "SK"]])
    for c in ("HA", "H9", "H6"):
        p.play(c)
    assert p.leader == 0
    for c in ("SA", "HK", "SK"):
        p.play(c)
    assert p.trump == H
    assert p.taken[0] == m("HA H9 H6")
    assert p.taken[1] == m("SA HK SK")
    # Scores with hearts trump: seat 0 HA 11 + H9 14 = 25 (retroactive 9);
    # seat 1: SA 11 + HK 4 + SK 4 + last trick 5 = 24.
    assert p.scores() == [25, 24, 0]


# --- scoring ----------------------------------------------------------------

def test_card_values():
    g = Jass()
    plain = {"A": 11, "K": 4, "Q": 3, "J": 2, "T": 10, "9": 0, "8": 0, "7": 0, "6": 0}
    trump = {"J": 20, "9": 14, "A": 11, "K": 4, "Q": 3, "T": 10, "8": 0, "7": 0, "6": 0}
    for r, v in plain.items():
        assert g.card_points(m("S" + r), H) == v
    for r, v in trump.items():
        assert g.card_points(m("H" + r), H) == v
    # no trump fixed: 8 counts 8 by default, J is a plain J, 9 is 0
    assert g.card_points(m("S8 H8"), None) == 16
    assert g.card_points(m("HJ H9"), None) == 2
    assert Jass(no_trump_eights=0).card_points(m("S8 H8"), None) == 0
    # with a trump fixed the eights are 0, whatever the option
    assert Jass(no_trump_eights=8).card_points(m("S8 H8"), H) == 0


def test_all_cards_total_157_with_every_trump_and_without():
    g = Jass()
    for trump in (None, S, H, D, CL):
        # one seat takes everything, including the last trick (+5)
        assert g.scores([g.deck, 0, 0], trump, 0) == [157, 0, 0]
    assert Jass(no_trump_eights=0).scores([g.deck, 0, 0], None, 0) == [125, 0, 0]
    assert Jass(no_trump_eights=0).scores([g.deck, 0, 0], D, 0) == [157, 0, 0]


def test_retroactive_trump_values():
    # Trick 1, no trump yet: HJ H6 H7, seat 0 wins (J highest plain heart).
    # Trick 2: seat 0 leads SA; seat 1 (void in spades) plays HA, fixing
    # hearts, and wins; seat 2 must follow with SK. Last trick to seat 1.
    # The HJ, won as a plain J (2), now counts as the trump J: 20.
    # Seat 0: HJ 20 + H6 0 + H7 0 = 20. Seat 1: SA 11 + HA 11 + SK 4 + 5 = 31.
    p = position([["HJ", "SA"], ["H6", "HA"], ["H7", "SK"]])
    for c in ("HJ", "H6", "H7", "SA", "HA", "SK"):
        p.play(c)
    assert p.is_over() and p.trump == H
    assert p.scores() == [20, 31, 0]
    assert p.measure(p.objective.__class__(0, "points", "max")) == 20


def test_no_trump_ever_fixed_eights_count_8_or_0():
    # Everyone always follows: S8 S6 S7 (seat 0 wins), H8 H6 H7 (seat 0),
    # DA D6 D7 (seat 0, last trick). Seat 0: 8 + 8 + 11 + 5 = 32.
    hands = [["S8", "H8", "DA"], ["S6", "H6", "D6"], ["S7", "H7", "D7"]]
    for eights, expected in ((8, 32), (0, 16)):
        p = position(hands, no_trump_eights=eights)
        for c in ("S8", "S6", "S7", "H8", "H6", "H7", "DA", "D6", "D7"):
            p.play(c)
        assert p.trump is None
        assert p.scores() == [expected, 0, 0]


def test_last_trick_bonus_goes_to_last_trick_winner_only():
    g = Jass()
    taken = [m("SA SK SQ"), m("S6 S7 S8"), 0]
    assert g.scores(taken, H, 1) == [18, 5, 0]
    assert g.scores(taken, H, None) == [18, 0, 0]  # hand not over


def test_points_default_goal_is_max():
    p = position([["SA"], ["SK"], ["SQ"]])
    assert Position.from_json({**p.to_json(), "objective": {"measure": "points"}}).objective.goal == "max"


# --- options and the trump of a position --------------------------------------

def test_option_no_trump_eights_range():
    with pytest.raises(OptionError, match="no_trump_eights"):
        Jass(no_trump_eights=5)


def test_position_derives_trump_from_off_suit_card_in_trick():
    # Trump null on input, but seat 1 (void in spades) played HA to SA:
    # hearts are trump (fixed by a card in the current trick).
    p = position([["S6", "D6"], ["C6", "C7"], ["SK", "S7", "D7"]], trick="SA HA", leader=0)
    assert p.trump == H
    assert p.to_json()["options"]["trump"] == "H"
    # seat 2 plays under trump rules already
    assert set(p.game.format_hand(p.legal_mask())) == {"SK", "S7"}


def test_position_trump_given_may_have_been_fixed_before_the_trick():
    # trump H given: seat 1 trumped while holding a spade - legal only if
    # hearts were trump before this trick (may trump instead of following).
    p = position([["S6", "D6"], ["S8", "C7"], ["SK", "S7", "D7"]], trick="SA HA", trump="H")
    assert p.trump == H


def test_position_off_suit_card_from_a_player_holding_the_led_suit_is_illegal():
    # Trump null: seat 1 held a spade (S8) but played HA - not allowed before
    # trump is fixed (plain must follow).
    with pytest.raises(IllegalTrickError, match="seat 1"):
        position([["S6", "D6"], ["S8", "C7"], ["SK", "S7", "D7"]], trick="SA HA")
    # Trump C: seat 1 holds spades and played a heart: a third suit.
    with pytest.raises(IllegalTrickError, match="HA"):
        position([["S6", "D6"], ["S8", "C7"], ["SK", "S7", "D7"]], trick="SA HA", trump="C")


def test_three_of_each_suit_no_trump_can_ever_be_fixed():
    # Each hand holds three cards of every suit: every player can always
    # follow, so no card is ever off-suit and no trump is fixed. Totals:
    # 4 x 30 + four eights (8 each, or 0) + last trick 5 = 157 (125).
    from solver.deal import Rng
    hands = [["SA", "SK", "SQ", "HA", "HK", "HQ", "DA", "DK", "DQ", "CA", "CK", "CQ"],
             ["SJ", "ST", "S9", "HJ", "HT", "H9", "DJ", "DT", "D9", "CJ", "CT", "C9"],
             ["S8", "S7", "S6", "H8", "H7", "H6", "D8", "D7", "D6", "C8", "C7", "C6"]]
    for eights, total in ((8, 157), (0, 125)):
        for seed in range(100):
            p = position(hands, no_trump_eights=eights)
            rng = Rng(seed)
            while not p.is_over():
                p.play(rng.choice(p.legal_moves()))
                assert p.trump is None
            assert sum(p.scores()) == total
