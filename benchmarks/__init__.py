"""Benchmarks (pytest-benchmark) and the engine-vs-reference sweep."""
