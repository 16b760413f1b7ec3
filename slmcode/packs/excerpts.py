"""Code excerpts: windows of a file, merged where they overlap or touch, rendered with the file's real line
numbers so a model can go straight to a span with ws_read(offset). Which windows (definition-aligned spans
and glimpses around the best hit) is localize.py's and selection.py's job; identifier-only roles get
signatures instead of bodies.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from slmcode.budget.fitting import largest_fitting
from slmcode.budget.tokens import TokenCounter
from slmcode.localize.line_window import Window
from slmcode.packs import prompts
from slmcode.repomap.model import Symbol
from slmcode.repomap.render import shown_path

MERGE_GAP = 1  # windows this close become one


@dataclass(frozen=True)
class Excerpt:
    """A code body in the pack: its file, real line range, its numbered lines (and cut marker) and their tokens.
    `cut` counts the lines of the window it was taken from that did not fit after `end`."""

    path: str
    start: int
    end: int
    tokens: int
    text: str
    cut: int = 0


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


def render_line(number: int, text: str) -> str:
    """One line as ws_read prints it, but a blank line stays blank: its number would cost tokens and point at
    nothing a model would read or edit; the next line's number says where it is."""
    return prompts.CODE_LINE.format(line=number, text=text).rstrip() if text.strip() else ""


def render_lines(lines: Sequence[str], window: Window, cut: int = 0) -> str:
    """The window's lines, numbered as ws_read numbers them, and a marker naming the lines cut after it."""
    body = [render_line(n, lines[n - 1]) for n in range(window.start, window.end + 1)]
    return "\n".join([*body, prompts.CUT_MARKER.format(count=cut)] if cut else body)


def render_file(
    path: str, lines: Sequence[str], windows: Sequence[Window], cuts: Mapping[int, int] | None = None
) -> str:
    """A file's windows under one header, by line, a gap line between them. The numbers on the lines say where
    each window starts, so the header names the file once and its length (is there more to read?).
    `cuts` maps a window's last line to the lines cut after it."""
    header = prompts.FILE_HEADER.format(path=shown_path(path), total=len(lines))
    blocks = [render_lines(lines, w, (cuts or {}).get(w.end, 0)) for w in merge_windows(windows)]
    return "\n".join([header, f"\n{prompts.WINDOW_GAP}\n".join(blocks)]) if blocks else header


def fit_cut(
    path: str, lines: Sequence[str], shown: Sequence[Window], window: Window, budget: int, counter: TokenCounter
) -> Window | None:
    """The longest head of `window` that, cut with a marker, adds at most `budget` tokens to the file as
    rendered with its `shown` windows; None when not even a line fits."""
    before = counter.count(render_file(path, lines, shown)) if shown else 0

    def cost(last: int) -> int:
        head = Window(window.start, last)
        return counter.count(render_file(path, lines, [*shown, head], {last: window.end - last})) - before

    if cost(window.start) > budget:
        return None
    last = largest_fitting(window.start, window.end - 1, lambda last: cost(last) <= budget)
    return Window(window.start, last)


def signatures(path: str, symbols: Sequence[Symbol], total_lines: int) -> str:
    """A file as its path and its definitions' signature lines, for identifier-only roles."""
    header = prompts.SIGNATURES_HEADER.format(path=shown_path(path), total=total_lines)
    rows = [
        prompts.SIGNATURE_LINE.format(line=s.start, signature=s.signature.strip())
        for s in sorted(symbols, key=lambda s: (s.start, s.name))
    ]
    return "\n".join([header, *rows])
