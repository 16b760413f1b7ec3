"""Which candidate spans make it into a pack: a glimpse of each of the best files first, then whole spans best
first, merged with what is already taken from the same file, and the last one cut with a marker rather than
dropped. Files are shown in the order they were first chosen, each file's windows by line.
"""

from __future__ import annotations

from collections.abc import Sequence

from slmcode.packs.excerpts import Excerpt, Window, covered, fit_window, merge_windows, render_window, signatures
from slmcode.packs.localize import Candidate, SourceFile
from slmcode.packs.sections import SECTION_SEPARATOR
from slmcode.packs.tokens import TokenCounter

MIN_USEFUL_TOKENS = 40  # below this, a remainder holds no useful code
# Of the excerpt budget, what the glimpses of the best files may take before whole spans: a change rarely
# touches one file only, and a model that sees where else to look can ws_read the rest.
BREADTH_SHARE = 0.3


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
    """Excerpts filling at most `budget` tokens.

    Breadth: each file's best candidate, as its glimpse, files by their best candidate, within `breadth_share`
    of the budget. Depth: every candidate whole, best first, while it fits; the first that does not fit is cut.
    """
    by_path = {s.path: s for s in sources}
    chosen: dict[str, list[Window]] = {}
    costs: dict[str, int] = {}

    def take(path: str, window: Window, limit: int) -> bool:
        source = by_path[path]
        windows = merge_windows([*chosen.get(path, []), window])
        cost = _cost(path, source.lines, windows, counter)
        if sum(costs.values()) - costs.get(path, 0) + cost > limit:
            return False
        chosen[path], costs[path] = windows, cost
        return True

    usable = [c for c in candidates if c.path in by_path]
    breadth = int(budget * breadth_share)
    for candidate in usable:
        if candidate.path in chosen:
            continue
        if not take(candidate.path, candidate.glimpse or candidate.window, breadth):
            break
    cut: Excerpt | None = None
    for candidate in usable:
        if budget - sum(costs.values()) < MIN_USEFUL_TOKENS:
            break
        taken = chosen.get(candidate.path, [])
        if covered(taken, candidate.window) == candidate.window.size:
            continue
        if not take(candidate.path, candidate.window, budget):
            cut = _cut(by_path[candidate.path], taken, candidate.window, budget - sum(costs.values()), counter)
            break
    excerpts = [
        Excerpt(path, w.start, w.end, counter.count(text), text)
        for path, windows in chosen.items()
        for w in windows
        for text in [render_window(path, by_path[path].lines, w)]
    ]
    return [*excerpts, cut] if cut is not None else excerpts


def _cut(
    source: SourceFile, taken: Sequence[Window], window: Window, room: int, counter: TokenCounter
) -> Excerpt | None:
    """The head of `window` that fits `room`, with a cut marker: only its lines not already shown, and only
    when they follow the file's shown windows (or there are none), so excerpts never overlap."""
    start = max([window.start, *(w.end + 1 for w in taken if w.start <= window.start <= w.end)])
    if any(w.start > start and w.start <= window.end for w in taken) or start > window.end:
        return None
    room -= counter.count(SECTION_SEPARATOR) * 2
    if room < MIN_USEFUL_TOKENS:
        return None
    fitted = fit_window(source.path, source.lines, Window(start, window.end), room, counter)
    if fitted is None:
        return None
    shown, text = fitted
    return Excerpt(source.path, shown.start, shown.end, counter.count(text), text)


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
