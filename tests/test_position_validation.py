"""Bad input: each cause has its ValueError subclass and a message naming the culprit."""

import pytest

from solver import Position
from solver.errors import (DuplicateCardError, FormatError, HandSizeError, IllegalMoveError, IllegalTrickError,
                           ObjectiveError, OptionError, PositionError, UnknownCardError, UnknownGameError)

MINIMO = {"game": "minimo", "options": {"trump": "NT"},
          "hands": [["SA", "S7", "HK"], ["SQ", "H9", "D9"], ["S8", "H7", "CA"]]}


def with_(**fields):
    return {**MINIMO, **fields}


def raises(exc, data, *words):
    with pytest.raises(exc) as info:
        Position.from_json(data)
    assert isinstance(info.value, ValueError) and isinstance(info.value, PositionError)
    for w in words:
        assert w in str(info.value), (w, str(info.value))
    return str(info.value)


def test_the_sample_is_valid():
    assert Position.from_json(MINIMO).to_move == 0


# --- cards ------------------------------------------------------------------

@pytest.mark.parametrize("token", ["SX", "S1", "Z9", "", "SAA", "11S"])
def test_unknown_card_token(token):
    raises(UnknownCardError, with_(hands=[["SA", "S7", token], ["SQ", "H9", "D9"], ["S8", "H7", "CA"]]),
           repr(token))


def test_card_not_in_this_game():
    raises(UnknownCardError, with_(hands=[["SA", "S7", "S2"], ["SQ", "H9", "D9"], ["S8", "H7", "CA"]]),
           "S2", "minimo", "seat 0")
    raises(UnknownCardError, {"game": "jass", "hands": [["S5"], ["S6"], ["S7"]]}, "S5", "jass")


def test_tile_not_in_this_game():
    raises(UnknownCardError, {"game": "moon", "options": {"contract": "none"},
                              "hands": [["6-0"], ["6-6"], ["5-5"]]}, "6-0", "moon")
    raises(UnknownCardError, {"game": "moon", "options": {"contract": "none"},
                              "hands": [["7-1"], ["6-6"], ["5-5"]]}, "7-1")


def test_card_token_in_a_tile_game_and_back():
    raises(UnknownCardError, {"game": "moon", "options": {"contract": "none"},
                              "hands": [["SA"], ["6-6"], ["5-5"]]}, "SA")
    raises(UnknownCardError, with_(hands=[["SA", "S7", "6-6"], ["SQ", "H9", "D9"], ["S8", "H7", "CA"]]), "6-6")


def test_card_not_a_string():
    raises(UnknownCardError, with_(hands=[["SA", "S7", 5], ["SQ", "H9", "D9"], ["S8", "H7", "CA"]]), "5")


def test_bad_pbn_hand():
    raises(UnknownCardError, {"game": "bridge", "options": {"trump": "NT"},
                              "hands": ["AKX...", "...", "...", "..."]}, "X")
    raises(UnknownCardError, {"game": "bridge", "options": {"trump": "NT"},
                              "hands": ["AK.Q", "...", "...", "..."]}, "AK.Q")


# --- duplicates -----------------------------------------------------------------

def test_duplicate_within_a_hand():
    raises(DuplicateCardError, with_(hands=[["SA", "SA", "HK"], ["SQ", "H9", "D9"], ["S8", "H7", "CA"]]), "SA")
    # the same card in two spellings
    raises(DuplicateCardError, with_(hands=[["SA", "as", "HK"], ["SQ", "H9", "D9"], ["S8", "H7", "CA"]]), "SA")


def test_duplicate_across_hands():
    msg = raises(DuplicateCardError, with_(hands=[["SA", "S7", "HK"], ["SQ", "H9", "SA"], ["S8", "H7", "CA"]]),
                 "SA")
    assert "seat 0" in msg and "seat 1" in msg


def test_duplicate_hand_and_trick():
    raises(DuplicateCardError, with_(hands=[["SA", "S7"], ["SQ", "H9", "D9"], ["S8", "H7", "CA"]],
                                     trick=["SA"]), "SA", "trick")


def test_duplicate_within_trick():
    raises(DuplicateCardError, with_(hands=[["S7", "HK"], ["H9", "D9"], ["S8", "H7", "CA"]],
                                     trick=["SA", "SA"]), "SA")


def test_duplicate_hand_and_taken():
    raises(DuplicateCardError, with_(taken=[["SA", "DT", "DJ"], [], []]), "SA", "taken")


def test_duplicate_across_taken():
    raises(DuplicateCardError, with_(taken=[["DA", "DT", "DJ"], ["DA", "CT", "CJ"], []]), "DA")


# --- sizes -----------------------------------------------------------------------

def test_unequal_hand_sizes():
    msg = raises(HandSizeError, with_(hands=[["SA", "S7", "HK"], ["SQ", "H9"], ["S8", "H7", "CA"]]), "seat 1")
    assert "2" in msg


def test_hand_sizes_must_match_the_trick():
    # leader 0 and one card in the trick: seat 0 should hold one card fewer
    raises(HandSizeError, with_(trick=["DA"]))
    # leader 1, trick of one card: seat 1 one fewer, not seat 0
    raises(HandSizeError, with_(hands=[["SA", "S7"], ["SQ", "H9", "D9"], ["S8", "H7", "CA"]],
                                leader=1, trick=["HA"]))


def test_wrong_number_of_hands():
    raises(HandSizeError, with_(hands=[["SA"], ["SQ"]]), "3 seats", "2")
    raises(HandSizeError, with_(taken=[[], []]), "taken")


def test_taken_not_whole_tricks():
    raises(HandSizeError, with_(taken=[["DA", "DT"], [], []]), "seat 0", "2")


def test_complete_trick_in_trick_field():
    raises(IllegalTrickError, with_(hands=[["S7", "HK"], ["H9", "D9"], ["H7", "CA"]], trick=["SA", "SQ", "S8"]),
           "3")


# --- the current trick ------------------------------------------------------------

def test_illegal_current_trick_failed_to_follow():
    # Seat 1 played H9 to the SA lead while holding SQ.
    msg = raises(IllegalTrickError, with_(hands=[["S7", "HK"], ["SQ", "D9"], ["S8", "H7", "CA"]],
                                          trick=["SA", "H9"]), "seat 1", "H9")
    assert "SQ" in msg  # the legal cards are listed


def test_legal_current_trick_accepted():
    p = Position.from_json(with_(hands=[["S7", "HK"], ["H9", "D9"], ["S8", "H7", "CA"]], trick=["SA", "SQ"]))
    assert p.to_move == 2 and p.trick and len(p.trick) == 2


def test_moon_illegal_trick_must_follow_trump():
    # Trump 5: 6-5 led is a trump lead; seat 1 held 5-2 (a trump) but played 3-1.
    raises(IllegalTrickError, {"game": "moon", "options": {"contract": "5"}, "trick": ["6-5", "3-1"],
                               "hands": [["1-1"], ["5-2"], ["4-4", "2-2"]]}, "seat 1", "3-1")


def test_jass_trump_derived_and_checked():
    base = {"game": "jass", "hands": [["S6", "D6"], ["S8", "C7"], ["SK", "S7", "D7"]], "trick": ["SA", "HA"]}
    # Seat 1 held S8: playing HA cannot fix trump (must follow before trump is fixed).
    raises(IllegalTrickError, base, "seat 1", "HA")
    raises(IllegalTrickError, {**base, "options": {"trump": "D"}}, "seat 1", "HA")
    # Void in spades: the HA fixes hearts, derived from the trick.
    ok = {**base, "hands": [["S6", "D6"], ["C8", "C7"], ["SK", "S7", "D7"]]}
    assert Position.from_json(ok).to_json()["options"]["trump"] == "H"


# --- options, game, objective, shape -------------------------------------------------

@pytest.mark.parametrize("game,options,word", [
    ("minimo", {"trump": "X"}, "trump"),
    ("minimo", {"double_penalty": 1}, "double_penalty"),
    ("minimo", {"open": [["SA"], []]}, "open"),
    ("minimisere", {"queen_of_spades": 11}, "queen_of_spades"),
    ("minimisere", {"scoring": "soft"}, "scoring"),
    ("minimisere", {"trump": "NTX"}, "trump"),
    ("jass", {"no_trump_eights": 7}, "no_trump_eights"),
    ("jass", {"trump": "Z"}, "trump"),
    ("moon", {"contract": "8"}, "contract"),
    ("moon", {"contract": "none", "bidder": 3}, "bidder"),
    ("moon", {"contract": "none", "players": 2}, "players"),
    ("moon", {}, "contract"),
    ("bridge", {}, "trump"),
])
def test_option_out_of_range(game, options, word):
    hands = {"minimo": [["SA"], ["SK"], ["SQ"]], "minimisere": [["SA"], ["SK"], ["SQ"], ["SJ"]],
             "jass": [["SA"], ["SK"], ["SQ"]], "moon": [["6-6"], ["5-5"], ["4-4"]],
             "bridge": [["SA"], ["SK"], ["SQ"], ["SJ"]]}[game]
    raises(OptionError, {"game": game, "options": options, "hands": hands}, word)


def test_unknown_option():
    raises(OptionError, with_(options={"trumps": "S"}), "trumps")


def test_options_not_an_object():
    raises(OptionError, with_(options=["S"]))


def test_unknown_game():
    raises(UnknownGameError, with_(game="skat"), "skat")
    raises(UnknownGameError, with_(game=3), "3")


def test_malformed_shapes():
    raises(FormatError, "not json {", "JSON")
    raises(FormatError, "[1, 2]", "object")
    raises(FormatError, {"hands": []}, "game")
    raises(FormatError, {"game": "minimo"}, "hands")
    raises(FormatError, with_(taken="SA"), "taken")
    raises(FormatError, with_(leader=3), "leader")
    raises(FormatError, with_(leader="0"), "leader")


@pytest.mark.parametrize("objective,word", [
    ({"hero": 3}, "hero"), ({"hero": True}, "hero"), ({"measure": "score"}, "measure"),
    ({"goal": "best"}, "goal"), ({"heroes": 1}, "heroes"), ("min", "objective"),
])
def test_bad_objective(objective, word):
    raises(ObjectiveError, with_(objective=objective), word)


def test_illegal_move():
    p = Position.from_json(MINIMO)
    p.play("SA")
    with pytest.raises(IllegalMoveError, match="H9"):
        p.play("H9")          # seat 1 holds SQ: must follow
    with pytest.raises(IllegalMoveError, match="HK"):
        p.play("HK")          # not in seat 1's hand
    with pytest.raises(UnknownCardError):
        p.play("S2")


def test_minimo_open_cards_must_be_in_that_hand():
    # FORMAT.md: 'open' lists per seat the face-up cards still in that hand.
    data = with_(options={"open": [["SQ"], [], []]})          # SQ is in seat 1's hand
    raises(OptionError, data, "SQ", "seat 0")
    raises(OptionError, with_(options={"open": [["S9"], [], []]}), "S9")   # in no hand
    raises(OptionError, with_(options={"open": [["SA"], ["SA"], []]}), "SA")  # face up twice
    ok = Position.from_json(with_(options={"open": [["SA"], ["SQ", "D9"], []]}))
    assert ok.to_json()["options"]["open"] == [["SA"], ["SQ", "D9"], []]


def test_moon_players_must_match_the_hands():
    raises(HandSizeError, {"game": "moon", "options": {"contract": "none", "players": 4},
                           "hands": [["6-6"], ["5-5"], ["4-4"]]}, "4 seats", "3")
    # without 'players' the number of hands decides
    p = Position.from_json({"game": "moon", "options": {"contract": "none"},
                            "hands": [["6-6"], ["5-5"], ["4-4"], ["6-0"]]})
    assert p.game.n_players == 4


@pytest.mark.parametrize("game,options,word", [
    ("moon", {"contract": "none", "players": 3.0}, "players"),
    ("moon", {"contract": "none", "bidder": 1.0}, "bidder"),
    ("moon", {"contract": "none", "bidder": True}, "bidder"),
    ("minimisere", {"queen_of_spades": 12.0}, "queen_of_spades"),
    ("jass", {"no_trump_eights": 8.0}, "no_trump_eights"),
])
def test_option_of_the_wrong_type(game, options, word):
    # A number of the wrong type is an OptionError, not a crash (3.0 seats)
    # nor a silently non-canonical option (12.0).
    hands = {"moon": [["6-6"], ["5-5"], ["4-4"]], "minimisere": [["SA"], ["SK"], ["SQ"], ["SJ"]],
             "jass": [["SA"], ["SK"], ["SQ"]]}[game]
    raises(OptionError, {"game": game, "options": options, "hands": hands}, word)


def test_fuzzed_inputs_raise_only_position_errors():
    # Replace or drop one field (or option) of valid positions with odd
    # values: the only exceptions allowed are PositionError (a ValueError).
    import copy
    import random

    from solver.deal import random_positions
    bases = []
    for g, o in [("minimo", {"open": True}), ("minimisere", {}), ("jass", {}), ("moon", {}),
                 ("moon", {"players": 4}), ("bridge", {})]:
        bases += [p.to_json() for p in random_positions(g, 2, 1, cards_left=(1, 3), **o)]
    weird = [None, True, False, 0, 1, -1, 3.0, 2.5, float("nan"), "", "x", "SA", "6-6", "NT", [], [None], {},
             {"a": 1}, [[]], ["SA"], 12, 10, 8, 4, "doubles", "0", [["SA"]], 2**70]
    option_names = ["players", "contract", "bidder", "trump", "open", "scoring", "queen_of_spades", "partners",
                    "no_trump_eights", "double_penalty"]
    rng = random.Random(0)

    def paths(obj, prefix=()):
        yield prefix
        items = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, list) else ()
        for k, v in items:
            yield from paths(v, prefix + (k,))

    for _ in range(3000):
        d = copy.deepcopy(rng.choice(bases))
        path = rng.choice(list(paths(d))[1:])
        node = d
        for k in path[:-1]:
            node = node[k]
        if rng.random() < 0.8 or not isinstance(node, dict):
            node[path[-1]] = copy.deepcopy(rng.choice(weird))
        else:
            del node[path[-1]]
        if rng.random() < 0.2 and isinstance(d.get("options"), dict):
            d["options"][rng.choice(option_names)] = copy.deepcopy(rng.choice(weird))
        try:
            Position.from_json(d)
        except PositionError:
            pass
