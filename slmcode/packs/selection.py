"""Which candidate windows make it into a pack: best first, widened to their definition when that still fits,
merged with windows already taken from the same file, and the last one cut with a marker rather than dropped.
"""

from __future__ import annotations

from collections.abc import Sequence

from slmcode.packs.excerpts import Excerpt, Window, covered, fit_window, merge_windows, render_window, signatures, widen
from slmcode.packs.localize import Candidate, SourceFile
from slmcode.packs.sections import SECTION_SEPARATOR
from slmcode.packs.tokens import TokenCounter

WIDEN_MAX_LINES = 80  # a definition longer than this is not shown whole for one hit
MIN_USEFUL_TOKENS = 40  # below this, a remainder holds no useful code
SKIP_COVERED = 0.6  # a candidate this much inside what is taken adds too little
BREADTH_SHARE = 0.5  # of the excerpt budget, for the best windows across files; the rest deepens them
GROW_LINES = 6


def _cost(path: str, lines: Sequence[str], windows: Sequence[Window], counter: TokenCounter) -> int:
    texts = [render_window(path, lines, w) for w in windows]
    return counter.count(SECTION_SEPARATOR.join(texts)) + counter.count(SECTION_SEPARATOR)


def select_excerpts(
    sources: Sequence[SourceFile],
    candidates: Sequence[Candidate],
    budget: int,
    counter: TokenCounter,
    breadth_share: float = BREADTH_SHARE,
) -> list[Excerpt]:
    """Excerpts filling at most `budget` tokens, files in the order they were first chosen, windows by line.

    Breadth first: the best windows across files, within `breadth_share` of the budget. Then depth: the
    chosen files, best first, grow around their windows (the whole file when it fits) while budget remains.
    A change rarely touches only the lines that name what it is about.
    """
    by_path = {s.path: s for s in sources}
    chosen: dict[str, list[Window]] = {}
    costs: dict[str, int] = {}
    cut: Excerpt | None = None
    breadth = int(budget * breadth_share)
    for candidate in candidates:
        used = sum(costs.values())
        if breadth - used < MIN_USEFUL_TOKENS:
            break
        source = by_path.get(candidate.path)
        if source is None:
            continue
        taken = chosen.get(source.path, [])
        if covered(taken, candidate.window) >= SKIP_COVERED * candidate.window.size:
            continue
        wide = widen(candidate.window, source.symbols, WIDEN_MAX_LINES)
        options = [wide, candidate.window] if wide != candidate.window else [candidate.window]
        for option in options:
            windows = merge_windows([*taken, option])
            cost = _cost(source.path, source.lines, windows, counter)
            if used - costs.get(source.path, 0) + cost <= breadth:
                chosen[source.path], costs[source.path] = windows, cost
                break
        else:
            if covered(taken, candidate.window) == 0 and not chosen:
                room = breadth - used - counter.count(SECTION_SEPARATOR) * 2
                fitted = fit_window(source.path, source.lines, candidate.window, room, counter)
                if fitted is not None:
                    window, text = fitted
                    cut = Excerpt(source.path, window.start, window.end, counter.count(text), text)
            break
    for path in list(chosen):
        source = by_path[path]
        room = budget - sum(costs.values()) + costs[path]
        chosen[path], costs[path] = _deepen(source, chosen[path], costs[path], room, counter)
    excerpts = [
        Excerpt(path, w.start, w.end, counter.count(text), text)
        for path, windows in chosen.items()
        for w in windows
        for text in [render_window(path, by_path[path].lines, w)]
    ]
    return [*excerpts, cut] if cut is not None else excerpts


def _deepen(
    source: SourceFile, windows: list[Window], cost: int, room: int, counter: TokenCounter
) -> tuple[list[Window], int]:
    """The file's windows grown as far as `room` allows: the whole file if it fits, else GROW_LINES a step."""
    whole = [Window(1, len(source.lines))]
    whole_cost = _cost(source.path, source.lines, whole, counter)
    if whole_cost <= room:
        return whole, whole_cost
    total = len(source.lines)
    while True:
        grown = merge_windows(
            Window(max(1, w.start - GROW_LINES), min(total, w.end + GROW_LINES)) for w in windows
        )
        grown_cost = _cost(source.path, source.lines, grown, counter)
        if grown == windows or grown_cost > room:
            return windows, cost
        windows, cost = grown, grown_cost


def select_signatures(
    sources: Sequence[SourceFile], candidates: Sequence[Candidate], budget: int, counter: TokenCounter
) -> str:
    """Paths and signatures of the best-ranked files, as many as fit, for identifier-only roles."""
    by_path = {s.path: s for s in sources}
    parts: list[str] = []
    for path in dict.fromkeys(c.path for c in candidates):
        source = by_path[path]
        text = signatures(path, source.symbols, len(source.lines))
        if counter.count(SECTION_SEPARATOR.join([*parts, text])) > budget:
            break
        parts.append(text)
    return SECTION_SEPARATOR.join(parts)
