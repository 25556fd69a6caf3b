"""Single-dummy views: exact layout counts, uniform samples, results equal to per-layout solves."""

from __future__ import annotations

import json
from collections import Counter
from math import comb, factorial

import pytest

from solver import Objective, Position, solve
from solver import cards as C
from solver.cli import main
from solver.deal import cut, deal
from solver.errors import DuplicateCardError, FormatError, HandSizeError
from solver.search import fast_available
from solver.single_dummy import View, analyse, count, layouts, sample

needs_engine = pytest.mark.skipif(not fast_available(),
                                  reason="needs the compiled engine (solver._engine is not built): full deals")


def m(text: str) -> int:
    return C.mask_of(C.parse_card_token(t) for t in text.split())


def small_view(**extra) -> View:
    """Minimo, no trump: seat 0 holds SA HA; seats 1 and 2 hold 2 hidden cards each; 2 in the widow.

    The other 26 cards are taken, so 6 are unseen: 6!/(2! 2! 2!) = 90 layouts.
    """
    deck = Position.from_json({"game": "minimo", "hands": [[], [], []]}).game.deck
    rest = [C.format_card(c) for c in C.bits(deck & ~m("SA HA SK SQ HK HQ DA CA"))]
    data = {"game": "minimo", "seat": 0, "hands": [["SA", "HA"], [], []], "taken": [rest[:12], rest[12:], []],
            **extra}
    return View.from_json(data)


def test_small_view_counts_by_hand():
    view = small_view()
    assert view.hidden == [0, 2, 2] and view.out == 2 and C.popcount(view.pool()) == 6
    assert count(view) == factorial(6) // (2 * 2 * 2) == 90
    all_layouts = list(layouts(view))
    assert len(all_layouts) == 90 == len({tuple(x) for x in all_layouts})
    for lay in all_layouts:
        assert lay[0] == 0 and C.popcount(lay[1]) == 2 == C.popcount(lay[2]) and not lay[1] & lay[2]
        assert not (lay[1] | lay[2]) & ~view.pool()


def test_exclusions_count_by_hand():
    # Seat 1 void in spades: its 2 cards come from HK HQ DA CA (C(4,2) = 6), seat 2 takes 2 of the other 4.
    view = small_view(voids=[[], ["S"], []])
    assert count(view) == comb(4, 2) * comb(4, 2) == len(list(layouts(view)))
    assert all(not lay[1] & C.suit_bits(C.SPADES) for lay in layouts(view))
    # Seat 1 cannot hold the DA: it picks 2 of 5 (10), seat 2 any 2 of the 4 left (6).
    view = small_view(exclude=[[], ["DA"], []])
    assert count(view) == comb(5, 2) * comb(4, 2) == len(list(layouts(view)))
    # Both hidden hands void in spades: both spades lie in the widow.
    view = small_view(voids=[[], ["S"], ["S"]])
    assert count(view) == comb(4, 2) == len(list(layouts(view)))


def test_off_suit_play_in_the_trick_makes_a_void():
    # Seat 1 led the HK and seat 2 threw the CA, so seat 2 holds no heart.
    view = small_view(leader=1, trick=["HK", "CA"], hidden=[0, 1, 1])
    assert C.popcount(view.pool()) == 4 and view.exclude[2] & m("HQ") and not view.exclude[1]
    # Pool SK SQ HQ DA: 1 to seat 1, 1 to seat 2, 2 to the widow: 4 * 3 = 12, less the 3 with the HQ in seat 2.
    expected = [lay for lay in _all_assignments(view) if not lay[2] & m("HQ")]
    assert count(view) == len(expected) == len(list(layouts(view))) == 4 * 3 - 3


def _all_assignments(view: View) -> list[list[int]]:
    """Every split of the pool into the hidden counts and the widow, by brute force."""
    from itertools import combinations
    pool = list(C.bits(view.pool()))
    out = []
    for a in combinations(pool, view.hidden[1]):
        rest = [p for p in pool if p not in a]
        for b in combinations(rest, view.hidden[2]):
            out.append([0, C.mask_of(a), C.mask_of(b)])
    return out


def test_fresh_open_minimo_deal_has_16632_layouts():
    pos = deal("minimo", 3, open=True, trump="H")
    view = View.from_position(pos, 1)
    assert view.hidden == [5, 0, 5] and view.out == 2
    assert count(view) == factorial(12) // (factorial(5) ** 2 * 2) == 16632
    assert sum(1 for _ in layouts(view)) == 16632


def test_moon_bidder_knows_its_discard():
    pos = deal("moon", 4)
    bidder = View.from_position(pos, 0)
    assert bidder.out == 0 and C.popcount(bidder.out_known) == 1
    assert count(bidder) == comb(14, 7)
    other = View.from_position(pos, 1)
    assert other.out == 1 and count(other) == factorial(15) // (factorial(7) ** 2)


def test_samples_are_uniform_valid_and_seeded():
    view = small_view(voids=[[], ["S"], []])
    valid = {tuple(x) for x in layouts(view)}
    drawn = [tuple(x) for x in sample(view, 3600, seed=5)]
    assert set(drawn) == valid  # every layout appears, and only valid ones
    freq = Counter(drawn)
    expected = 3600 / len(valid)
    assert all(abs(k - expected) < 5 * expected ** 0.5 for k in freq.values())
    assert drawn[:50] == [tuple(x) for x in sample(view, 50, seed=5)]
    assert drawn[:50] != [tuple(x) for x in sample(view, 50, seed=6)]


def test_view_json_round_trip_and_errors():
    view = small_view(voids=[[], ["S"], []])
    again = View.from_json(json.dumps(view.to_json()))
    assert list(layouts(again)) == list(layouts(view)) and again.objective == view.objective
    with pytest.raises(HandSizeError):
        small_view(hidden=[0, 2, 1])  # 6 unseen, only 5 places
    with pytest.raises(FormatError):
        small_view(hidden=[1, 2, 1])  # the viewer's own hand is known
    with pytest.raises(FormatError):
        View.from_json({"game": "minimo", "hands": [[], [], []]})
    with pytest.raises(DuplicateCardError, match="SA"):
        small_view(hands=[["SA", "HA"], ["SA"], []])


def analyse_by_hand(view: View) -> dict[int, Counter]:
    """Per move, the distribution of values, solving each layout alone."""
    out: dict[int, Counter] = {}
    for lay in layouts(view):
        result = solve(view.position(lay), view.objective, engine="reference")
        for move, value in result.moves:
            out.setdefault(move, Counter())[value] += 1
    return out


@pytest.mark.parametrize("measure", ["tricks", "points"])
def test_analysis_equals_solving_each_layout(measure):
    pos = cut(deal("minimo", 12, open=True, trump="S"), 3, 0, 12)
    view = View.from_position(pos, pos.to_move)
    view.objective = Objective.make(view.game, view.seat, measure)
    result = analyse(view, engine="reference")
    by_hand = analyse_by_hand(view)
    assert result.exact and result.layouts == result.total == count(view)
    assert {s.piece: Counter(s.values) for s in result.moves} == by_hand
    for s in result.moves:
        assert result.worst(s) == max(s.values) and result.best(s) == min(s.values)  # goal min, hero moves
    # best_in: in how many layouts the move reaches that layout's optimum.
    best_counts: Counter = Counter()
    for lay in layouts(view):
        moves = solve(view.position(lay), view.objective, engine="reference").moves
        top = min(v for _, v in moves)
        best_counts.update(mv for mv, v in moves if v == top)
    assert {s.piece: s.best_in for s in result.moves} == {p: best_counts[p] for p in by_hand}
    data = result.to_json()
    assert data["most_often_best"] == [C.format_card(p) for p in result.most_often_best()]
    assert max(best_counts.values()) == max(mv["best_in"] for mv in data["moves"])


def test_generic_view_bridge_declarer_sees_dummy():
    pos = cut(deal("bridge", 6, trump="H"), 3, 0, 6)
    known = [pos.hands[0], 0, pos.hands[2], 0]  # North sees its hand and South's (the dummy)
    view = View(pos.game, 0, known, [0, 3, 0, 3], 0, 0, [], pos.leader, [], pos.taken)
    assert count(view) == comb(6, 3) == len(list(layouts(view)))
    result = analyse(view, engine="reference")
    assert {s.piece: Counter(s.values) for s in result.moves} == analyse_by_hand(view)


def test_sampling_and_processes_agree_with_serial():
    pos = cut(deal("minimo", 13, open=True), 3, 0, 13)
    view = View.from_position(pos, pos.to_move)
    serial = analyse(view, engine="reference").to_json()
    pooled = analyse(view, engine="reference", jobs=2).to_json()
    for d in (serial, pooled):
        d.pop("stats")
    assert pooled == serial
    sampled = analyse(view, engine="reference", samples=40, seed=3)
    assert not sampled.exact and sampled.layouts == 40 and sampled.seed == 3


def test_cli_single_dummy(tmp_path, capsys):
    pos = cut(deal("minimo", 14, open=True), 3, 0, 14)
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(pos.to_json()))
    assert main(["single-dummy", str(path), "--seat", str(pos.to_move), "--engine", "reference", "--json",
                 "--measure", "points"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"] and data["layouts"] == data["total"] and data["objective"]["measure"] == "points"
    view_path = tmp_path / "view.json"
    view_path.write_text(json.dumps(View.from_position(pos, pos.to_move).to_json()))
    assert main(["single-dummy", str(view_path), "--engine", "reference"]) == 0
    assert "best in the most layouts" in capsys.readouterr().out
    assert main(["single-dummy", str(path), "--engine", "reference"]) == 2
    assert "--seat is required" in capsys.readouterr().err


@pytest.mark.needs_engine
@needs_engine
def test_full_deal_sample_equals_solving_each_layout():
    pos = deal("minimo", 21, open=True, trump="D")
    view = View.from_position(pos, 0)
    result = analyse(view, samples=12, seed=4, engine="fast")
    by_hand: dict[int, Counter] = {}
    for lay in sample(view, 12, seed=4):
        for move, value in solve(view.position(lay), view.objective, engine="fast").moves:
            by_hand.setdefault(move, Counter())[value] += 1
    assert {s.piece: Counter(s.values) for s in result.moves} == by_hand


@pytest.mark.parametrize("name,options", [("jass", {}), ("moon", {}), ("moon", {"players": 4}),
                                          ("minimisere", {}), ("minimo", {"trump": "C"})])
@pytest.mark.parametrize("extra", [0, 1, 2])
def test_views_of_every_game_equal_solving_each_layout(name, options, extra):
    pos = cut(deal(name, 30 + extra, **options), 2, extra, 30 + extra)
    seat = pos.to_move
    view = View.from_position(pos, seat)
    assert sum(view.hidden) + view.out == C.popcount(view.pool())
    lays = list(layouts(view))
    assert len(lays) == count(view) and any(lay == [h & ~k for h, k in zip(pos.hands, view.known)]
                                            for lay in lays)  # the real layout is among them
    result = analyse(view, engine="reference")
    assert result.layouts + result.skipped == len(lays)
    assert {s.piece: Counter(s.values) for s in result.moves} == analyse_by_hand(view)
