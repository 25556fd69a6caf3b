"""Property-based fuzzing of the HTTP API from its OpenAPI schema: no input may produce a 500."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

import pytest

schemathesis = pytest.importorskip("schemathesis", reason="API fuzzing needs schemathesis (pip install '.[test]')")
pytest.importorskip("fastapi", reason="the service needs its extra")
from hypothesis import HealthCheck, settings  # noqa: E402

from puzzles import puzzle as collection_io  # noqa: E402
from puzzles.generator import Settings, generate  # noqa: E402
from puzzles.service.app import Limits, create_app  # noqa: E402


def _app():
    folder = Path(tempfile.mkdtemp(prefix="openhand-fuzz-"))
    atexit.register(shutil.rmtree, folder, True)  # the schema needs the app at import, before any fixture
    puzzles = generate(Settings("moon", vary=False, cards=(3, 3), engine="reference"), 1, 2,
                       max_candidates=400).puzzles
    collection_io.save(collection_io.Collection(puzzles, 2), folder / "p.msgpack")
    return create_app(folder / "db.sqlite", [folder / "p.msgpack"], Limits(workers=1, max_seconds=2.0))


schema = schemathesis.openapi.from_asgi("/openapi.json", _app())


@schema.parametrize()
@settings(max_examples=50, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_no_server_errors(case):
    response = case.call()
    assert response.status_code < 500, f"{case.method} {case.formatted_path} -> {response.status_code}: {response.text}"
    if response.status_code >= 400:
        assert "error" in response.json(), response.text
