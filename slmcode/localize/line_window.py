"""A span of a file's lines: what localization ranks and an excerpt shows."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Window:
    """A 1-based inclusive line range."""

    start: int
    end: int

    @property
    def size(self) -> int:
        return self.end - self.start + 1
