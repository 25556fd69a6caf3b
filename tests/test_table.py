"""DD tables: every cell equals the single solve it stands for; bridge equals DDS's table."""

from __future__ import annotations

import json

import pytest

from solver import Objective, Position, solve
from solver import cards as C
from solver.cli import main
from solver.deal import cut, deal
from solver.search import fast_available
from solver.table import DECLARATIONS, Table, table, tables

needs_engine = pytest.mark.skipif(not fast_available(),
                                  reason="needs the compiled engine (solver._engine is not built): full deals")


def variant(pos: Position, leader: int | None = None, hands: list[int] | None = None, **options) -> Position:
    """``pos`` rebuilt from its JSON with options changed (independent of solver.table's helpers)."""
    data = pos.to_json()
    data["options"] = {**data["options"], **options}
    if leader is not None:
        data["leader"] = leader
    if hands is not None:
        data["hands"] = [pos.game.format_hand(h) for h in hands]
    data.pop("objective")
    return Position.from_json(data)


def single(pos: Position, hero: int, measure: str, goal: str, engine: str) -> int:
    value = solve(pos, Objective.make(pos.game, hero, measure, goal), engine=engine).value
    assert value is not None
    return value


def check_cells(pos: Position, found: list[Table], engine: str) -> int:
    """Every cell of every table against its own solve; returns the number of cells checked."""
    checked = 0
    for t in found:
        for contract in t.contracts:
            for seat in range(pos.n_players):
                if t.game == "bridge":
                    p = variant(pos, trump=contract, leader=(seat + 1) % 4)
                elif t.game == "minimo":
                    p = variant(pos, trump=contract)
                elif t.game == "moon":
                    p = variant(pos, contract=contract)
                elif t.game == "minimisere" and t.measure == "points":
                    p = variant(pos, scoring=contract)
                else:
                    p = pos
                assert t[contract, seat] == single(p, seat, t.measure, t.goal, engine), (t.title, contract, seat)
                checked += 1
    return checked


GAMES = [("minimo", {}), ("minimo", {"double_penalty": True}), ("minimisere", {}),
         ("minimisere", {"partners": True}), ("jass", {}), ("moon", {}), ("moon", {"players": 4}),
         ("bridge", {})]


@pytest.mark.parametrize("name,options", GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_endgame_tables_equal_single_solves(name, options, seed):
    pos = cut(deal(name, seed, **options), 3, 0, seed)
    found = tables(pos, engine="reference")
    assert {(t.measure, t.goal) for t in found} == {
        "minimo": {("tricks", "min"), ("points", "min")},
        "minimisere": {("tricks", "min"), ("points", "min")},
        "jass": {("points", "max"), ("points", "min")},
        "moon": {("tricks", "max")}, "bridge": {("tricks", "max")}}[name]
    assert check_cells(pos, found, "reference") == sum(len(t.contracts) * pos.n_players for t in found)


def test_partners_share_a_value():
    pos = cut(deal("minimisere", 3, partners=True), 3, 0, 3)
    t = table(pos, "points", engine="reference")
    for c in t.contracts:
        assert t[c, 0] == t[c, 2] and t[c, 1] == t[c, 3]


def test_minimisere_declarations_follow_least_tricks():
    pos = cut(deal("minimisere", 4), 3, 0, 4)
    t = table(pos, "tricks", engine="reference")
    least = t[t.contracts[0]]
    assert t.extra["declarations"] == [[d for d in DECLARATIONS if d >= n] for n in least]
    assert t.extra["declare"] == [n if n <= 3 else None for n in least]


def test_moon_discards_are_the_bidders_eight_tiles():
    pos = cut(deal("moon", 5), 3, 0, 5)
    t = table(pos, engine="reference")
    bidder = t.extra["bidder"]
    missing = pos.game.deck & ~(C.mask_of(pos.trick) | pos.hands[0] | pos.hands[1] | pos.hands[2]
                                | pos.taken[0] | pos.taken[1] | pos.taken[2])
    eight = pos.hands[bidder] | missing
    assert set(t.extra["discards"]) == set(pos.game.format_hand(eight))
    assert t.extra["discard"] == pos.game.format_piece(next(C.bits(missing)))
    for tile, row in t.extra["discards"].items():
        hands = list(pos.hands)
        hands[bidder] = eight & ~(1 << pos.game.parse_piece(tile))
        for contract, tricks in row.items():
            assert tricks == single(variant(pos, hands=hands, contract=contract), bidder, "tricks", "max",
                                    "reference")
    # The kept discard's row is the main table's bidder column.
    assert all(t.extra["discards"][t.extra["discard"]][c] == t[c, bidder] for c in t.contracts)
    best = max(v for row in t.extra["discards"].values() for v in row.values())
    bid = t.extra["best_bid"]
    assert (bid is None) == (best < 4)
    if bid:
        assert bid["tricks"] == best and bid["bid"] == (21 if best == 7 else best)
        assert t.extra["discards"][bid["discard"]][bid["contract"]] == best


def test_indexing_printing_and_json():
    pos = cut(deal("bridge", 7, trump="S"), 2, 0, 7)
    t = table(pos, engine="reference")
    assert t["NT", 0] == t["NT"][0] == t["nt", "N"] == t.values["NT"][0]
    assert t["S", "w"] == t["S"][3]
    assert t.to_list() == [t.values[c] for c in ("S", "H", "D", "C", "NT")]
    data = t.to_json()
    assert set(data) == {"game", "measure", "goal", "contracts", "values"}
    assert data["contracts"] == ["S", "H", "D", "C", "NT"] and data["goal"] == "max"
    lines = str(t).splitlines()
    assert lines[1].split() == ["C", "D", "H", "S", "NT"]  # DDS/endplay's column order
    assert [line.split()[0] for line in lines[2:6]] == ["N", "S", "E", "W"]
    assert lines[2].split()[1:] == [str(t[c, "N"]) for c in ("C", "D", "H", "S", "NT")]
    with pytest.raises(KeyError):
        t["X", 0]


def test_bridge_needs_a_trick_boundary():
    pos = cut(deal("bridge", 7), 2, 1, 7)
    with pytest.raises(ValueError, match="between tricks"):
        tables(pos, engine="reference")


def test_process_pool_gives_the_same_tables():
    pos = cut(deal("minimo", 8), 3, 0, 8)
    one = [t.to_json() for t in tables(pos, engine="reference")]
    assert [t.to_json() for t in tables(pos, engine="reference", jobs=2)] == one


def test_cli_table(tmp_path, capsys):
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(cut(deal("minimo", 9, trump="H"), 3, 0, 9).to_json()))
    assert main(["table", str(path), "--engine", "reference", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(t["measure"], t["goal"]) for t in lines] == [("tricks", "min"), ("points", "min")]
    assert main(["table", str(path), "--engine", "reference", "--measure", "points"]) == 0
    out = capsys.readouterr().out
    assert "least penalty" in out and "least tricks" not in out
    assert main(["table", str(tmp_path / "missing.json")]) == 2
    assert "error:" in capsys.readouterr().err


# --- full deals, with the engine ------------------------------------------------

@pytest.mark.needs_engine
@needs_engine
@pytest.mark.parametrize("name,options", [("minimo", {}), ("moon", {}), ("moon", {"players": 4})])
def test_full_deal_tables_equal_single_solves(name, options):
    pos = deal(name, 11, **options)
    found = tables(pos, engine="fast")
    check_cells(pos, found, "fast")
    if name == "moon" and pos.n_players == 3:
        assert len(found[0].extra["discards"]) == 8


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_bridge_endgame_table_equals_dds_solve_board(seed):
    """DDS's CalcDDtable wants full deals; on endgames its SolveBoard values every opening lead."""
    pytest.importorskip("endplay")
    from solver import dds
    p = cut(deal("bridge", seed), 4, 0, seed)
    pos = Position(p.game, p.hands, 0)  # the endgame as a hand of its own, nothing taken
    t = table(pos, engine="reference")
    for strain in t.contracts:
        for declarer in range(4):
            defence = max(dds.move_tricks(variant(pos, trump=strain, leader=(declarer + 1) % 4)).values())
            assert t[strain, declarer] == 4 - defence, (strain, declarer)


@pytest.mark.needs_engine
@needs_engine
@pytest.mark.parametrize("seed", [5, 3] + [pytest.param(s, marks=pytest.mark.slow) for s in range(6, 26)])
def test_bridge_table_equals_dds(seed):
    """DDS's CalcDDtable on full deals (seeds 5 and 3: a few seconds each; 20 more in the slow set,
    and the benchmark set's deals below)."""
    assert_table_equals_dds(deal("bridge", seed))


@pytest.mark.slow
@pytest.mark.needs_engine
@needs_engine
@pytest.mark.parametrize("index", range(20))
def test_bridge_table_equals_dds_on_benchmark_deals(index):
    """The deals of the bridge-nt/full benchmark set (pytest -m slow tests/test_table.py)."""
    from solver import bench
    assert_table_equals_dds(bench.get_set("bridge-nt/full", None)[index])


def assert_table_equals_dds(pos: Position) -> None:
    """The engine's full table of ``pos`` against DDS's CalcDDtable, cell by cell."""
    pytest.importorskip("endplay")
    from solver import dds
    t = table(pos, engine="fast", jobs=2)
    assert dds.dd_table(pos) == {c: t[c] for c in t.contracts}
