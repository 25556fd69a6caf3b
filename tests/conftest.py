"""Shared by the test modules: ``benchmarks/`` (not installed) is reachable from the source tree."""

from __future__ import annotations

import sys
from pathlib import Path

# appended, so that an installed ``solver`` still comes first
sys.path.append(str(Path(__file__).resolve().parent.parent))
