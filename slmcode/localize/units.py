"""Spans of a file that make sense on their own: its definitions, and the code between them.

Localisation ranks these instead of fixed windows, so a candidate is a whole function or class (as the repo map
knows them) and the code between definitions (imports, constants, module-level calls) is cut at the next
definition rather than mid-way through one. A definition longer than `max_lines` gives way to the definitions
inside it (a class to its methods); what is still too long is cut into `max_lines` pieces.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from slmcode.localize.line_window import Window
from slmcode.repomap.model import Symbol

MAX_UNIT_LINES = 40
MIN_UNIT_LINES = 6  # a smaller span joins its neighbour: alone it scores on too few words


def _outermost(symbols: Sequence[Symbol], total: int, max_lines: int) -> list[Window]:
    """The largest definitions of at most `max_lines` lines that no other such definition holds, by line."""
    fitting = sorted(
        {(s.start, -s.end) for s in symbols if 1 <= s.start <= s.end <= total and s.end - s.start < max_lines}
    )
    chosen: list[Window] = []
    for start, negative_end in fitting:
        if chosen and start <= chosen[-1].end:
            continue  # inside a definition already taken whole
        chosen.append(Window(start, -negative_end))
    return chosen


def _split_gap(gap: Window, starts: Sequence[int], max_lines: int) -> list[Window]:
    """Code between definitions in pieces of at most `max_lines`, cut before a definition's line where one falls."""
    pieces: list[Window] = []
    start = gap.start
    while start <= gap.end:
        end = min(gap.end, start + max_lines - 1)
        inner = starts[bisect_right(starts, start) : bisect_right(starts, end)]  # sorted: start < s <= end
        if end < gap.end and inner:
            end = inner[-1] - 1
        pieces.append(Window(start, end))
        start = end + 1
    return pieces


def _join_small(units: Sequence[Window], min_lines: int, max_lines: int) -> list[Window]:
    joined: list[Window] = []
    for unit in units:
        last = joined[-1] if joined else None
        small = unit.size < min_lines or (last is not None and last.size < min_lines)
        if last is not None and small and unit.end - last.start < max_lines:
            joined[-1] = Window(last.start, unit.end)
        else:
            joined.append(unit)
    return joined


def symbol_units(
    total_lines: int,
    symbols: Sequence[Symbol],
    max_lines: int = MAX_UNIT_LINES,
    min_lines: int = MIN_UNIT_LINES,
) -> list[Window]:
    """The file's lines 1..total_lines as consecutive spans aligned to its definitions, in line order."""
    if total_lines <= 0:
        return []
    starts = sorted({s.start for s in symbols})
    units: list[Window] = []
    line = 1
    for definition in [*_outermost(symbols, total_lines, max_lines), Window(total_lines + 1, total_lines + 1)]:
        if definition.start > line:
            units.extend(_split_gap(Window(line, definition.start - 1), starts, max_lines))
        if definition.start <= total_lines:
            units.append(definition)
        line = definition.end + 1
    return _join_small(units, min_lines, max_lines)
