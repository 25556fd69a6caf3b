"""A small progress bar for long jobs, drawn on standard error.

It draws only when asked to or when stderr is a terminal, so piped output and
tests stay clean. Dependency-free, for every long command of the project.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from typing import TextIO, TypeVar

T = TypeVar("T")


class Progress:
    """``with Progress(100, "solving") as bar: ... bar.update()`` draws ``solving 40/100 [====   ] 3.1 s``.

    ``Progress.over(items, ...)`` wraps an iterable instead.
    """

    def __init__(self, total: int | None = None, label: str = "", enabled: bool | None = None,
                 stream: TextIO | None = None) -> None:
        self.total = total
        self.label = label
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.done = 0
        self._start = time.monotonic()
        self._last = 0.0

    @classmethod
    def over(cls, items: Iterable[T], label: str = "", enabled: bool | None = None,
             total: int | None = None) -> Iterator[T]:
        total = total if total is not None else (len(items) if hasattr(items, "__len__") else None)
        with cls(total, label, enabled) as bar:
            for item in items:
                yield item
                bar.update()

    def update(self, n: int = 1) -> None:
        self.done += n
        self._draw()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
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
            filled = width * min(self.done, self.total) // self.total
            bar = f"{self.done}/{self.total} [{'=' * filled}{' ' * (width - filled)}] {elapsed:.1f} s"
            if 0 < self.done < self.total:
                bar += f", ~{elapsed * (self.total - self.done) / self.done:.0f} s left"
        else:
            bar = f"{self.done} {elapsed:.1f} s"
        self.stream.write(f"\r{self.label} {bar}\033[K" + ("\n" if final else ""))
        self.stream.flush()
