"""Seeded deals: reproducible, structurally right for every game and variant."""

import pytest

from solver import Position, cards as C
from solver.deal import Rng, cut, deal, playout, random_positions
from solver.games import make_game


def union(masks):
    u = 0
    for m in masks:
        assert u & m == 0, "a card dealt twice"
        u |= m
    return u


# --- the generator ------------------------------------------------------------

def test_rng_is_splitmix64():
    # Published SplitMix64 outputs (Vigna's reference, also java.util.SplittableRandom's
    # mixer): seed 0 and seed 1234567.
    r = Rng(0)
    assert [r.next64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    r = Rng(1234567)
    assert [r.next64() for _ in range(3)] == [6457827717110365317, 3203168211198807973, 9817491932198370423]


def test_rng_below_and_shuffle():
    r = Rng(5)
    xs = [r.below(7) for _ in range(7000)]
    assert set(xs) == set(range(7))
    assert all(800 < xs.count(i) < 1200 for i in range(7))
    items = list(range(20))
    Rng(9).shuffle(items)
    assert sorted(items) == list(range(20)) and items != list(range(20))


# --- reproducibility ----------------------------------------------------------------

VARIANTS = [("minimo", {}), ("minimo", {"trump": "H", "open": True}), ("minimisere", {}),
            ("minimisere", {"partners": True}), ("jass", {}), ("moon", {}), ("moon", {"contract": "doubles"}),
            ("moon", {"players": 4}), ("bridge", {}), ("bridge", {"trump": "S"})]


@pytest.mark.parametrize("game,options", VARIANTS)
def test_same_seed_same_deal(game, options):
    for seed in (0, 1, 2**63 + 5, 987654321):
        a = deal(game, seed, **options)
        b = deal(game, seed, **options)
        assert a == b and a.to_json() == b.to_json()
    assert deal(game, 1, **options).to_json() != deal(game, 2, **options).to_json()


def test_pinned_deals():
    # Regression constants, taken from one run; their structure is checked by
    # the tests below (sizes, leader, widow/discard).
    assert deal("minimo", 1).to_json()["hands"] == [
        ["SQ", "HK", "HT", "H9", "H8", "DT", "D9", "CA", "CK", "C7"],
        ["SJ", "ST", "S8", "HJ", "DQ", "DJ", "D8", "CQ", "CJ", "CT"],
        ["SA", "S9", "S7", "HA", "HQ", "H7", "DA", "DK", "C9", "C8"]]
    moon = deal("moon", 1).to_json()
    assert moon["hands"] == [
        ["6-4", "5-5", "5-2", "4-4", "4-1", "2-2", "2-1"],
        ["6-5", "6-2", "5-3", "4-3", "3-3", "3-2", "0-0"],
        ["6-6", "6-3", "6-1", "5-4", "5-1", "4-2", "3-1"]]
    # The bidder (seat 0) names the number it holds most (4s and 2s: three
    # each, the higher wins ties) and discards its weakest non-trump: the
    # missing tile 1-1 is lower than its 2-1.
    assert moon["options"] == {"players": 3, "contract": "4", "bidder": 0}
    jass = deal("jass", 1).to_json()
    assert jass["hands"][0] == ["SJ", "ST", "HJ", "HT", "H7", "H6", "DJ", "D9", "D6", "CT", "C7", "C6"]


# --- structure ------------------------------------------------------------------------

def test_minimo_deal():
    for seed in range(200):
        p = deal("minimo", seed, trump="S")
        assert [C.popcount(h) for h in p.hands] == [10, 10, 10]
        dealt = union(p.hands)
        assert C.popcount(dealt) == 30 and dealt & ~p.game.deck == 0   # 30 cards in play, 2 in the widow
        assert p.leader == 0 and p.trick == [] and p.taken == [0, 0, 0]
        assert p.game.options["trump"] == "S"


def test_minimo_open_deal():
    for seed in range(50):
        p = deal("minimo", seed, open=True)
        faceup = p.game.open
        assert faceup is not None
        for s in range(3):
            assert C.popcount(faceup[s]) == 5 and faceup[s] & ~p.hands[s] == 0


def test_minimisere_deal_club_two_leads():
    leaders = [0, 0, 0, 0]
    for seed in range(1000):
        p = deal("minimisere", seed)
        assert [C.popcount(h) for h in p.hands] == [13] * 4
        assert union(p.hands) == p.game.deck
        assert p.hands[p.leader] >> C.card(C.CLUBS, C.TWO) & 1
        assert p.to_move == p.leader
        leaders[p.leader] += 1
    assert all(200 < n < 300 for n in leaders)   # each seat holds the club 2 about a quarter of the time


def test_jass_deal():
    for seed in range(200):
        p = deal("jass", seed, no_trump_eights=0)
        assert [C.popcount(h) for h in p.hands] == [12, 12, 12]
        assert union(p.hands) == p.game.deck and C.popcount(p.game.deck) == 36
        assert p.leader == 0 and p.trump is None
        assert p.game.options == {"trump": None, "no_trump_eights": 0}


@pytest.mark.parametrize("bidder", [0, 1, 2])
def test_moon_three_player_deal(bidder):
    for seed in range(200):
        p = deal("moon", seed, bidder=bidder)
        g = p.game
        assert [C.popcount(h) for h in p.hands] == [7, 7, 7]
        dealt = union(p.hands)
        assert C.popcount(dealt) == 21 and dealt & ~g.deck == 0   # 22 tiles, one discarded by the bidder
        assert p.leader == bidder
        assert g.contract in [str(i) for i in range(7)]
        discard = g.deck & ~dealt
        (t,) = C.bits(discard)
        # the bidder discards a non-trump when it can
        if not g.is_trump(t):
            continue
        assert all(g.is_trump(x) for x in C.bits(p.hands[bidder]))


def test_moon_given_contract_and_four_players():
    for seed in range(100):
        p = deal("moon", seed, contract="doubles")
        assert p.game.contract == "doubles"
        p4 = deal("moon", seed, players=4, contract="none", bidder=3)
        assert [C.popcount(h) for h in p4.hands] == [7] * 4
        assert union(p4.hands) == p4.game.deck and C.popcount(p4.game.deck) == 28
        assert p4.leader == 3


def test_bridge_deal():
    p = deal("bridge", 3)
    assert p.game.options == {"trump": "NT"}
    assert union(p.hands) == p.game.deck and p.leader == 0
    assert deal("bridge", 3, trump="H").hands == p.hands    # the trump does not change the cards


def test_deal_is_a_valid_position():
    for game, options in VARIANTS:
        p = deal(game, 11, **options)
        assert Position.from_json(p.to_json()) == p


def test_options_reach_the_game():
    p = deal("minimisere", 4, scoring="hard", queen_of_spades=12, trump="D")
    assert p.game == make_game("minimisere", scoring="hard", queen_of_spades=12, trump="D")


# --- playout, cut, random positions ---------------------------------------------------

def test_playout_is_seeded_and_legal():
    start = deal("jass", 3)
    a, b = playout(start, 20, 99), playout(start, 20, 99)
    assert a == b
    assert sum(C.popcount(h) for h in a.hands) == 36 - 20
    assert start.to_json() == deal("jass", 3).to_json()       # the start is not changed
    assert playout(start, 100, 1).is_over()


def test_cut_leaves_the_asked_cards():
    start = deal("minimisere", 8)
    for left in (1, 3, 6):
        for extra in range(4):
            p = cut(start, left, extra, 5)
            assert len(p.trick) == extra
            assert max(C.popcount(h) for h in p.hands) == left
            assert Position.from_json(p.to_json()) == p


def test_random_positions():
    ps = list(random_positions("moon", 30, 4, cards_left=(2, 4), players=4))
    assert len(ps) == 30
    assert ps == list(random_positions("moon", 30, 4, cards_left=(2, 4), players=4))
    for p in ps:
        assert 1 <= max(C.popcount(h) for h in p.hands) <= 4
