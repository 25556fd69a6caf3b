"""Properties over thousands of random seeded playouts of every game and variant.

Each playout deals with ``solver.deal`` and plays random legal moves to the end
of the hand, checking after every move: the legal set is never empty, lies in
the hand and equals the one written out here from RULES.md; cards are
conserved (hands + trick + taken = the dealt cards, no card twice); a completed
trick goes to exactly one seat, the one that leads next and the one RULES.md
names; undo restores the exact position. At the end the hand totals of
RULES.md hold, computed here from the deal, not from the game's code.
"""

import pytest

from solver import cards as C
from solver.deal import Rng, deal
from solver.games.jass import TRUMP_ORDER

# (game, options, playouts): ~2000+ playouts per game, spread over its variants.
VARIANTS = [
    ("minimo", {}, 500), ("minimo", {"trump": "S"}, 400), ("minimo", {"trump": "H", "double_penalty": True}, 400),
    ("minimo", {"trump": "D"}, 300), ("minimo", {"trump": "C", "open": True}, 300),
    ("minimisere", {}, 600), ("minimisere", {"queen_of_spades": 12}, 400), ("minimisere", {"scoring": "hard"}, 400),
    ("minimisere", {"trump": "H", "partners": True}, 400), ("minimisere", {"trump": "C", "scoring": "hard"}, 200),
    ("jass", {}, 1500), ("jass", {"no_trump_eights": 0}, 1000),
    ("moon", {}, 500), ("moon", {"contract": "doubles"}, 300), ("moon", {"contract": "none"}, 300),
    ("moon", {"contract": "0"}, 300), ("moon", {"contract": "6"}, 200),
    ("moon", {"players": 4}, 300), ("moon", {"players": 4, "contract": "doubles"}, 200),
    ("moon", {"players": 4, "contract": "none"}, 200), ("moon", {"players": 4, "contract": "0"}, 200),
    ("bridge", {"trump": "NT"}, 600), ("bridge", {"trump": "H"}, 600),
]
IDS = [f"{g}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for g, o, _ in VARIANTS]

QS, AH = C.card(C.SPADES, C.QUEEN), C.card(C.HEARTS, C.ACE)


def jass_legal_oracle(hand, trick, trump):
    """RULES.md §3 legal plays, written out independently of solver.games.jass."""
    cards = list(C.bits(hand))
    if not trick:
        return set(cards)
    led = C.suit_of(trick[0])
    follow = [c for c in cards if C.suit_of(c) == led]
    if trump is None:
        return set(follow or cards)
    trumps = [c for c in cards if C.suit_of(c) == trump]
    if led == trump:
        if not trumps or trumps == [C.card(trump, C.JACK)]:
            return set(cards)
        return set(trumps)
    in_trick = [TRUMP_ORDER[C.rank_of(c)] for c in trick if C.suit_of(c) == trump]
    all_trumps = len(trumps) == len(cards)
    ok_trumps = {c for c in trumps if not in_trick or all_trumps or TRUMP_ORDER[C.rank_of(c)] > max(in_trick)}
    if follow:
        return set(follow) | ok_trumps
    return {c for c in cards if C.suit_of(c) != trump} | ok_trumps


def plain_follow_oracle(hand, trick):
    cards = set(C.bits(hand))
    if not trick:
        return cards
    follow = {c for c in cards if C.suit_of(c) == C.suit_of(trick[0])}
    return follow or cards


def moon_is_trump(game, t):
    hi, lo = C.tile_ends(t)
    if game.contract == "doubles":
        return hi == lo
    if game.contract == "none":
        return False
    return int(game.contract) in (hi, lo)


def moon_follows(game, t, suit):
    if suit == "trump":
        return moon_is_trump(game, t)
    return not moon_is_trump(game, t) and suit in C.tile_ends(t)


def moon_led_suit(game, t):
    return "trump" if moon_is_trump(game, t) else C.tile_ends(t)[0]


def moon_legal_oracle(game, hand, trick):
    tiles = set(C.bits(hand))
    if not trick:
        return tiles
    suit = moon_led_suit(game, trick[0])
    return {t for t in tiles if moon_follows(game, t, suit)} or tiles


def winner_oracle(game, trick, trump):
    """The offset of the winning card/tile of a complete trick, from RULES.md."""
    if game.pieces == "tiles":
        def in_number(t, number):        # rank within a number: the double, then the other end
            hi, lo = C.tile_ends(t)
            return 7 if hi == lo else (lo if hi == number else hi)
        trumps = [i for i, t in enumerate(trick) if moon_is_trump(game, t)]
        if trumps:
            if game.contract == "doubles":
                return max(trumps, key=lambda i: C.tile_ends(trick[i])[0])
            return max(trumps, key=lambda i: in_number(trick[i], int(game.contract)))
        suit = moon_led_suit(game, trick[0])
        return max((i for i, t in enumerate(trick) if moon_follows(game, t, suit)),
                   key=lambda i: in_number(trick[i], suit))
    if trump is not None:
        trumps = [i for i, c in enumerate(trick) if C.suit_of(c) == trump]
        if trumps:
            order = TRUMP_ORDER if game.name == "jass" else {r: r for r in range(13)}
            return max(trumps, key=lambda i: order[C.rank_of(trick[i])])
    led = C.suit_of(trick[0])
    return max((i for i, c in enumerate(trick) if C.suit_of(c) == led), key=lambda i: C.rank_of(trick[i]))


def playout(game_name, options, seed):
    p = deal(game_name, seed, **options)
    g = p.game
    n = g.n_players
    dealt = 0
    for h in p.hands:
        dealt |= h
    assert C.popcount(dealt) == n * g.hand_size
    rng = Rng(seed * 7919 + 1)
    fixed = g.initial_trump()          # Jass: trump tracked independently of the code
    while not p.is_over():
        seat = p.to_move
        hand = p.hands[seat]
        legal = p.legal_mask()
        assert legal, "empty legal set"
        assert legal & ~hand == 0, "legal card not in hand"
        if g.name == "jass":
            assert set(C.bits(legal)) == jass_legal_oracle(hand, p.trick, fixed)
        elif g.pieces == "cards":
            assert set(C.bits(legal)) == plain_follow_oracle(hand, p.trick)
        else:
            assert set(C.bits(legal)) == moon_legal_oracle(g, hand, p.trick)
        moves = p.legal_moves()
        piece = rng.choice(moves)
        if rng.below(6) == 0:          # undo restores the exact position
            before_key, before_json = p.key(), p.to_json()
            p.push(piece)
            assert p.undo() == piece
            assert p.key() == before_key and p.to_json() == before_json
        taken_before = list(p.taken)
        leader_before = p.leader
        trick_before = list(p.trick)
        if g.name == "jass" and fixed is None and p.trick and C.suit_of(piece) != C.suit_of(p.trick[0]):
            fixed = C.suit_of(piece)
        p.play(piece)
        assert p.trump == fixed or g.name != "jass"
        if len(trick_before) == n - 1:                 # this move completed a trick
            assert p.trick == []
            changed = [s for s in range(n) if p.taken[s] != taken_before[s]]
            assert len(changed) == 1, "a trick needs exactly one winner"
            w = changed[0]
            assert p.taken[w] == taken_before[w] | C.mask_of(trick_before + [piece])
            assert taken_before[w] & C.mask_of(trick_before + [piece]) == 0
            assert p.leader == w
            # ... and the right one (trump as it stands after the trick's cards)
            assert w == (leader_before + winner_oracle(g, trick_before + [piece], p.trump)) % n
        else:
            assert p.trick == trick_before + [piece] and p.taken == taken_before
        # conservation: every dealt card is in exactly one place
        places = p.hands + p.taken + [C.mask_of(p.trick)]
        union = 0
        for x in places:
            assert union & x == 0, "a card in two places"
            union |= x
        assert union == dealt
    return p, dealt


def check_totals(p, dealt):
    g = p.game
    scores = p.scores()
    tricks = p.tricks_taken()
    if g.name == "minimo":
        assert sum(tricks) == 10
        widow = g.deck & ~dealt
        assert C.popcount(widow) == 2
        bonus = 0
        if not widow >> QS & 1:
            bonus += 5
        if not widow >> AH & 1:
            bonus += 3
        if g.trump is not None and not widow >> C.card(g.trump, C.KING) & 1:
            bonus += 2
        if g.double_penalty:
            bonus *= 2
        assert sum(g.card_points(t, p.trump) for t in p.taken) == bonus
        zero = tricks.count(0)
        for s in range(3):
            if tricks[s] == 0:
                assert scores[s] == 0
            else:
                assert scores[s] == tricks[s] + g.card_points(p.taken[s], p.trump) + 5 * zero
        assert sum(scores) == 10 + bonus + 5 * zero * (3 - zero)
    elif g.name == "minimisere":
        assert sum(tricks) == 13
        expected = 380 if g.scoring == "hard" else 38 + g.queen_of_spades
        assert sum(scores) == expected
        if g.partnership:
            assert p.measure(p.objective.__class__(0, "points", "min")) == scores[0] + scores[2]
    elif g.name == "jass":
        assert sum(tricks) == 12
        if p.trump is None and g.no_trump_eights == 0:
            assert sum(scores) == 125
        else:
            assert sum(scores) == 157
        assert scores[p.leader] >= 5      # the last trick's winner leads "next"
    elif g.name == "moon":
        assert sum(tricks) == 7
        assert scores == tricks
        if g.n_players == 3:
            assert C.popcount(g.deck & ~dealt) == 1      # the bidder's discard
        else:
            assert dealt == g.deck
    elif g.name == "bridge":
        assert sum(tricks) == 13
        assert scores == tricks


@pytest.mark.parametrize("game,options,count", VARIANTS, ids=IDS)
def test_random_playouts(game, options, count):
    for seed in range(count):
        p, dealt = playout(game, options, seed)
        check_totals(p, dealt)


def test_jass_every_suit_becomes_trump_in_some_hand():
    # Play fixes the trump: each suit must turn up as the final trump.
    suits = set()
    for seed in range(200):
        p, _ = playout("jass", {}, seed)
        suits.add(p.trump)
    assert {0, 1, 2, 3} <= suits


def test_full_undo_returns_to_the_deal():
    for game, options in (("jass", {}), ("minimo", {"trump": "S"}), ("moon", {"players": 4}),
                          ("minimisere", {"scoring": "hard"})):
        for seed in range(20):
            p = deal(game, seed, **options)
            start = p.to_json()
            rng = Rng(seed)
            played = []
            while not p.is_over():
                c = rng.choice(p.legal_moves())
                p.play(c)
                played.append(c)
            for c in reversed(played):
                assert p.undo() == c
            assert p.to_json() == start
