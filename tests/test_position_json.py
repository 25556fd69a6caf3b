"""Positions through FORMAT.md JSON: exact round trip, canonical output, lenient input, repr."""

import json

import pytest

from solver import Objective, Position, cards as C
from solver.deal import Rng, deal, random_positions

# Every game and variant, as deal() options.
VARIANTS = [
    ("minimo", {}), ("minimo", {"trump": "S"}), ("minimo", {"trump": "H", "double_penalty": True}),
    ("minimo", {"open": True}),
    ("minimisere", {}), ("minimisere", {"queen_of_spades": 12}), ("minimisere", {"scoring": "hard"}),
    ("minimisere", {"trump": "D", "partners": True}),
    ("jass", {}), ("jass", {"no_trump_eights": 0}),
    ("moon", {}), ("moon", {"contract": "doubles"}), ("moon", {"contract": "none", "bidder": 2}),
    ("moon", {"contract": "0"}), ("moon", {"players": 4}), ("moon", {"players": 4, "contract": "doubles"}),
    ("bridge", {"trump": "NT"}), ("bridge", {"trump": "S"}),
]

IDS = [f"{g}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for g, o in VARIANTS]


def positions(game, options, count, seed):
    """Random mid-play positions: cut deals (some mid-trick), plus the deal itself and early cuts."""
    yield deal(game, seed, **options)
    yield from random_positions(game, count, seed, cards_left=(1, 9), **options)


@pytest.mark.parametrize("game,options", VARIANTS, ids=IDS)
def test_round_trip_random_positions(game, options):
    rng = Rng(123)
    for p in positions(game, options, 40, 7):
        # a random objective, some with a hero other than the seat to move
        hero = rng.below(p.n_players)
        p.objective = Objective.make(p.game, hero, rng.choice(["tricks", "points"]), rng.choice(["min", "max"]))
        data = p.to_json()
        q = Position.from_json(data)
        assert q == p
        assert hash(q) == hash(p)
        assert q.to_json() == data                                 # stable
        assert Position.from_json(json.dumps(data)) == p           # through a string
        assert json.loads(p.dumps()) == data
        assert q.legal_moves() == p.legal_moves()
        assert q.trump == p.trump and q.to_move == p.to_move
        r = eval(repr(p), {"Position": Position})                  # repr rebuilds the object
        assert r == p


def test_round_trip_jass_trump_fixed_in_current_trick():
    # Find positions where the trump was fixed by a card of the current trick,
    # and check the JSON records it and reads it back.
    found = 0
    for seed in range(300):
        p = deal("jass", seed)
        rng = Rng(seed)
        while not p.is_over():
            before = p.trump
            p.play(rng.choice(p.legal_moves()))
            if before is None and p.trump is not None and p.trick:
                data = p.to_json()
                assert data["options"]["trump"] == C.SUITS[p.trump]
                assert Position.from_json(data) == p
                # with the trump left out, it is derived from the trick
                derived = Position.from_json({**data, "options": {"no_trump_eights": 8}})
                assert derived == p
                found += 1
                break
    assert found > 20


def test_canonical_output_shape():
    p = Position.from_json({"game": "minimo", "hands": ["HK S7 SA", "D9 H9 SQ", "CA H7 S8"]})
    assert p.to_json() == {
        "game": "minimo",
        "options": {"trump": "NT", "double_penalty": False, "open": None},
        "hands": [["SA", "S7", "HK"], ["SQ", "H9", "D9"], ["S8", "H7", "CA"]],
        "leader": 0,
        "trick": [],
        "taken": [[], [], []],
        "objective": {"hero": 0, "measure": "tricks", "goal": "min"},
    }


@pytest.mark.parametrize("spelling", [
    ["SA", "HT", "D7", "C9"],
    ["AS", "TH", "7D", "9C"],            # rank first
    ["SA", "H10", "D7", "C9"],           # 10 for T
    ["10H", "as", "d7", "c9"],           # rank-first 10, lower case
    ["sa", "ht", "d7", "c9"],            # lower case
    ["♠A", "♥T", "♦7", "♣9"],            # symbols
    ["A♠", "10♥", "7♦", "9♣"],           # symbols, rank first
    "SA HT D7 C9",                       # one string
    "A.T.7.9",                           # PBN
    "a.10.7.9",                          # PBN, lower case, 10
])
def test_lenient_cards_give_canonical_output(spelling):
    data = {"game": "minimo", "options": {"trump": "nt"},
            "hands": [spelling, ["SK", "HK", "DK", "CK"], ["SQ", "HQ", "DQ", "CQ"]]}
    out = Position.from_json(data).to_json()
    assert out["hands"][0] == ["SA", "HT", "D7", "C9"]
    assert out["options"]["trump"] == "NT"


def test_pbn_voids_equal_sizes():
    # '-' and an empty holding are both voids
    data = {"game": "bridge", "options": {"trump": "s"},
            "hands": ["AK.Q.-.J", "-.AK.Q.T", "QJ..A.9", "T9.J.K."]}
    out = Position.from_json(data).to_json()
    assert out["hands"] == [["SA", "SK", "HQ", "CJ"], ["HA", "HK", "DQ", "CT"], ["SQ", "SJ", "DA", "C9"],
                            ["ST", "S9", "HJ", "DK"]]
    assert out["options"] == {"trump": "S"}


def test_lenient_tiles_give_canonical_output():
    data = {"game": "moon", "options": {"contract": 3},
            "hands": [["4-6", "1-1", "2-5"], "6-6 3-1 1-2", ["5-5", "4-3", "3-6"]]}
    out = Position.from_json(data).to_json()
    assert out["hands"] == [["6-4", "5-2", "1-1"], ["6-6", "3-1", "2-1"], ["6-3", "5-5", "4-3"]]
    assert out["options"] == {"players": 3, "contract": "3", "bidder": 0}


def test_trick_and_taken_canonical_order():
    # The trick keeps play order; taken is sorted.
    data = {"game": "minimo", "hands": [["S7"], ["H9", "D9"], ["H7", "CA"]],
            "trick": ["sa"], "taken": [["d7", "SQ", "HK"], [], []], "leader": 0}
    out = Position.from_json(data).to_json()
    assert out["trick"] == ["SA"]
    assert out["taken"] == [["SQ", "HK", "D7"], [], []]


def test_options_canonical_for_every_game():
    assert Position.from_json({"game": "Jass", "hands": [["SA"], ["SK"], ["SQ"]]}).to_json()["options"] == \
        {"trump": None, "no_trump_eights": 8}
    assert Position.from_json({"game": "minimisere", "hands": [["SA"], ["SK"], ["SQ"], ["SJ"]]}).to_json()[
        "options"] == {"scoring": "standard", "trump": None, "partners": False, "queen_of_spades": 10}
    assert Position.from_json({"game": "moon", "options": {"contract": "doubles"},
                               "hands": [["6-6"], ["5-5"], ["4-4"], ["3-3"]]}).to_json()["options"] == \
        {"players": 4, "contract": "doubles", "bidder": 0}


def test_minimo_open_cards_drop_out_when_played():
    data = {"game": "minimo", "options": {"open": [["SA"], ["SQ", "D9"], []]},
            "hands": [["SA", "S7", "HK"], ["SQ", "H9", "D9"], ["S8", "H7", "CA"]]}
    p = Position.from_json(data)
    assert p.to_json()["options"]["open"] == [["SA"], ["SQ", "D9"], []]
    p.play("SA")
    p.play("SQ")
    assert p.to_json()["options"]["open"] == [[], ["D9"], []]
    assert Position.from_json(p.to_json()) == p


def test_objective_defaults_and_override():
    data = {"game": "jass", "hands": [["S6", "D6"], ["C8", "C7"], ["SK", "S7", "D7"]], "trick": ["SA", "HA"]}
    p = Position.from_json(data)
    assert p.to_json()["objective"] == {"hero": 2, "measure": "tricks", "goal": "min"}  # hero: seat to move
    p = Position.from_json({**data, "objective": {"measure": "points"}})
    assert p.to_json()["objective"] == {"hero": 2, "measure": "points", "goal": "max"}
    p = Position.from_json({**data, "objective": {"hero": 0, "measure": "points", "goal": "min", "side": [0]}})
    assert p.to_json()["objective"] == {"hero": 0, "measure": "points", "goal": "min"}


def test_different_positions_are_not_equal():
    a = Position.from_json({"game": "minimo", "hands": [["SA"], ["SK"], ["SQ"]]})
    b = Position.from_json({"game": "minimo", "options": {"trump": "S"}, "hands": [["SA"], ["SK"], ["SQ"]]})
    c = Position.from_json({"game": "minimo", "hands": [["SA"], ["SK"], ["SQ"]], "leader": 1})
    d = Position.from_json({"game": "minimo", "hands": [["SA"], ["SK"], ["SQ"]], "objective": {"goal": "max"}})
    assert len({a, b, c, d}) == 4


def test_every_card_in_every_spelling():
    symbols = dict(zip("SHDC", "♠♥♦♣"))
    for index in range(52):
        token = C.format_card(index)
        s, r = token
        ranks = [r, "10"] if r == "T" else [r]
        spellings = []
        for rank in ranks:
            for suit in (s, symbols[s]):
                spellings += [suit + rank, rank + suit, (suit + rank).lower(), (rank + suit).lower()]
        for sp in spellings:
            assert C.parse_card_token(sp) == index, sp
        assert C.card(C.suit_of(index), C.rank_of(index)) == index


def test_every_tile_both_ways():
    for hi in range(7):
        for lo in range(hi + 1):
            t = C.tile(hi, lo)
            assert C.tile_ends(t) == (hi, lo)
            assert C.parse_tile_token(f"{hi}-{lo}") == t == C.parse_tile_token(f"{lo}-{hi}")
            assert C.format_tile(t) == f"{hi}-{lo}"
    assert sorted(C.tile(h, l) for h in range(7) for l in range(h + 1)) == list(range(28))
