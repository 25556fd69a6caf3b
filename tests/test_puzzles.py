"""The puzzle generator: puzzles from fixed seeds, every claim verified with the reference solver."""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET

import pytest

from puzzles.check import check_collection, check_puzzle
from puzzles.equivalence import canonical_key, classes, equivalent
from puzzles.generator import FILTERS, Settings, SettingsError, analyse, generate
from puzzles.puzzle import Collection, CollectionError, Puzzle, load, save
from puzzles.render import show_text, svg
from puzzles.task import Task, default_objective
from puzzles.tree import decision_nodes, max_decisions
from solver import Position, make_game, solve
from solver.deal import random_positions

GAMES = {
    "minimo": Settings("minimo", measure="mixed", cards=(3, 3), engine="reference"),
    "minimisere": Settings("minimisere", measure="mixed", cards=(3, 3), engine="reference"),
    "jass": Settings("jass", measure="mixed", cards=(3, 4), engine="reference"),
    "moon": Settings("moon", cards=(3, 4), engine="reference"),
    "bridge": Settings("bridge", cards=(3, 3), engine="reference"),
}


@pytest.fixture(scope="module", params=sorted(GAMES))
def collection(request: pytest.FixtureRequest) -> Collection:
    return generate(copy.deepcopy(GAMES[request.param]), 2, seed=11, max_candidates=400)


def test_every_claim_holds_under_the_reference_solver(collection: Collection) -> None:
    assert len(collection) == 2
    assert check_collection(collection, engine="reference") == {}


def test_accepted_puzzles_pass_every_filter(collection: Collection) -> None:
    for p in collection.puzzles:
        pos = p.to_position()
        assert pos.to_move == p.player
        res = solve(pos, engine="reference")
        values = dict((pos.game.format_piece(m), v) for m, v in res.moves)
        # The key is one class of equivalent cards; every other move is at least one worse.
        assert all(values[k] == p.value for k in p.key)
        assert all(abs(v - p.value) >= 1 for t, v in values.items() if t not in p.key)
        assert 2 <= p.decisions <= 6 and max_decisions(p.tree) == p.decisions
        for n in decision_nodes(p.tree):
            assert p.tree.out_degree(n) == 1  # one correct class at every decision
        assert all(f is not None for f in p.policies.values())  # every simple policy fails
        assert p.line and p.line[0] in p.key


def test_stats_count_each_filter(collection: Collection) -> None:
    st = collection.stats
    assert set(st["acceptance"]) == set(FILTERS)
    entered, passed = st["entered"], st["passed"]
    assert entered["key"] == st["candidates"]
    for a, b in zip(FILTERS, FILTERS[1:]):
        assert passed[a] == entered[b]  # each filter sees exactly what the previous one passed
    assert passed[FILTERS[-1]] == len(collection)


def test_collections_round_trip_exactly(collection: Collection, tmp_path) -> None:
    save(collection, tmp_path / "c.msgpack")
    save(collection, tmp_path / "c.jsonl")
    assert load(tmp_path / "c.msgpack") == collection
    assert load(tmp_path / "c.jsonl") == collection
    back = load(tmp_path / "c.jsonl")
    assert back.schema == 1 and back.seed == 11 and back.generator["version"]
    assert back.settings["game"] == collection.settings["game"]


def test_generation_is_deterministic() -> None:
    settings = Settings("minimo", cards=(3, 3), engine="reference")
    a = generate(copy.deepcopy(settings), 2, seed=5)
    b = generate(copy.deepcopy(settings), 2, seed=5)
    a.stats.pop("seconds"), b.stats.pop("seconds"), a.stats.pop("per_minute"), b.stats.pop("per_minute")
    assert a == b


def test_easy_pool_has_one_decision() -> None:
    c = generate(Settings("minimo", cards=(3, 3), pool="easy", engine="reference"), 2, seed=3)
    assert [p.decisions for p in c.puzzles] == [1, 1]
    assert all(p.pool == "easy" for p in c.puzzles)
    assert check_collection(c, engine="reference") == {}


def test_check_catches_false_claims(collection: Collection) -> None:
    good = collection.puzzles[0]

    def tampered(change) -> Puzzle:
        p = Puzzle.from_dict(copy.deepcopy(good.to_dict()))
        change(p)
        return p

    def bump_edge(p: Puzzle) -> None:
        u, v = next(iter(p.tree.edges))
        p.tree.edges[u, v]["value"] += 1

    def drop_policy(p: Puzzle) -> None:
        p.policies[next(iter(p.policies))] = None

    def cut_tree(p: Puzzle) -> None:
        p.tree.remove_edges_from(list(p.tree.out_edges(p.tree.graph["root"])))

    for change in (lambda p: setattr(p, "value", p.value + 1),
                   lambda p: setattr(p, "key", [m for m, _ in p.moves if m not in p.key][:1]),
                   lambda p: p.moves.__setitem__(0, [p.moves[0][0], p.moves[0][1] + 5]),
                   lambda p: setattr(p, "decisions", p.decisions + 1),
                   lambda p: setattr(p, "tags", p.tags + ["throw-in"]),
                   bump_edge, drop_policy, cut_tree):
        assert check_puzzle(tampered(change), engine="reference"), "a false claim went unnoticed"
    dup = Collection([good, good])
    assert any("duplicate" in m for m in check_collection(dup, engine="reference")[good.id])


def test_equivalent_cards_give_equal_values() -> None:
    # Every pair judged equivalent must have the same value, in every game.
    for game, opts in [("minimo", {"trump": "S"}), ("minimisere", {"scoring": "hard"}), ("jass", {}),
                       ("moon", {"contract": "5"}), ("bridge", {"trump": "NT"})]:
        for pos in random_positions(game, 12, seed=4, cards_left=(3, 4), **opts):
            values = dict(solve(pos, engine="reference").moves)
            for group in classes(pos, pos.legal_moves()):
                assert len({values[m] for m in group}) == 1, (game, pos.dumps())


def test_equivalence_and_canonical_key() -> None:
    # Seat 0's SK and SJ are adjacent once the SQ is out of play; its SK and S9 are not (ST is in play).
    pos = Position.from_json({"game": "bridge", "options": {"trump": "NT"},
                              "hands": [["SK", "SJ", "S9"], ["SA", "ST", "H2"], ["H5", "H4", "H3"],
                                        ["D5", "D4", "D3"]]})
    sk, sj, s9 = (pos.game.parse_piece(t) for t in ("SK", "SJ", "S9"))
    assert equivalent(pos, sk, sj) and not equivalent(pos, sj, s9)
    other = Position.from_json({"game": "bridge", "options": {"trump": "NT"},
                                "hands": [["SK", "SQ", "S9"], ["SA", "ST", "H2"], ["H5", "H4", "H3"],
                                          ["D5", "D4", "D3"]]})
    assert canonical_key(pos) == canonical_key(other)
    # Different points break equivalence: the minimisere Q of spades is not the K's twin.
    mini = Position.from_json({"game": "minimisere", "hands": [["SK", "SQ"], ["H2", "H3"], ["D2", "D3"],
                                                                ["C2", "C3"]]})
    assert not equivalent(mini, *(mini.game.parse_piece(t) for t in ("SK", "SQ")))


def test_tasks_for_moon_and_bridge() -> None:
    moon = make_game("moon", contract="5", bidder=1)
    obj = default_objective(moon, 0)
    assert (obj.hero, obj.goal) == (1, "max")
    task = Task(0, obj)
    assert task.team(moon) == (0, 2) and task.takes(moon) and not task.wants_more(moon)
    bridge = make_game("bridge", trump="S")
    task = Task(2, default_objective(bridge, 2))
    assert task.team(bridge) == (0, 2) and task.takes(bridge)
    assert "hold seats 1+3 to as few tricks" in task.describe(bridge)
    mini = make_game("minimo")
    task = Task(1, default_objective(mini, 1, "points"))
    assert task.team(mini) == (1,) and not task.takes(mini)


def test_show_and_svg(collection: Collection) -> None:
    p = collection.puzzles[0]
    hidden, shown = show_text(p), show_text(p, answer=True)
    assert "Answer" not in hidden and "Answer" in shown and p.line[0] in shown
    root = ET.fromstring(svg(p, answer=True))
    pos = p.to_position()
    drawn = root.findall(".//{http://www.w3.org/2000/svg}g")
    assert len(drawn) == sum(h.bit_count() for h in pos.hands) + len(pos.trick)


def test_bad_settings_and_files(tmp_path) -> None:
    with pytest.raises(SettingsError):
        generate(Settings("poker"), 1, 1)
    with pytest.raises(SettingsError):
        generate(Settings("moon", measure="points"), 1, 1)
    with pytest.raises(ValueError):
        generate(Settings("minimo", options={"trump": "X"}), 1, 1)
    bad = tmp_path / "bad.msgpack"
    bad.write_bytes(b"\xc1garbage")
    with pytest.raises(CollectionError):
        load(bad)
    with pytest.raises(CollectionError):
        Collection([]).get("nope")


def test_analyse_rejects_a_position_without_choice() -> None:
    from puzzles.generator import Rejected, Stats

    pos = Position.from_json({"game": "minimo", "hands": [["SA"], ["SK"], ["SQ"]]})
    stats = Stats()
    with pytest.raises(Rejected) as e:
        analyse(pos, Task(0, pos.objective), Settings("minimo", engine="reference"), stats)
    assert e.value.filter == "key" and stats.entered["key"] == 1 and stats.passed["key"] == 0


def test_points_margin() -> None:
    c = generate(Settings("minimisere", measure="points", margin=3, cards=(3, 3), engine="reference"), 1, seed=4)
    p = c.puzzles[0]
    assert all(abs(v - p.value) >= 3 for t, v in p.moves if t not in p.key)
    assert check_collection(c, engine="reference") == {}
    c.settings["margin"] = 1000  # a claim of a wider margin than the puzzle has is caught
    assert "margin" in " ".join(check_collection(c, engine="reference")[p.id])


def test_move_tags_name_what_the_move_does() -> None:
    from puzzles.quality import _move_tags

    def tags(data: dict, move: str, takes: bool = False, by_points: bool = False) -> list[str]:
        pos = Position.from_json(data)
        return _move_tags(pos, pos.game.parse_piece(move), takes, by_points)

    # Seat 1 could win the spade with the ace and plays the eight under the nine: a duck.
    duck = {"game": "minimo", "hands": [["HA", "H7"], ["SA", "S8", "D7"], ["S7", "H8", "D8"]], "leader": 0,
            "trick": ["S9"]}
    assert tags(duck, "S8") == ["duck"]
    assert tags(duck, "SA") == ["take the trick early"]
    # Under the led ace, the king is thrown while the seven was available: an unblock.
    unblock = {"game": "minimo", "hands": [["H9", "H7"], ["SK", "S7", "D7"], ["S8", "H8", "D8"]], "leader": 0,
               "trick": ["SA"]}
    assert tags(unblock, "SK") == ["unblock"]
    # Void in hearts, the queen of spades goes on a heart trick in a points puzzle.
    penalty = {"game": "minimisere", "hands": [["H3", "D4"], ["SQ", "C2", "C3"], ["H4", "D5", "D6"],
                                                ["H5", "D7", "D8"]], "leader": 0, "trick": ["H2"]}
    assert tags(penalty, "SQ", by_points=True) == ["discard the penalty card"]
    # A taking side that leads a losing card while holding a sure winner: a throw-in.
    throw = {"game": "bridge", "options": {"trump": "NT"},
             "hands": [["SA", "H2"], ["SK", "H3"], ["S2", "H4"], ["S3", "HA"]], "leader": 0}
    assert tags(throw, "H2", takes=True) == ["throw-in"]
    assert tags(throw, "SA", takes=True) == []
