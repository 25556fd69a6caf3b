"""Moon (RULES.md §4), written from the rules.

A trump tile belongs only to the trump suit. A non-trump tile led sets the suit
of its higher end; a tile follows suit s when it holds s at either end and is
not a trump. Rank in suit s: s-s, then by the other end. Trump rank for number
t: t-t, then by the other end; for doubles: by pip. Under no trump each double
is the top of its own number. 3 players: 22 tiles (0-1..0-6 removed), 4
players: 28 tiles, partners 0+2 / 1+3.
"""

import pytest

from solver import Position, cards as C
from solver.errors import OptionError, UnknownCardError
from solver.games import Moon


def ts(text):
    return [C.parse_tile_token(t) for t in text.split()]


def tm(text):
    return C.mask_of(ts(text))


def legal(contract, hand, trick, players=3):
    g = Moon(contract=contract, players=players)
    return set(g.format_hand(g.legal(tm(hand), ts(trick), None)))


def win(contract, trick, players=3):
    """The winning tile of a complete trick (3 or 4 tiles)."""
    g = Moon(contract=contract, players=players)
    tiles = trick.split()
    return tiles[g.winner(ts(trick), None)]


ALL_TILES = [f"{hi}-{lo}" for hi in range(7) for lo in range(hi + 1)]


# --- the sets ---------------------------------------------------------------

def test_three_player_set_is_22_tiles_without_0_1_to_0_6():
    g = Moon(contract="none", players=3)
    tiles = set(g.format_hand(g.deck))
    assert len(tiles) == 22
    assert "0-0" in tiles
    assert not {f"{hi}-0" for hi in range(1, 7)} & tiles
    assert {f"{hi}-{lo}" for hi in range(1, 7) for lo in range(1, hi + 1)} <= tiles


def test_four_player_set_is_all_28_tiles():
    g = Moon(contract="none", players=4)
    assert set(g.format_hand(g.deck)) == set(ALL_TILES)


def test_six_zero_is_not_a_tile_of_three_player_moon():
    with pytest.raises(UnknownCardError, match="6-0"):
        Moon(contract="none").parse_piece("6-0")
    assert Moon(contract="none", players=4).parse_piece("0-6") == C.tile(6, 0)


# --- which tiles are trumps -------------------------------------------------

@pytest.mark.parametrize("t", range(7))
def test_number_contract_trumps_are_the_tiles_holding_the_number(t):
    for players in (3, 4):
        g = Moon(contract=str(t), players=players)
        trumps = {x for x in g.format_hand(g.deck) if g.is_trump(C.parse_tile_token(x))}
        expected = {x for x in g.format_hand(g.deck) if str(t) in x.split("-")}
        assert trumps == expected


def test_trump_zero_with_22_tiles_is_only_the_double_blank():
    g = Moon(contract="0", players=3)
    assert [x for x in g.format_hand(g.deck) if g.is_trump(C.parse_tile_token(x))] == ["0-0"]
    # 0-0 led is a trump lead; nobody else can hold a trump: anything goes
    assert legal("0", "6-6 5-1", "0-0") == {"6-6", "5-1"}
    assert win("0", "0-0 6-6 6-5") == "0-0"
    # 0-0 played to a non-trump lead wins it
    assert win("0", "6-5 0-0 6-6") == "0-0"


def test_doubles_contract_trumps_are_the_seven_doubles():
    g = Moon(contract="doubles", players=4)
    trumps = {x for x in g.format_hand(g.deck) if g.is_trump(C.parse_tile_token(x))}
    assert trumps == {f"{i}-{i}" for i in range(7)}


def test_no_trump_contract_has_no_trumps():
    g = Moon(contract="none", players=4)
    assert not any(g.is_trump(t) for t in C.bits(g.deck))


# --- led suit and following ----------------------------------------------------

def test_non_trump_lead_sets_the_suit_of_its_higher_end():
    # 6-3 led (trump 1): the suit is 6. 6-2 follows; 3-2 holds a 3 but not a 6.
    assert legal("1", "3-2 6-2 4-4", "6-3") == {"6-2"}


def test_void_in_led_suit_plays_anything_no_obligation_to_trump():
    assert legal("1", "3-2 4-4 4-1", "6-3") == {"3-2", "4-4", "4-1"}


def test_tile_follows_by_its_lower_end():
    # 5-3 led: suit 5. 6-5 holds a 5 at its lower end and follows.
    assert legal("none", "6-5 4-4 3-2", "5-3") == {"6-5"}


def test_tile_holding_trump_number_does_not_follow_a_plain_suit():
    # Trump 3: 6-4 led opens suit 6. 6-3 is a trump, so it does not follow 6;
    # the hand is void in 6 and may play anything.
    assert legal("3", "6-3 5-1", "6-4") == {"6-3", "5-1"}
    # with a real 6 in hand, the 6 must be played (6-3 is not a 6)
    assert legal("3", "6-3 6-1 5-1", "6-4") == {"6-1"}


def test_trump_lead_must_be_followed_with_a_trump():
    # Trump 5: 6-5 led is a trump lead (not suit 6). 5-2 is a trump.
    assert legal("5", "6-6 6-1 5-2", "6-5") == {"5-2"}
    assert legal("5", "6-6 6-1", "6-5") == {"6-6", "6-1"}


def test_doubles_contract_double_is_not_a_member_of_its_number():
    # Under doubles, 6-6 is a trump and does not follow suit 6.
    assert legal("doubles", "6-6 4-1", "6-4") == {"6-6", "4-1"}
    assert legal("doubles", "6-6 6-1", "6-4") == {"6-1"}
    # a double led is a trump lead: a double must be played if held
    assert legal("doubles", "2-2 4-3 6-4", "4-4") == {"2-2"}


def test_no_trump_double_leads_its_own_number():
    # No trump: 3-3 led opens suit 3; 6-3 follows, 6-6 does not.
    assert legal("none", "6-3 6-6", "3-3") == {"6-3"}


# --- ranks and winners --------------------------------------------------------

@pytest.mark.parametrize("contract", ["none", "0"])
def test_rank_within_a_suit_double_then_other_end(contract):
    # Suit 2: 2-2 > 6-2 > 5-2 > 4-2 > 3-2 > 2-1. Only 2-1 and 2-2 open suit 2
    # when led (higher end 2), so 2-1 leads and the other two follow.
    order = ["2-2", "6-2", "5-2", "4-2", "3-2", "2-1"]
    for hi in range(len(order)):
        for lo in range(hi + 1, len(order)):
            if order[lo] == "2-1":
                trick = ["2-1", order[hi], "5-5"]
            else:
                trick = ["2-1", order[lo], order[hi]]
            assert win(contract, " ".join(trick)) == order[hi], trick
            assert win(contract, " ".join([trick[0], trick[2], trick[1]])) == order[hi], trick


def test_suit_led_by_higher_end_wins_over_tile_holding_only_the_lower_end():
    # 2-1 led opens suit 2; 6-1 holds a 1 only, does not follow, cannot win.
    assert win("none", "2-1 6-1 5-4") == "2-1"
    # 3-2 follows suit 2 and beats 2-1 (3 > 1 on the other end)
    assert win("none", "2-1 6-6 3-2") == "3-2"


def test_trump_rank_for_a_number_double_then_other_end():
    # Trump 3: 3-3 > 6-3 > 5-3 > 4-3 > 3-2 > 3-1
    order = ["3-3", "6-3", "5-3", "4-3", "3-2", "3-1"]
    for hi in range(len(order)):
        for lo in range(hi + 1, len(order)):
            assert win("3", f"6-6 {order[lo]} {order[hi]}") == order[hi]
            assert win("3", f"{order[hi]} {order[lo]} 6-6") == order[hi]


def test_any_trump_beats_the_led_suit():
    assert win("1", "6-5 1-1 6-6") == "1-1"
    assert win("1", "6-5 6-6 2-1") == "2-1"


def test_doubles_contract_trumps_rank_by_pip():
    assert win("doubles", "2-2 5-5 1-1") == "5-5"
    assert win("doubles", "6-4 1-1 6-5") == "1-1"
    assert win("doubles", "0-0 6-5 6-4") == "0-0"
    assert win("doubles", "6-4 6-5 5-4") == "6-5"  # no trump: highest 6


def test_no_trump_double_ranks_highest_in_its_number():
    assert win("none", "6-3 3-3 6-1") == "6-3"   # 3-3 holds no 6
    assert win("none", "3-3 6-3 5-3") == "3-3"
    assert win("none", "6-3 6-6 6-5") == "6-6"
    assert win("none", "6-1 6-5 6-3") == "6-5"


def test_four_player_trick():
    assert win("2", "6-5 6-6 5-1 4-2", players=4) == "4-2"
    assert win("none", "5-0 6-5 5-5 0-0", players=4) == "5-5"  # 5-0 opens suit 5


# --- contract, options, partners, scores ---------------------------------------

def test_contract_is_required_and_checked():
    with pytest.raises(OptionError, match="contract"):
        Moon()
    with pytest.raises(OptionError, match="contract"):
        Moon(contract="7")
    with pytest.raises(OptionError, match="players"):
        Moon(contract="none", players=5)
    assert Moon(contract=4).contract == "4"
    assert Moon(contract="DOUBLES").contract == "doubles"


def test_four_player_partners():
    g = Moon(contract="none", players=4)
    assert g.side(0) == (0, 2) and g.side(3) == (1, 3)
    assert Moon(contract="none").side(1) == (1,)


def test_measure_is_side_tricks_for_both_measures():
    # 4 players, one trick each to seats 0 and 2 (as a team), one to seat 1.
    g = Moon(contract="none", players=4)
    taken = [tm("6-6 6-5 6-4 6-3"), tm("5-5 5-4 5-3 5-2"), tm("4-4 4-3 4-2 4-1"), 0]
    for measure in ("tricks", "points"):
        assert g.measure(taken, None, None, g.side(0), measure) == 2
        assert g.measure(taken, None, None, g.side(1), measure) == 1


def test_position_4p_partners_play_through():
    # Trump 6. Seat 0 leads 6-6 (top trump): all must trump if they can.
    p = Position.from_json({"game": "moon", "options": {"contract": "6", "bidder": 0},
                            "hands": [["6-6", "1-0"], ["6-1", "5-5"], ["2-2", "3-1"], ["6-0", "4-4"]]})
    assert p.game.n_players == 4
    p.play("6-6")
    assert p.legal_moves() == [C.tile(6, 1)]
    p.play("6-1")
    assert set(p.game.format_hand(p.legal_mask())) == {"2-2", "3-1"}
    p.play("2-2")
    p.play("6-0")
    assert p.leader == 0
    # 1-0 led opens suit 1: 3-1 follows (seat 2), 5-5 and 4-4 do not; 3-1 wins.
    p.play("1-0")
    p.play("5-5")
    p.play("3-1")
    p.play("4-4")
    assert p.leader == 2
    assert p.tricks_taken() == [1, 0, 1, 0]
    assert p.measure() == 2  # hero defaults to the seat to move at the start: 0, side 0+2
