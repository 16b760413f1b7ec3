"""Which candidate spans make it into a pack: a glimpse of each of the best files first, a one-line mention of the
next few that rank close to the best, then whole spans best first, merged with what is already taken from the same
file, and the last one cut with a marker rather than dropped. Files are shown in the order they were first chosen,
each under one header with its windows by line.
"""

from __future__ import annotations

from collections.abc import Sequence

from slmcode.budget.tokens import TokenCounter
from slmcode.localize.candidates import Candidate
from slmcode.localize.sources import SourceFile
from slmcode.packs.excerpts import (
    Excerpt,
    Window,
    covered,
    fit_cut,
    merge_windows,
    render_file,
    render_lines,
    signatures,
)
from slmcode.packs.sections import SECTION_SEPARATOR

MIN_USEFUL_TOKENS = 40  # below this, a remainder holds no useful code
# Of the excerpt budget, what the glimpses of the best files may take before whole spans: a change rarely
# touches one file only, and a model that sees where else to look can ws_read the rest.
BREADTH_SHARE = 0.3
# Two windows of a file this few lines apart are shown as one: a fix often sits just between two shown spans.
BRIDGE_LINES = 8
# After the glimpses, a mention of the next best files: the line that matched best, within this further share of
# the budget. It says where else to look for a fifth of a glimpse's tokens: a small pack showed the changed file at
# all in only three fixes of four when its glimpses were its only breadth.
MENTION_LINES = 1
MENTION_SHARE = 0.1
MENTION_FILES = 6  # at most this many: past the first few, a mention seldom names the file to change
# Only files whose best span scores at least this share of the best one: a mention of a file that barely matched
# (a build script, a typings test) cost the deeper windows their last lines and found nothing (tuning half).
MENTION_FLOOR = 0.35


def _cost(path: str, lines: Sequence[str], windows: Sequence[Window], counter: TokenCounter) -> int:
    return counter.count(render_file(path, lines, windows)) + counter.count(SECTION_SEPARATOR)


def select_excerpts(
    sources: Sequence[SourceFile],
    candidates: Sequence[Candidate],
    budget: int,
    counter: TokenCounter,
    breadth_share: float | None = None,
) -> list[Excerpt]:
    """Excerpts filling at most `budget` tokens.

    Breadth: each file's best candidate, as its glimpse, files by their best candidate, within `breadth_share`
    of the budget. Mentions: the best line of the next files while their best candidate scores at least
    MENTION_FLOOR of the best one, within MENTION_SHARE more (none when `breadth_share` is 0). Depth: every
    candidate whole, best first, while it fits; one that does not fit shows its glimpse if that fits, else it is
    cut to what is left (when it cannot be cut there, the next one is tried).
    """
    by_path = {s.path: s for s in sources}
    chosen: dict[str, list[Window]] = {}
    costs: dict[str, int] = {}

    def take(path: str, window: Window, limit: int) -> bool:
        source = by_path[path]
        for gap in (BRIDGE_LINES, 1):  # bridged where it fits: a few lines cost less than a gap and what it hid
            windows = merge_windows([*chosen.get(path, []), window], gap)
            cost = _cost(path, source.lines, windows, counter)
            if sum(costs.values()) - costs.get(path, 0) + cost <= limit:
                chosen[path], costs[path] = windows, cost
                return True
        return False

    usable = [c for c in candidates if c.path in by_path]
    share = BREADTH_SHARE if breadth_share is None else breadth_share
    for candidate in usable:
        if candidate.path in chosen:
            continue
        if not take(candidate.path, candidate.glimpse or candidate.window, int(budget * share)):
            break
    mentioned = 0
    for candidate in usable:
        if mentioned >= MENTION_FILES or not (MENTION_SHARE and share):  # no breadth asked: no mentions either
            break
        if candidate.score < MENTION_FLOOR * usable[0].score:
            break
        if candidate.path in chosen:
            continue
        if not take(
            candidate.path,
            _mention(candidate, len(by_path[candidate.path].lines)),
            int(budget * (share + MENTION_SHARE)),
        ):
            break
        mentioned += 1
    cut: tuple[str, Window, int] | None = None  # path, the head shown, the lines cut after it
    for candidate in usable:
        if budget - sum(costs.values()) < MIN_USEFUL_TOKENS:
            break
        taken = chosen.get(candidate.path, [])
        if covered(taken, candidate.window) == candidate.window.size:
            continue
        if take(candidate.path, candidate.window, budget):
            continue
        glimpse = candidate.glimpse
        if glimpse is not None and covered(taken, glimpse) < glimpse.size and take(candidate.path, glimpse, budget):
            continue  # the span's best lines fit where the whole span does not: show those, look further
        # Cut from the glimpse's first line, not the span's: the head of a long span seldom holds what matched.
        rest = Window(glimpse.start, candidate.window.end) if glimpse is not None else candidate.window
        cut = _cut(by_path[candidate.path], taken, rest, budget - sum(costs.values()), counter)
        if cut is not None:
            break  # the cut fills what is left
    if cut is not None:
        chosen.setdefault(cut[0], []).append(cut[1])
    cuts = {cut[0]: {cut[1].end: cut[2]}} if cut is not None else {}
    return [
        Excerpt(path, w.start, w.end, counter.count(text), text, cut_lines)
        for path, windows in chosen.items()
        for w in merge_windows(windows)
        for cut_lines in [cuts.get(path, {}).get(w.end, 0)]
        for text in [render_lines(by_path[path].lines, w, cut_lines)]
    ]


def _mention(candidate: Candidate, total_lines: int) -> Window:
    """The candidate's best line, and the ones after it up to MENTION_LINES in all."""
    first = candidate.best_line or candidate.window.start
    return Window(first, max(first, min(total_lines, first + MENTION_LINES - 1)))


def _cut(
    source: SourceFile, taken: Sequence[Window], window: Window, room: int, counter: TokenCounter
) -> tuple[str, Window, int] | None:
    """The head of `window` that fits `room`, with a cut marker: only its lines not already shown, and only
    when they follow the file's shown windows (or there are none), so excerpts never overlap."""
    start = max([window.start, *(w.end + 1 for w in taken if w.start <= window.start <= w.end)])
    if any(w.start > start and w.start <= window.end for w in taken) or start > window.end:
        return None
    room -= 0 if taken else counter.count(SECTION_SEPARATOR)
    if room < MIN_USEFUL_TOKENS:
        return None
    shown = fit_cut(source.path, source.lines, taken, Window(start, window.end), room, counter)
    return (source.path, shown, window.end - shown.end) if shown is not None else None


def render_excerpts(sources: Sequence[SourceFile], excerpts: Sequence[Excerpt]) -> str:
    """The excerpts as the pack shows them: each file once, in the order of its first excerpt, under one header."""
    by_path = {s.path: s for s in sources}
    files: dict[str, list[Excerpt]] = {}
    for excerpt in excerpts:
        files.setdefault(excerpt.path, []).append(excerpt)
    return SECTION_SEPARATOR.join(
        render_file(path, by_path[path].lines, [Window(e.start, e.end) for e in shown], {e.end: e.cut for e in shown})
        for path, shown in files.items()
    )


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
