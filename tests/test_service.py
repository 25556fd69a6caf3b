"""The HTTP service through FastAPI's test client: every endpoint and every class of bad input."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi", reason="the service needs its extra (pip install '.[service]')")
pytest.importorskip("httpx", reason="FastAPI's test client needs httpx")
from fastapi.testclient import TestClient  # noqa: E402

from puzzles import puzzle as collection_io  # noqa: E402
from puzzles.generator import Settings, generate  # noqa: E402
from puzzles.service.app import Limits, create_app  # noqa: E402
from puzzles.service.db import Store  # noqa: E402
from solver import Position, solve  # noqa: E402

EXAMPLE = {"game": "minimo", "options": {"trump": "NT"},
           "hands": [["SA", "S7", "HK"], ["SQ", "H9", "D9"], ["S8", "H7", "CA"]]}


@pytest.fixture(scope="module")
def collection(tmp_path_factory):
    """A few small puzzles of two games, made here so the test does not trust a stored answer."""
    puzzles = []
    for game in ("minimo", "moon"):
        puzzles += generate(Settings(game, vary=False, cards=(3, 3), engine="reference"), 2, 1,
                            max_candidates=400).puzzles
    path = tmp_path_factory.mktemp("puzzles") / "sample.msgpack"
    collection_io.save(collection_io.Collection(puzzles, 1), path)
    return path, puzzles


@pytest.fixture(scope="module")
def client(collection, tmp_path_factory):
    path, _ = collection
    db = tmp_path_factory.mktemp("db") / "service.db"
    app = create_app(db, [path], Limits(workers=1, max_body=4096, max_seconds=5.0))
    with TestClient(app) as c:  # runs the lifespan: the solver pool starts and stops
        yield c


def team_moves(client, puzzle_id):
    """Play the puzzle optimally through the API; returns the team's moves and the final answer."""
    info = client.get(f"/api/puzzles/{puzzle_id}").json()
    team = set(info["team"])
    moves, position = [], info["position"]
    for _ in range(20):
        pos = Position.from_json(position)
        assert pos.to_move in team
        best = solve(pos, engine="reference").best
        moves.append(pos.game.format_piece(best[0]))
        outcome = client.post(f"/api/puzzles/{puzzle_id}/attempt", json={"moves": moves}).json()
        assert outcome["correct"], outcome
        if outcome["finished"]:
            return moves, outcome
        position = outcome["position"]
    raise AssertionError("the puzzle never finished")


def test_list_filter_and_page(client, collection):
    _, puzzles = collection
    page = client.get("/api/puzzles").json()
    assert page["total"] == len(puzzles)
    assert {p["id"] for p in page["items"]} == {p.id for p in puzzles}
    moon = client.get("/api/puzzles", params={"game": "moon"}).json()
    assert moon["total"] == sum(p.game == "moon" for p in puzzles)
    assert all(item["game"] == "moon" for item in moon["items"])
    first = client.get("/api/puzzles", params={"per_page": 1, "page": 2}).json()
    assert len(first["items"]) == 1 and first["items"][0]["id"] == page["items"][1]["id"]
    tag = puzzles[0].tags[0] if puzzles[0].tags else None
    if tag:
        tagged = client.get("/api/puzzles", params={"tag": tag}).json()
        assert puzzles[0].id in {p["id"] for p in tagged["items"]}
        assert all(tag in p["tags"] for p in tagged["items"])


def test_puzzle_hides_its_answer(client, collection):
    _, puzzles = collection
    body = client.get(f"/api/puzzles/{puzzles[0].id}").json()
    assert body["position"] == puzzles[0].position
    assert "task" in body and body["player"] == puzzles[0].player
    for secret in ("key", "tree", "moves", "line", "value"):
        assert secret not in body


def test_solving_a_puzzle_through_the_api(client, collection):
    _, puzzles = collection
    for puzzle in puzzles:
        before = client.get(f"/api/puzzles/{puzzle.id}").json()
        moves, outcome = team_moves(client, puzzle.id)
        assert moves[0] in puzzle.key
        assert outcome["solved"] and outcome["answer"]["value"] == puzzle.value
        assert outcome["answer"]["key"] == puzzle.key
        after = client.get("/api/puzzles", params={"game": puzzle.game, "per_page": 100}).json()
        row = next(p for p in after["items"] if p["id"] == puzzle.id)
        assert row["plays"] == before["plays"] + 1 and row["wins"] == before["wins"] + 1
        assert row["rating"] < before["rating"]  # a puzzle that was solved looks easier


def test_a_wrong_move_is_explained(client, collection):
    _, puzzles = collection
    puzzle = puzzles[0]
    wrong, value = next((m, v) for m, v in puzzle.moves if v != puzzle.value)
    outcome = client.post(f"/api/puzzles/{puzzle.id}/attempt", json={"moves": [wrong]}).json()
    assert outcome["correct"] is False and outcome["finished"] is True
    assert f"gives {value}" in outcome["explanation"] and f"instead of {puzzle.value}" in outcome["explanation"]
    assert [wrong, value] in outcome["moves"]
    assert outcome["answer"]["key"] == puzzle.key


def test_an_empty_attempt_returns_the_start(client, collection):
    _, puzzles = collection
    outcome = client.post(f"/api/puzzles/{puzzles[0].id}/attempt", json={}).json()
    assert outcome["correct"] and not outcome["finished"]
    assert outcome["session"]


def test_solve_and_table(client):
    result = client.post("/api/solve", json=EXAMPLE)
    assert result.status_code == 200
    assert result.json()["value"] == 1 and result.json()["best"] == ["HK"]
    table = client.post("/api/table", json=EXAMPLE)
    assert table.status_code == 200
    assert table.json() and all("values" in t for t in table.json())


def test_svg(client, collection):
    _, puzzles = collection
    response = client.get(f"/api/puzzles/{puzzles[0].id}/svg")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("image/svg+xml")
    assert response.text.lstrip().startswith("<svg")
    drawn = client.post("/api/svg", json=EXAMPLE)
    assert drawn.status_code == 200 and "<svg" in drawn.text


def test_page(client):
    page = client.get("/")
    assert page.status_code == 200 and "openhand puzzles" in page.text
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/openapi.json").json()["info"]["title"] == "openhand"


@pytest.mark.parametrize("method, url, body, status, needle", [
    ("post", "/api/solve", "{not json", 400, "malformed"),
    ("post", "/api/solve", {"hands": []}, 400, "game"),
    ("post", "/api/solve", {"game": "poker", "hands": []}, 422, "unknown game"),
    ("post", "/api/solve", {"game": "minimo", "hands": [["SA"], ["SA"], ["SK"]]}, 422, "SA"),
    ("post", "/api/solve", {"game": "minimo", "hands": [["S2"], ["SA"], ["SK"]]}, 422, "S2"),
    ("post", "/api/solve", {"game": "minimo", "hands": [["SA", "SK"], ["SQ"], ["SJ"]]}, 422, "hand sizes"),
    ("post", "/api/solve", {"game": "minimo", "hands": [["SA"] * 1, ["SQ"], ["SJ"]], "leader": 7}, 422, "leader"),
    ("get", "/api/puzzles/nope", None, 404, "nope"),
    ("post", "/api/puzzles/nope/attempt", {"moves": []}, 404, "nope"),
    ("get", "/api/puzzles?level=9", None, 400, "level"),
])
def test_bad_input(client, method, url, body, status, needle):
    if isinstance(body, str):
        response = client.request(method.upper(), url, content=body, headers={"content-type": "application/json"})
    else:
        response = client.request(method.upper(), url, json=body)
    assert response.status_code == status, response.text
    assert needle in response.json()["error"]


def test_illegal_and_unreadable_moves(client, collection):
    _, puzzles = collection
    puzzle = puzzles[0]
    pos = puzzle.to_position()
    seat = pos.to_move
    illegal = [pos.game.format_piece(p) for p in pos.game.sorted_pieces(pos.hands[seat])
               if p not in pos.legal_moves()]
    not_held = next(pos.game.format_piece(p) for p in pos.game.sorted_pieces(pos.game.deck)
                    if not pos.hands[seat] >> p & 1)
    for move in illegal[:1] + [not_held]:
        response = client.post(f"/api/puzzles/{puzzle.id}/attempt", json={"moves": [move]})
        assert response.status_code == 422 and "not legal" in response.json()["error"]
    response = client.post(f"/api/puzzles/{puzzle.id}/attempt", json={"moves": ["XX"]})
    assert response.status_code == 422 and "XX" in response.json()["error"]
    moves, _ = team_moves(client, puzzle.id)
    extra = client.post(f"/api/puzzles/{puzzle.id}/attempt", json={"moves": moves + [moves[-1]]})
    assert extra.status_code == 422 and "already solved" in extra.json()["error"]


def test_oversized_requests_are_refused(client):
    big = dict(EXAMPLE, padding="x" * 5000)
    response = client.post("/api/solve", json=big)
    assert response.status_code == 413 and "too large" in response.json()["error"]

    def chunks():  # no content-length: the limit must hold on the stream too
        for _ in range(10):
            yield b" " * 1000
    response = client.post("/api/solve", content=chunks(), headers={"content-type": "application/json"})
    assert response.status_code == 413


def test_database_migrates_once(tmp_path, collection):
    path, puzzles = collection
    db = tmp_path / "x.db"
    store = Store(db)
    assert store.schema_version() == 1
    assert store.import_puzzles(collection_io.load(path).puzzles) == len(puzzles)
    again = Store(db)  # a second start finds the schema in place and the puzzles there
    assert again.schema_version() == 1
    assert again.import_puzzles(collection_io.load(path).puzzles) == 0
    assert again.list_puzzles()[0] == len(puzzles)
    assert json.loads(json.dumps(again.get_puzzle(puzzles[0].id)[1]))["id"] == puzzles[0].id


def test_load_check_runs_clean(capsys):
    from puzzles.service import loadcheck
    assert loadcheck.main(["--clients", "2", "--seconds", "2", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "0 failed" in out and "requests/s" in out


def test_huge_page_numbers_are_refused_not_crashing(client):
    # found by the schemathesis run: an offset past SQLite's 64-bit integers was a 500
    response = client.get("/api/puzzles", params={"page": 461168601842738792})
    assert response.status_code == 400 and "page" in response.json()["error"]
