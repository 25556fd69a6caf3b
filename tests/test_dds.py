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
