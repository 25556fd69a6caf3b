"""openhand's bridge answers against DDS (through endplay), when endplay is installed."""

from __future__ import annotations

import pytest

from solver import Objective, deal, solve
from solver.deal import cut

pytest.importorskip("endplay", reason="DDS comparison needs the dds extra (pip install '.[dds]')")
from solver import dds  # noqa: E402

STRAINS = ("S", "H", "D", "C", "NT")


def lead_tricks(position, engine):
    """Tricks the side to move takes from here on after each legal card (DDS's measure)."""
    obj = Objective.make(position.game, position.to_move, "tricks", "max")
    result = solve(position, obj, engine=engine)
    before = sum(position.game.tricks(position.taken[s]) for s in obj.side(position.game))
    return {card: value - before for card, value in result.moves}


@pytest.mark.parametrize("seed", range(40))
def test_reference_matches_dds_on_endgames(seed):
    # 3-4 cards a hand, every strain, part-played tricks and earlier tricks taken.
    pos = cut(deal("bridge", seed, trump=STRAINS[seed % 5]), 3 + seed % 2, seed % 4, seed)
    assert lead_tricks(pos, "reference") == dds.move_tricks(pos)


def bridge_positions(count, seed0, sizes=(5, 6, 7, 8)):
    """Seeded bridge positions, every strain, two thirds of them mid-trick."""
    for seed in range(seed0, seed0 + count):
        yield cut(deal("bridge", seed, trump=STRAINS[seed % 5]), sizes[seed % len(sizes)], seed % 3, seed)


@pytest.mark.needs_engine
@pytest.mark.parametrize("seed", range(0, 50, 10))
def test_engine_matches_dds(seed):
    from solver.search import fast_available
    if not fast_available():
        pytest.skip("the compiled engine is not available")
    for pos in bridge_positions(10, 1000 + seed):
        assert lead_tricks(pos, "fast") == dds.move_tricks(pos), pos.dumps()


@pytest.mark.slow
@pytest.mark.needs_engine
def test_engine_matches_dds_full_sweep():
    """300 positions of 5-11 cards a hand (pytest -m slow tests/test_dds.py)."""
    bad = [pos.dumps() for pos in bridge_positions(300, 5000, tuple(range(5, 12)))
           if lead_tricks(pos, "fast") != dds.move_tricks(pos)]
    assert not bad, bad[:3]



def full_deals(count, seed0):
    """Seeded full deals, every strain; a third before the opening lead, the others one or
    two cards into the first trick."""
    for seed in range(seed0, seed0 + count):
        yield cut(deal("bridge", seed, trump=STRAINS[seed % 5]), 13, seed % 3, seed)


@pytest.mark.needs_engine
def test_engine_matches_dds_on_full_deals():
    """Every legal card of 50 full deals (about 100 s on two cores)."""
    from solver.search import fast_available
    if not fast_available():
        pytest.skip("the compiled engine is not available")
    bad = [pos.dumps() for pos in full_deals(50, 7700) if lead_tricks(pos, "fast") != dds.move_tricks(pos)]
    assert not bad, bad[:3]


@pytest.mark.slow
@pytest.mark.needs_engine
def test_engine_matches_dds_on_full_deals_sweep():
    """300 more full deals (pytest -m slow tests/test_dds.py; about 10 minutes)."""
    bad = [pos.dumps() for pos in full_deals(300, 9000) if lead_tricks(pos, "fast") != dds.move_tricks(pos)]
    assert not bad, bad[:3]
