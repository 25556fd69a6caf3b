"""Single-dummy Open Minimo puzzles: every claim re-derived here from the layouts, solved one by one."""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from puzzles.check import check_collection, check_puzzle
from puzzles.cli import main
from puzzles.generator import Settings, SettingsError, generate
from puzzles.puzzle import Collection, load, save
from puzzles.referee import AttemptError, judge
from puzzles.render import show_text, svg
from puzzles.single_dummy import FILTERS, POOL, TAG
from solver import Position, solve
from solver import cards as C
from solver.search import fast_available
from solver.single_dummy import View, count, layouts

SAMPLE = Path(__file__).resolve().parent.parent / "puzzles" / "samples" / "open-minimo-sd.msgpack"
needs_engine = pytest.mark.skipif(not fast_available(), reason="needs the compiled engine: 4-6 card views")


@pytest.fixture(scope="module")
def collection() -> Collection:
    # 3-4 cards a hand: a few dozen layouts a view, small enough for the reference solver.
    return generate(Settings("minimo", cards=(3, 4), measure="mixed", single_dummy=True, engine="reference"),
                    3, seed=7, max_candidates=200)


def per_layout(puzzle) -> tuple[int, dict[str, list[int]]]:
    """Each legal move's value in every layout, found without the single-dummy analysis.

    The layouts come from ``solver.single_dummy.layouts``; each position is built here from the
    stored deal with the other seats' hidden cards replaced, and solved alone by the reference solver.
    """
    view = View.from_json(puzzle.single_dummy["view"])
    data = puzzle.position
    values: dict[str, list[int]] = {}
    deal_hands = [C.mask_of(C.parse_card_token(t) for t in h) for h in data["hands"]]
    found_deal = False
    n = 0
    for layout in layouts(view):
        n += 1
        hands = [[C.format_card(c) for c in C.bits(view.known[s] | layout[s])] for s in range(3)]
        assert [C.popcount(view.known[s] | layout[s]) for s in range(3)] == [C.popcount(h) for h in deal_hands]
        found_deal |= [view.known[s] | layout[s] for s in range(3)] == deal_hands
        pos = Position.from_json({**data, "hands": hands})
        res = solve(pos, engine="reference")
        for m, v in res.moves:
            values.setdefault(pos.game.format_piece(m), []).append(v)
    assert found_deal, "the deal the puzzle came from is one of its layouts"
    return n, values


def test_key_is_best_in_at_least_95_percent_of_layouts(collection: Collection) -> None:
    assert len(collection) == 3
    for p in collection.puzzles:
        sd = p.single_dummy
        n, values = per_layout(p)
        assert n == sd["total"] == sd["layouts"] == count(View.from_json(sd["view"])) and sd["exact"]
        best = [min(vals[i] for vals in values.values()) for i in range(n)]  # the player minimises
        share = {t: sum(v == b for v, b in zip(vals, best)) / n for t, vals in values.items()}
        assert all(share[k] >= 0.95 for k in p.key)
        assert all(values[k] == values[p.key[0]] for k in p.key)  # key cards are interchangeable
        assert all(s < 0.95 for t, s in share.items() if t not in p.key)  # the key is the only answer
        # The shipped statistics, move by move.
        for m in sd["moves"]:
            vals = values[m["card"]]
            assert m["layouts"] == n and m["best_in"] == round(share[m["card"]] * n)
            assert m["mean"] == round(sum(vals) / n, 6)
            assert (m["worst"], m["best"]) == (max(vals), min(vals))
            assert m["distribution"] == [[v, k] for v, k in sorted(Counter(vals).items())]
        assert sorted(m["card"] for m in sd["moves"]) == sorted(values)
        assert sd["key_share"] == round(share[p.key[0]], 6) and p.value == max(values[p.key[0]])


def test_labelled_and_checked(collection: Collection) -> None:
    for p in collection.puzzles:
        assert p.pool == POOL == "single-dummy" and TAG in p.tags and p.decisions == 1 and p.line == p.key[:1]
        assert p.single_dummy["threshold"] == 0.95
        assert p.policies["lowest"]["move"] not in p.key  # not obvious: the lowest card fails
    assert check_collection(collection, engine="reference") == {}
    st = collection.stats
    assert set(st["acceptance"]) == set(FILTERS) and st["accepted"] == 3
    assert st["entered"]["layouts"] == st["candidates"]


@pytest.mark.parametrize("tamper", ["share", "mean", "key", "threshold", "view", "pool"])
def test_check_catches_false_claims(collection: Collection, tamper: str) -> None:
    p = copy.deepcopy(collection.puzzles[0])
    sd = p.single_dummy
    if tamper == "share":
        sd["key_share"] = 1.0 if sd["key_share"] < 1 else 0.96
    elif tamper == "mean":
        sd["moves"][-1]["mean"] += 0.5
    elif tamper == "key":
        p.key = [m["card"] for m in sd["moves"] if m["card"] not in p.key][:1]
    elif tamper == "threshold":
        sd["threshold"] = 0.9999 if sd["key_share"] < 1 else 1.0
        if sd["key_share"] == 1.0:  # 100%: raise it past reach instead
            sd["threshold"] = 1.5
    elif tamper == "view":  # a hidden card of another seat shown as known
        view = View.from_json(sd["view"])
        s = next(s for s in range(3) if view.hidden[s])
        hidden = p.to_position().hands[s] & ~view.known[s]
        sd["view"]["hands"][s].append(C.format_card(next(C.bits(hidden))))
        sd["view"]["hidden"][s] -= 1
    else:
        p.pool, p.tags = "main", []
    assert check_puzzle(p, engine="reference")


def test_files_round_trip_with_schema_2(collection: Collection, tmp_path: Path) -> None:
    for name in ("sd.msgpack", "sd.jsonl"):
        save(collection, tmp_path / name)
        back = load(tmp_path / name)
        assert back == collection and back.schema == 2
        assert back.puzzles[0].single_dummy == collection.puzzles[0].single_dummy


def hidden_tokens(p) -> set[str]:
    """The cards of other seats the player cannot see."""
    view = View.from_json(p.single_dummy["view"])
    pos = p.to_position()
    return {C.format_card(c) for s in range(3) if s != p.player for c in C.bits(pos.hands[s] & ~view.known[s])}


def test_text_shows_only_the_view(collection: Collection) -> None:
    for p in collection.puzzles:
        text = show_text(p, answer=True)
        assert "single-dummy" in text and "hidden" in text
        words = set(text.replace(",", " ").split())
        assert not words & hidden_tokens(p), text
        view = View.from_json(p.single_dummy["view"])
        assert all(C.format_card(c) in words for s in range(3) for c in C.bits(view.known[s]))


def test_svg_draws_hidden_cards_as_backs(collection: Collection) -> None:
    ns = {"s": "http://www.w3.org/2000/svg"}
    for p in collection.puzzles:
        root = ET.fromstring(svg(p))
        view = View.from_json(p.single_dummy["view"])
        drawn = []
        for g in root.iter("{http://www.w3.org/2000/svg}g"):
            if g.get("class") == "card":
                rank, suit = (t.text for t in g.findall("s:text", ns))
                drawn.append(C.SUITS[C.SUIT_SYMBOLS.index(suit)] + ("T" if rank == "10" else rank))
        face_up = {C.format_card(c) for s in range(3) for c in C.bits(view.known[s])}
        trick = set(p.to_position().to_json()["trick"])
        assert sorted(drawn) == sorted(face_up | trick) and not set(drawn) & hidden_tokens(p)
        backs = sum(1 for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "back")
        assert backs == sum(view.hidden)


def test_judge_one_move(collection: Collection) -> None:
    p = collection.puzzles[0]
    right = judge(p, [p.key[0]])
    assert right.correct and right.finished and "hands" in right.position and "hidden" in right.position
    wrong = judge(p, [p.policies["lowest"]["move"]])
    assert not wrong.correct and wrong.finished and p.key[0] in wrong.explanation
    with pytest.raises(AttemptError):
        judge(p, [p.key[0], p.key[0]])


def test_settings() -> None:
    with pytest.raises(SettingsError):
        Settings("moon", single_dummy=True).check()
    with pytest.raises(SettingsError):
        Settings("minimo", single_dummy=True, threshold=0.4).check()
    with pytest.raises(SettingsError):
        Settings("minimo", single_dummy=True, options={"open": False}).check()


def test_cli_generate_show_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sd.msgpack"
    assert main(["generate", "--game", "minimo", "--single-dummy", "--cards", "3-4", "--count", "2", "--seed", "3",
                 "--engine", "reference", "--out", str(out)]) == 0
    assert main(["check", str(out), "--engine", "reference"]) == 0
    assert "2/2 puzzles verified" in capsys.readouterr().out
    assert main(["show", str(out)]) == 0
    text = capsys.readouterr().out
    assert "[single-dummy]" in text and "Answer" not in text


@needs_engine
def test_sample_collection_verifies() -> None:
    c = load(SAMPLE)
    assert len(c) >= 5 and all(p.pool == POOL for p in c.puzzles)
    assert all(p.single_dummy["key_share"] >= p.single_dummy["threshold"] >= 0.95 for p in c.puzzles)
    assert check_collection(c, engine="fast") == {}


@needs_engine
def test_fast_engine_views_of_4_to_6_cards() -> None:
    c = generate(Settings("minimo", cards=(4, 6), measure="mixed", single_dummy=True, engine="fast"), 3, seed=5,
                 max_candidates=200)
    assert len(c) == 3 and check_collection(c, engine="fast") == {}
    # The smallest view, re-derived with the reference solver layout by layout.
    small = min(c.puzzles, key=lambda p: p.single_dummy["total"])
    n, values = per_layout(small)
    best = [min(v[i] for v in values.values()) for i in range(n)]
    assert sum(v == b for v, b in zip(values[small.key[0]], best)) >= 0.95 * n


def test_service_shows_the_view_and_judges_one_move(collection: Collection, tmp_path: Path) -> None:
    pytest.importorskip("fastapi", reason="the service needs its extra")
    pytest.importorskip("httpx", reason="FastAPI's test client needs httpx")
    from fastapi.testclient import TestClient

    from puzzles.service.app import Limits, create_app

    save(collection, tmp_path / "sd.msgpack")
    app = create_app(tmp_path / "service.db", [tmp_path / "sd.msgpack"], Limits(workers=1, max_body=4096))
    p = collection.puzzles[0]
    with TestClient(app) as client:
        info = client.get(f"/api/puzzles/{p.id}")
        assert info.status_code == 200
        body = info.text
        assert info.json()["position"] == p.single_dummy["view"] and info.json()["pool"] == POOL
        picture = client.get(f"/api/puzzles/{p.id}/svg").text
        for token in hidden_tokens(p):
            assert f'"{token}"' not in body
        assert 'class="back"' in picture
        wrong = client.post(f"/api/puzzles/{p.id}/attempt", json={"moves": [p.policies["lowest"]["move"]]}).json()
        assert not wrong["correct"] and wrong["finished"] and wrong["answer"]["key"] == p.key
        right = client.post(f"/api/puzzles/{p.id}/attempt", json={"moves": [p.key[0]]}).json()
        assert right["solved"] and right["position"] == p.single_dummy["view"]


def test_threshold_and_sampled_views_are_checked(collection: Collection) -> None:
    from puzzles.single_dummy import make_puzzle
    from puzzles.task import Task

    c = generate(Settings("minimo", cards=(3, 4), single_dummy=True, threshold=0.8, engine="reference"), 2, seed=9,
                 max_candidates=200)
    assert len(c) == 2 and all(p.single_dummy["threshold"] == 0.8 <= p.single_dummy["key_share"] for p in c.puzzles)
    assert check_collection(c, engine="reference") == {}
    # A view over max_layouts is analysed on a seeded sample; the check draws the same sample.
    p = collection.puzzles[0]
    pos = p.to_position()
    sampled = make_puzzle(pos, Task(p.player, pos.objective), max_layouts=5, samples=40, seed=3, engine="reference")
    sd = sampled.single_dummy
    assert not sd["exact"] and sd["layouts"] == 40 and sd["seed"] == 3 and sampled.key == p.key
    assert check_puzzle(sampled, engine="reference") == []
    sd["seed"] = 4
    assert check_puzzle(sampled, engine="reference")


def test_play_asks_one_move_and_shows_only_the_view(collection: Collection) -> None:
    import io

    from puzzles.play import play

    p = collection.puzzles[0]
    out = io.StringIO()
    assert play(p, io.StringIO(f"XX\n{p.key[0]}\n"), out) == 0
    text = out.getvalue()
    assert "Right" in text and "not a move" in text
    assert not set(text.replace(",", " ").replace("(", " ").replace(")", " ").split()) & hidden_tokens(p)
    assert play(p, io.StringIO(p.policies["lowest"]["move"] + "\n"), io.StringIO()) == 1
