"""The sweep's store of reference answers: reused on a second run, and really compared."""

from __future__ import annotations

import msgpack
import pytest

from solver.search import fast_available

pytestmark = pytest.mark.skipif(not fast_available(), reason="the engine is not built")


def test_stored_answers_are_reused_and_checked(tmp_path):
    from benchmarks.sweep import sweep
    options = {"players": 3, "contract": "5"}
    assert sweep("moon", options, 4, 4, seed=7, answers=tmp_path) == (8, [])
    (path,) = tmp_path.glob("*.msgpack")
    answers = msgpack.unpackb(path.read_bytes())
    assert len(answers) == 8
    # a second run reads the file: a wrong stored value must show up as a failure
    key = next(iter(answers))
    answers[key][0] += 1
    path.write_bytes(msgpack.packb(answers))
    done, failures = sweep("moon", options, 4, 4, seed=7, answers=tmp_path)
    assert done == 8 and len(failures) == 1 and "!= reference" in failures[0]
