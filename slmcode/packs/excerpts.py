"""Code excerpts: windows of a file, merged where they overlap or touch, rendered with the file's real line
numbers so a model can go straight to a span with ws_read(offset). Which windows (definition-aligned spans
and glimpses around the best hit) is localize.py's and selection.py's job; identifier-only roles get
signatures instead of bodies.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from slmcode.packs import prompts
from slmcode.packs.fitting import largest_fitting
from slmcode.packs.repomap.model import Symbol
from slmcode.packs.tokens import TokenCounter

MERGE_GAP = 1  # windows this close become one


@dataclass(frozen=True, order=True)
class Window:
    """A 1-based inclusive line range."""

    start: int
    end: int

    @property
    def size(self) -> int:
        return self.end - self.start + 1


@dataclass(frozen=True)
class Excerpt:
    """A code body in the pack: its file, real line range and the tokens its rendering takes."""

    path: str
    start: int
    end: int
    tokens: int
    text: str


def merge_windows(windows: Iterable[Window], gap: int = MERGE_GAP) -> list[Window]:
    """Sorted, with overlapping or nearly touching windows joined."""
    merged: list[Window] = []
    for window in sorted(windows):
        if merged and window.start <= merged[-1].end + gap + 1:
            last = merged[-1]
            merged[-1] = Window(last.start, max(last.end, window.end))
        else:
            merged.append(window)
    return merged


def covered(windows: Sequence[Window], window: Window) -> int:
    """How many lines of `window` are already inside `windows`."""
    return sum(max(0, min(w.end, window.end) - max(w.start, window.start) + 1) for w in merge_windows(windows))


def render_window(path: str, lines: Sequence[str], window: Window) -> str:
    header = prompts.EXCERPT_HEADER.format(path=path, start=window.start, end=window.end, total=len(lines))
    body = [prompts.CODE_LINE.format(line=n, text=lines[n - 1]).rstrip() for n in range(window.start, window.end + 1)]
    return "\n".join([header, *body])


def fit_window(
    path: str, lines: Sequence[str], window: Window, budget: int, counter: TokenCounter
) -> tuple[Window, str] | None:
    """The window, or its longest head that fits `budget` with a cut marker; None when not even a line fits."""
    text = render_window(path, lines, window)
    if counter.count(text) <= budget:
        return window, text
    low, high = window.start - 1, window.end - 1  # last line kept; start-1 means none

    def candidate(last: int) -> str:
        marker = prompts.CUT_MARKER.format(count=window.end - last)
        return render_window(path, lines, Window(window.start, last)) + "\n" + marker

    low = largest_fitting(low, high, lambda last: counter.count(candidate(last)) <= budget)
    if low < window.start:
        return None
    return Window(window.start, low), candidate(low)


def signatures(path: str, symbols: Sequence[Symbol], total_lines: int) -> str:
    """A file as its path and its definitions' signature lines, for identifier-only roles."""
    header = prompts.SIGNATURES_HEADER.format(path=path, total=total_lines)
    rows = [
        prompts.SIGNATURE_LINE.format(line=s.start, signature=s.signature.strip())
        for s in sorted(symbols, key=lambda s: (s.start, s.name))
    ]
    return "\n".join([header, *rows])
