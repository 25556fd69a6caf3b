"""The reference solver on small endgames of every game, each value worked out by hand.

Notation in the comments: seats 0, 1, 2(, 3) play in that order; "forced"
means the only legal card. The hero's side pursues the goal; every other seat
plays against it (RULES.md §6). Positions with an empty ``taken`` are scored
as whole hands (zero-trick rule, last trick, no-trump eights).
"""

import pytest

from solver import Objective, Position
from solver.reference import solve
from solver.search import solve as api_solve

FORMAT_EXAMPLE = {
    "game": "minimo",
    "options": {"trump": "NT"},
    "hands": [["SA", "S7", "HK"], ["SQ", "H9", "D9"], ["S8", "H7", "CA"]],
    "leader": 0,
    "trick": [],
    "taken": [[], [], []],
    "objective": {"hero": 0, "measure": "tricks", "goal": "min"},
}


def check(data, value, moves, objective=None):
    """Solve and check value, every move's value, best, and that the pv is a legal line worth ``value``."""
    p = Position.from_json(data)
    obj = Objective.make(p.game, *objective) if objective else None
    r = solve(p, obj)
    fmt = p.game.format_piece
    assert r.value == value
    assert [(fmt(c), v) for c, v in r.moves] == list(moves.items())
    assert [fmt(c) for c in r.best] == [c for c, v in moves.items() if v == value]
    # the pv is a legal line from the position to the end of the hand, and reaches the value
    q = p.copy()
    for c in r.pv:
        q.play(c)          # raises IllegalMoveError if not legal
    assert q.is_over()
    assert q.measure(r.objective) == value
    assert fmt(r.pv[0]) in [fmt(c) for c in r.best]
    assert r.stats["nodes"] > 0
    # the search API gives the same answer, with the reference and with the
    # default engine (the compiled one where it is built)
    for engine in ("reference", "auto"):
        r2 = api_solve(p, obj, engine=engine)
        assert (r2.value, r2.moves, r2.best) == (r.value, r.moves, r.best), engine
        q = p.copy()
        for c in r2.pv:
            q.play(c)
        assert q.is_over() and q.measure(r.objective) == value
    # solving does not change the position
    assert p == Position.from_json(data)
    return r


# --- Minimo -------------------------------------------------------------------

def test_format_md_example():
    # Minimise seat 0's tricks.
    # SA: SQ and S8 forced, seat 0 wins; then S7 (nobody else has a spade)
    #     and HK (H9, H7 forced) both win too: 3.
    # S7: SQ, S8 forced, seat 1 wins and leads H9: H7, HK forced, HK wins,
    #     then SA wins: 2 (leading D9 instead would let seat 0 shed HK: 0).
    # HK: H9, H7 forced, HK wins; then S7 (SQ, S8 forced, seat 1 wins, D9
    #     then wins the last trick over CA and SA): 1.
    r = check(FORMAT_EXAMPLE, 1, {"SA": 3, "S7": 2, "HK": 1})
    assert [r.game.format_piece(c) for c in r.best] == ["HK"]
    # The optimal line is unique here (after HK everything but seat 0's S7 is
    # forced, and S7 is its only move that keeps the value): FORMAT.md's pv.
    assert r.to_json()["pv"] == ["HK", "H9", "H7", "S7", "SQ", "S8", "D9", "CA", "SA"]
    assert r.to_json()["objective"] == {"hero": 0, "measure": "tricks", "goal": "min", "side": [0]}
    assert r.to_json()["moves"] == [{"card": "SA", "value": 3}, {"card": "S7", "value": 2},
                                    {"card": "HK", "value": 1}]


def test_format_md_example_points():
    # Minimise seat 0's Minimo penalty (tricks + Q♠ 5 + 5 per zero-trick player).
    # SA: seat 0 takes SQ and all three tricks, the others none: 3 + 5 + 10 = 18.
    # S7: seat 1 wins the SQ; then H9 forces HK to win and SA wins too: seat 0
    #     2 tricks, seat 2 none: 2 + 5 = 7 (D9 instead: seat 0 sheds HK, 0).
    # HK: seat 0 wins; then S7 loses to SQ and D9 wins the last: seat 0 1
    #     trick, seat 1 two, seat 2 none: 1 + 5 = 6 (SA instead: 18).
    data = {**FORMAT_EXAMPLE, "objective": {"hero": 0, "measure": "points", "goal": "min"}}
    check(data, 6, {"SA": 18, "S7": 7, "HK": 6})


def test_format_md_example_with_a_trick_already_taken():
    # As above (points) but seat 2 already took a trick: the zero-trick rule
    # now depends on seat 1 only.
    # SA: 3 tricks + Q♠ 5, seat 1 none: 3 + 5 + 5 = 13.
    # S7: H9 line: seat 0 2 tricks, seats 1 and 2 one each: 2.
    # HK: then S7: seat 0 1 trick, nobody without a trick: 1.
    data = {**FORMAT_EXAMPLE, "taken": [[], [], ["DA", "DK", "DQ"]],
            "objective": {"hero": 0, "measure": "points", "goal": "min"}}
    check(data, 1, {"SA": 13, "S7": 2, "HK": 1})


def test_minimo_mid_trick():
    # After S7 is led, seat 1 must play SQ; the rest is the S7 line above: 2.
    data = {**FORMAT_EXAMPLE, "hands": [["SA", "HK"], ["SQ", "H9", "D9"], ["S8", "H7", "CA"]], "trick": ["S7"]}
    check(data, 2, {"SQ": 2})


def test_minimo_duck_the_queen():
    # Seat 0: SA SQ; seat 1: SK H7; seat 2: S7 H8. Minimise seat 0's penalty.
    # SA: SK, S7 forced, seat 0 wins; SQ then wins too (both void): 2 tricks
    #     + Q♠ 5 + 5 for each of the two zero-trick players = 17.
    # SQ: SK wins (S7 forced) and takes the Q♠; seat 1 leads H7, H8 wins,
    #     seat 0 discards SA: no trick, 0.
    data = {"game": "minimo", "hands": [["SA", "SQ"], ["SK", "H7"], ["S7", "H8"]],
            "objective": {"hero": 0, "measure": "points"}}
    check(data, 0, {"SA": 17, "SQ": 0})
    # Tricks: SA 2, SQ 0.
    check({**data, "objective": {"hero": 0}}, 0, {"SA": 2, "SQ": 0})
    # Hero seat 1 (seat 0 now plays against it, maximising): after SA seat 1
    # takes nothing (0); after SQ seat 1 wins the Q♠ trick: 1 + 5 + 5 (seat 0
    # has no trick) = 11.
    check({**data, "objective": {"hero": 1, "measure": "points"}}, 11, {"SA": 0, "SQ": 11})


# --- Minimisere ------------------------------------------------------------------

MINIMISERE = {"game": "minimisere", "hands": [["SA", "S2"], ["SK", "H5"], ["SQ", "H6"], ["S3", "H7"]]}


def test_minimisere_duck():
    # Seat 0 leads. Minimise seat 0's card points.
    # SA: SK, SQ, S3 forced, seat 0 wins A 4 + K 3 + Q♠ 10 = 17; S2 then wins
    #     the last trick (all void; H5 H6 H7 worth 0): 17.
    # S2: SK, SQ, S3 forced, seat 1 wins; H5 led, H6 H7 follow, seat 0
    #     discards SA, H7 wins: 0.
    check({**MINIMISERE, "objective": {"hero": 0, "measure": "points"}}, 0, {"SA": 17, "S2": 0})


def test_minimisere_queen_12_and_hard():
    # Same lines. Q♠ 12: SA line 4 + 3 + 12 = 19.
    data = {**MINIMISERE, "options": {"queen_of_spades": 12}, "objective": {"hero": 0, "measure": "points"}}
    check(data, 0, {"SA": 19, "S2": 0})
    # Hard: SA line takes everything: A 11 + K 10 + Q 10 + 3 + 2 + 5 + 6 + 7 = 54.
    data = {**MINIMISERE, "options": {"scoring": "hard"}, "objective": {"hero": 0, "measure": "points"}}
    check(data, 0, {"SA": 54, "S2": 0})


def test_minimisere_coalition_and_partners():
    # Hero seat 1 (points, min); seat 0, to move, plays against it:
    # SA: seat 1 takes nothing, 0. S2: seat 1 wins S2 SK SQ S3 = 3 + 10 = 13.
    check({**MINIMISERE, "objective": {"hero": 1, "measure": "points"}}, 13, {"SA": 0, "S2": 13})
    # Partners: hero seat 2 with seat 0. SA: team 17. S2: seat 1 takes the
    # spades, seat 3 the hearts with SA (4): team 0+2 gets 0.
    data = {**MINIMISERE, "options": {"partners": True}, "objective": {"hero": 2, "measure": "points"}}
    check(data, 0, {"SA": 17, "S2": 0})
    # Partners, hero seat 3 (team 1+3), seat 0 maximises it: S2 gives seat 1
    # 13 and seat 3 the SA (4): 17; SA gives team 1+3 nothing.
    data = {**MINIMISERE, "options": {"partners": True}, "objective": {"hero": 3, "measure": "points"}}
    check(data, 17, {"SA": 0, "S2": 17})


def test_minimisere_trump():
    # Hearts trump. SA: seat 0 takes 17 in trick 1; its S2 is then trumped
    # (H7 wins): 17. S2: seat 1 wins and leads the trump H5, H6 H7 follow,
    # seat 0 discards SA: 0.
    data = {**MINIMISERE, "options": {"trump": "H"}, "objective": {"hero": 0, "measure": "points"}}
    check(data, 0, {"SA": 17, "S2": 0})


# --- Mittlere Jass -------------------------------------------------------------------

def test_jass_trump_fixed_by_the_winning_card():
    # Seat 0: SA HJ; seat 1: SK S7; seat 2: SQ D6. No trump yet. Maximise
    # seat 0's card points (default goal for points).
    # SA: seat 1 follows with S7 (SK would give 4 more), SQ forced; SA wins
    #     11 + 0 + 3. Then HJ: seat 1, void, plays SK: spades are trump and
    #     SK wins. Seat 0: SA 11 + SQ 3 (trump values, same here) = 14.
    # HJ: seat 1 trumps (fixing spades). With SK: seat 2 may not undertrump
    #     with SQ and plays D6; SK wins, seat 1 leads S7, SQ and SA must
    #     follow trump, SA wins S7 0 + SQ 3 + SA 11 + last 5 = 19. With S7:
    #     seat 2 D6 lets seat 1 lead SK, SA wins SK 4 + SQ 3 + 11 + 5 = 23,
    #     or seat 2 overtrumps SQ, leads D6, SA wins D6 + SK 4 + 11 + 5 = 20.
    #     The defence picks 19.
    data = {"game": "jass", "hands": [["SA", "HJ"], ["SK", "S7"], ["SQ", "D6"]],
            "objective": {"hero": 0, "measure": "points"}}
    check(data, 19, {"SA": 14, "HJ": 19})


def test_jass_retroactive_trump_values():
    # Seat 0: SA HJ; seat 1: SK S7; seat 2: S9 D6.
    # SA: seat 1 follows S7, S9 forced; SA wins (plain order, no trump yet).
    #     HJ: seat 1 trumps with SK (spades fixed) and wins. The S9 won in
    #     trick 1 now counts as the trump 9: SA 11 + S9 14 + S7 0 = 25
    #     (29 had seat 1 played SK first).
    # HJ: seat 1 trumps S7 (fixing spades), seat 2 discards D6; seat 1 leads
    #     SK, S9 and SA must follow, S9 (9 > A > K in trumps) wins: 0.
    data = {"game": "jass", "hands": [["SA", "HJ"], ["SK", "S7"], ["S9", "D6"]],
            "objective": {"hero": 0, "measure": "points"}}
    check(data, 25, {"SA": 25, "HJ": 0})


@pytest.mark.parametrize("eights,value", [(8, 21), (0, 5)])
def test_jass_no_trump_ever_fixed(eights, value):
    # Everyone follows both tricks; seat 0's eights win both: 8 + 8 + 5 = 21,
    # or just the last trick's 5 when no-trump eights count 0.
    data = {"game": "jass", "options": {"no_trump_eights": eights},
            "hands": [["S8", "H8"], ["S6", "H6"], ["S7", "H7"]], "objective": {"hero": 0, "measure": "points"}}
    check(data, value, {"S8": value, "H8": value})


def test_jass_tricks():
    # Minimise seat 0's tricks in the first Jass position (the defence
    # maximises). SA wins trick 1 and the HJ is trumped: 1. HJ is trumped,
    # and the SA (highest trump left) wins the last trick in every line
    # (SK+D6, S7+D6, S7+SQ; SK+SQ is an undertrump): 1.
    data = {"game": "jass", "hands": [["SA", "HJ"], ["SK", "S7"], ["SQ", "D6"]], "objective": {"hero": 0}}
    check(data, 1, {"SA": 1, "HJ": 1})


# --- Moon ----------------------------------------------------------------------------

def test_moon_three_players_no_trump():
    # Contract none. Seat 0: 6-6 5-1; seat 1: 6-5 5-5; seat 2: 6-4 2-2.
    # Maximise seat 0's tricks.
    # 6-6: suit 6; 6-5 and 6-4 forced; 6-6 (the double) wins; 5-1 then loses
    #      to 5-5: 1.
    # 5-1: suit 5; seat 1 follows with 6-5 (a 5 at its lower end), which
    #      beats 5-1 (6 > 1); seat 1 leads 5-5, seat 0's 6-6 cannot follow: 0.
    data = {"game": "moon", "options": {"contract": "none"},
            "hands": [["6-6", "5-1"], ["6-5", "5-5"], ["6-4", "2-2"]],
            "objective": {"hero": 0, "goal": "max"}}
    check(data, 1, {"6-6": 1, "5-1": 0})


def test_moon_doubles_contract():
    # Doubles are trumps. Seat 0: 6-5 1-1; seat 1: 6-6 5-4; seat 2: 6-4 3-2.
    # 6-5: suit 6; seat 1 is void (6-6 is a trump, not a 6): trumps with
    #      6-6 and wins, leads 5-4, seat 0's 1-1 trumps: 1; or discards 5-4,
    #      6-5 beats 6-4, then 1-1 led loses to 6-6: 1.
    # 1-1: trump lead, 6-6 forced and wins; 5-4 led, 6-5 follows (6 > 4)
    #      and wins: 1.
    data = {"game": "moon", "options": {"contract": "doubles"},
            "hands": [["6-5", "1-1"], ["6-6", "5-4"], ["6-4", "3-2"]],
            "objective": {"hero": 0, "goal": "max"}}
    check(data, 1, {"6-5": 1, "1-1": 1})


def test_moon_trump_number_tiles():
    # Contract 3. Seat 0: 6-3 6-1; seat 1: 6-2 4-4; seat 2: 3-3 5-5.
    # 6-3 is a trump: trump lead, seat 2 must play 3-3 (top trump) and win,
    #      then 5-5 wins: 0.
    # 6-1: suit 6, 6-2 forced and winning (seat 2 void). Seat 2 keeps 3-3:
    #      seat 1 leads 4-4, seat 2 trumps 3-3, above seat 0's 6-3: 0.
    data = {"game": "moon", "options": {"contract": "3"},
            "hands": [["6-3", "6-1"], ["6-2", "4-4"], ["3-3", "5-5"]],
            "objective": {"hero": 0, "goal": "max"}}
    check(data, 0, {"6-3": 0, "6-1": 0})
    # Minimising seat 0 instead (the defence now maximises):
    # 6-3: 3-3 forced, then 5-5 wins over 6-1 (no 5): 0.
    # 6-1: seat 2 trumps trick 1 with 3-3 and leads 5-5; seat 0's 6-3 (a
    #      trump, holding no 5) wins the last trick: 1.
    check({**data, "objective": {"hero": 0, "goal": "min"}}, 0, {"6-3": 0, "6-1": 1})


def test_moon_zero_trump_three_players():
    # Contract 0 with 22 tiles: the only trump is 0-0.
    # Seat 0: 0-0 6-1; seat 1: 6-6 2-1; seat 2: 6-5 5-5.
    # 0-0 wins trick 1 (trump); 6-1 then loses to 6-6 / 6-5: 1.
    # 6-1: suit 6; 6-6 wins; seat 1 leads 2-1 (suit 2), nobody follows, but
    #      seat 0's 0-0 is a trump and wins: 1.
    data = {"game": "moon", "options": {"contract": "0"},
            "hands": [["0-0", "6-1"], ["6-6", "2-1"], ["6-5", "5-5"]],
            "objective": {"hero": 0, "goal": "max"}}
    check(data, 1, {"6-1": 1, "0-0": 1})


def test_moon_four_players_partners():
    # Contract none, 4 players. Seat 0: 6-5 1-0; seat 1: 6-4 4-4;
    # seat 2: 6-6 2-0; seat 3: 5-5 3-1. Maximise the tricks of 0+2.
    # 6-5: suit 6; 6-4 and 6-6 forced; partner's 6-6 wins, leads 2-0 (suit
    #      2), nobody else holds a 2: 2.
    # 1-0: suit 1; only seat 3 holds a 1 (3-1, forced, 3 > 0) and wins, then
    #      5-5 wins (6-5 follows but the double is highest): 0.
    data = {"game": "moon", "options": {"contract": "none"},
            "hands": [["6-5", "1-0"], ["6-4", "4-4"], ["6-6", "2-0"], ["5-5", "3-1"]],
            "objective": {"hero": 0, "goal": "max"}}
    r = check(data, 2, {"6-5": 2, "1-0": 0})
    assert r.objective.side(r.game) == (0, 2)


# --- Bridge --------------------------------------------------------------------------

def test_bridge_finesse():
    # NT. N: SA SQ; E: S4 S3; S: S2 H2; W: SK H3. South (seat 2) leads;
    # maximise N+S tricks.
    # S2: W must follow with SK, N wins with SA and SQ is good: 2.
    # H2: W's H3 wins; N must discard a spade, W leads SK: 1 at best (keep SA).
    data = {"game": "bridge", "options": {"trump": "NT"}, "leader": 2,
            "hands": [["SA", "SQ"], ["S4", "S3"], ["S2", "H2"], ["SK", "H3"]],
            "objective": {"hero": 2, "goal": "max"}}
    check(data, 2, {"S2": 2, "H2": 1})
    # With hearts trump: after S2 SK SA, North's SQ is ruffed by West's H3
    # (South's forced H2 ruff is lower): 1. H2 is a trump lead, West's H3
    # wins, North keeps SA for the SK: 1.
    check({**data, "options": {"trump": "H"}}, 1, {"S2": 1, "H2": 1})


def test_finished_position():
    data = {"game": "minimo", "hands": [[], [], []], "taken": [["SA", "SK", "SQ"], [], []],
            "objective": {"hero": 0, "measure": "points"}}
    p = Position.from_json(data)
    r = solve(p)
    # one trick with the Q♠, two zero-trick players: 1 + 5 + 10
    assert r.value == 16 and r.moves == [] and r.pv == [] and r.best == []


# --- against plain minimax ---------------------------------------------------------------

def plain_minimax(p, obj, side):
    """No memo, no pruning: every line to the end of the hand."""
    if p.is_over():
        return p.measure(obj)
    values = []
    for c in p.legal_moves():
        p.push(c)
        values.append(plain_minimax(p, obj, side))
        p.undo()
    want_max = (p.to_move in side) == (obj.goal == "max")
    return max(values) if want_max else min(values)


CROSS = [("minimo", {}, 3), ("minimo", {"trump": "S", "double_penalty": True}, 3), ("minimo", {"trump": "H"}, 3),
         ("minimisere", {}, 2), ("minimisere", {"scoring": "hard", "trump": "C"}, 2),
         ("minimisere", {"partners": True, "queen_of_spades": 12}, 2),
         ("jass", {}, 3), ("jass", {"no_trump_eights": 0}, 3),
         ("moon", {}, 3), ("moon", {"contract": "doubles"}, 3), ("moon", {"players": 4}, 2),
         ("bridge", {"trump": "NT"}, 2), ("bridge", {"trump": "D"}, 2)]


@pytest.mark.parametrize("game,options,left", CROSS, ids=[f"{g}-{o}" for g, o, _ in CROSS])
def test_reference_matches_plain_minimax(game, options, left):
    # Random positions (some mid-trick, with tricks already taken, and the same
    # cards as composed endgames with nothing taken), every objective.
    from solver.deal import Rng, random_positions
    rng = Rng(len(game) + left)
    for p in random_positions(game, 25, 2024, cards_left=(1, left), **options):
        composed = Position(p.game, p.hands, p.leader, p.trick, None, p.trump)
        for q in (p, composed):
            hero = rng.below(q.n_players)
            for measure in ("tricks", "points"):
                for goal in ("min", "max"):
                    obj = Objective(hero, measure, goal)
                    r = solve(q, obj)
                    side = set(obj.side(q.game))
                    assert r.value == plain_minimax(q.copy(), obj, side), (q.to_json(), obj)
                    for c, v in r.moves:
                        q2 = q.copy()
                        q2.push(c)
                        assert v == plain_minimax(q2, obj, side)
