"""The install itself: the compiled engine is there (so the suite is not quietly testing the fallback)."""

from __future__ import annotations

import os

import pytest

from solver.search import engine_name, fast_available


@pytest.mark.skipif(bool(os.environ.get("OPENHAND_PUREPYTHON")), reason="this run tests the pure-Python fallback")
def test_the_compiled_engine_is_built():
    assert fast_available(), "solver._engine did not build or import: pip install . should compile cext/"
    assert engine_name() == "fast"


def test_the_fallback_can_be_chosen(monkeypatch):
    monkeypatch.setenv("OPENHAND_PUREPYTHON", "1")
    assert engine_name() == "reference"
    assert engine_name("reference") == "reference"


def test_every_command_is_registered():
    from solver.cli import build_parser
    commands = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    for name in ("solve", "deal", "show", "demo", "bench"):
        assert name in commands
