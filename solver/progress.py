"""A small progress bar for long jobs, drawn on standard error.

It draws only when asked to or when stderr is a terminal, so piped output and
tests stay clean. (Kept here, dependency-free, for every long command.)
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from typing import TextIO, TypeVar

T = TypeVar("T")


class Progress:
    """``for x in Progress(items, total, "solving"): ...`` draws ``solving  40/100 [=====     ] 3.1 s``."""

    def __init__(self, items: Iterable[T], total: int | None = None, label: str = "",
                 enabled: bool | None = None, stream: TextIO | None = None) -> None:
        self.items = items
        self.total = total if total is not None else (len(items) if hasattr(items, "__len__") else None)
        self.label = label
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.done = 0
        self._start = time.monotonic()
        self._last = 0.0

    def __iter__(self) -> Iterator[T]:
        for item in self.items:
            yield item
            self.done += 1
            self._draw()
        self._draw(final=True)

    def _draw(self, final: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if not final and now - self._last < 0.1:
            return
        self._last = now
        elapsed = now - self._start
        if self.total:
            width = 30
            filled = width * self.done // self.total
            bar = f"{self.done}/{self.total} [{'=' * filled}{' ' * (width - filled)}]"
            if 0 < self.done < self.total:
                bar += f" {elapsed:.1f} s, ~{elapsed * (self.total - self.done) / self.done:.0f} s left"
            else:
                bar += f" {elapsed:.1f} s"
        else:
            bar = f"{self.done} {elapsed:.1f} s"
        self.stream.write(f"\r{self.label} {bar}\033[K" + ("\n" if final else ""))
        self.stream.flush()
