"""Localisation: which lines of which files a query is about, ranked, before any budget applies.

Each file is cut into spans aligned to its definitions (packs/units); a span scores by BM25 over its own terms,
scaled up by priors a plain text search lacks: how well the whole file matches, whether the query names the file's path
or folder, whether the span holds the definition of an identifier the query names, and whether the file is in
the task's focus. The best spans then lift others (packs/feedback): the code they reference or that references
them, and in their own files the spans holding their rare names. A candidate is a whole span, plus a glimpse: the few
lines around its densest query terms, which is what a file shows first when the pack goes for breadth.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from slmcode.localize import feedback, priors, semantic
from slmcode.localize.lexical import bm25_from_counts, split_identifier, terms
from slmcode.localize.line_window import Window
from slmcode.localize.priors import aside_weight, aside_weights, header_window
from slmcode.localize.sources import SourceFile
from slmcode.localize.termlines import QueryHits, TermLines, held
from slmcode.localize.units import symbol_units

MAX_CANDIDATES = 400
GLIMPSE_LINES = 12
HEAD_LINES = 40  # a focus file without a single hit shows its head
# Weights of the priors against the span's own BM25 (normalised to 1 for the best span). The path counts most:
# a change described as "compact: ..." or "the hook" lands in the files so named far more often than not.
FILE_WEIGHT = 0.5
PATH_WEIGHT = 1.0
DEFINES_WEIGHT = 0.5
FOCUS_WEIGHT = 2.0
CONTEXT_WEIGHT = 0.001  # a span with no query term: ranked by its file's priors, below any with one
HEADER_SHARE = 0.3  # a file's header ranks at this share of the file's best span
CORE_LINES = 24  # a longer span is first offered as this many lines around its best-matching lines
REST_SHARE = 0.5  # the rest of a split span ranks at this share of its core
# The share of a core above its best-matching lines: of the changed lines a core missed by a few lines, more were
# below it than above (the line that names the thing leads into the code that handles it).
CORE_ABOVE = 0.35
_IDENTIFIER_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Candidate:
    path: str
    window: Window
    score: float
    glimpse: Window | None = None  # the lines to show when only a little of the file fits; None: the window
    best_line: int = 0  # the span's line with the most query weight; 0: its first line


def query_names(query: str, defined: Sequence[str] = ()) -> list[str]:
    """Identifiers the query names: written like code (snake_case, CamelCase) or defined in the workspace."""
    known = set(defined)
    names = []
    for word in _IDENTIFIER_RE.findall(query):
        code_like = "_" in word.strip("_") or len(split_identifier(word)) > 1
        if code_like or word in known:
            names.append(word)
    return sorted(set(names))


def _path_match(path: str, query_terms: set[str]) -> float:
    """Share of the path's own words the query uses; the file name counts double."""
    parts = path.split("/")
    stem_terms = set(terms(parts[-1].rsplit(".", 1)[0]))
    dir_terms = set(terms(" ".join(parts[:-1])))
    stem = len(stem_terms & query_terms) / len(stem_terms) if stem_terms else 0.0
    dirs = len(dir_terms & query_terms) / len(dir_terms) if dir_terms else 0.0
    return (2 * stem + dirs) / 3


def _normalise(values: Sequence[float]) -> list[float]:
    top = max(values, default=0.0)
    return [v / top if top > 0 else 0.0 for v in values]


def _best_line(hits: QueryHits, span: Window, weights: Mapping[str, float]) -> int:
    """The span's line with the most query weight (the first such)."""
    lines = hits.hit_lines[bisect_left(hits.hit_lines, span.start) : bisect_right(hits.hit_lines, span.end)]
    # A line without a query term weighs 0: of those, the span's first line is the one max() would pick.
    weighed = [(sum(weights.get(t, 0.0) for t in hits.on_line[n]), -n) for n in lines]
    return -max([*weighed, (0.0, -span.start)])[1]


def _glimpse(span: Window, best: int) -> Window:
    """At most GLIMPSE_LINES of the span, centred on its best line."""
    if span.size <= GLIMPSE_LINES:
        return span
    start = max(span.start, min(best - GLIMPSE_LINES // 2, span.end - GLIMPSE_LINES + 1))
    return Window(start, start + GLIMPSE_LINES - 1)


# The semantic channel (packs/semantic): (query, span texts) -> each span's similarity, or None when it is off.
Similarities = Callable[[str, list[str]], list[float] | None]


def rank_candidates(
    sources: Sequence[SourceFile], query: str, focus_files: Sequence[str] = (), similar: Similarities | None = None
) -> list[Candidate]:
    """Candidate spans, best first (ties by path, then line)."""
    query = priors.where_words(query)
    query_terms = terms(query)
    if not sources:
        return []
    focus = set(focus_files)
    memo: dict[str, tuple[str, ...]] = {}
    line_terms = {s.path: _term_lines(s, memo) for s in sources}
    path_terms = {s.path: terms(s.path.replace("/", " ").replace(".", " ")) for s in sources}
    # BM25 over each file (its path's terms thrice, then its lines' terms) and each span (the path's terms once,
    # then the span's), counted from where the query's terms occur rather than from lists of every term.
    hits = {s.path: QueryHits(line_terms[s.path], path_terms[s.path], query_terms) for s in sources}
    file_lengths = [3 * len(path_terms[s.path]) + line_terms[s.path].total for s in sources]
    file_counts = held(hits[s.path].counts(1, len(s.lines), path_weight=3) for s in sources)
    file_bm25 = _normalise(bm25_from_counts(file_lengths, file_counts, query_terms)[0])
    file_score = {s.path: value for s, value in zip(sources, file_bm25, strict=True)}
    names = set(query_names(query, sorted({sym.name for s in sources for sym in s.symbols})))
    units = [(s, span) for s in sources for span in symbol_units(len(s.lines), s.symbols)]
    unit_lengths = [len(path_terms[s.path]) + line_terms[s.path].span_length(span.start, span.end) for s, span in units]
    unit_counts = held(hits[s.path].counts(span.start, span.end) for s, span in units)
    raw_scores, idf = bm25_from_counts(unit_lengths, unit_counts, query_terms)
    unit_scores = _normalise(raw_scores)
    if similar is not None:
        meaning = similar(query, [_span_text(s, span) for s, span in units])
        unit_scores = semantic.fused(unit_scores, meaning) if meaning is not None else unit_scores
    weights = {t: idf.get(t, 0.0) for t in dict.fromkeys(query_terms)}
    asked = set(query_terms)
    path_scores = {s.path: _path_match(s.path, asked) for s in sources}
    asides = aside_weights(query)
    scores: list[float] = []
    # Where each file defines a name the query names: few or none, where its symbols are many.
    named_at = {s.path: [sym.start for sym in s.symbols if sym.name in names] for s in sources}
    for (source, span), lexical in zip(units, unit_scores, strict=True):
        defines = any(span.start <= start <= span.end for start in named_at[source.path])
        # The priors scale the span's own evidence rather than add to it: added, a file named by the query lifted
        # every one of its spans, and spans without a single query term crowded out other files' hits. A trace of
        # the file's priors still ranks such spans, after every span with evidence, so leftover budget shows more
        # of a chosen file.
        file_prior = FILE_WEIGHT * file_score[source.path] + PATH_WEIGHT * path_scores[source.path]
        score = (
            lexical * (1 + file_prior + DEFINES_WEIGHT * defines)
            + CONTEXT_WEIGHT * file_prior
            + FOCUS_WEIGHT * (source.path in focus)
        )
        scores.append(score * aside_weight(source.path, asides))
    scores = feedback.echoed(units, feedback.linked(units, scores), line_terms, query_terms)
    candidates: list[Candidate] = []
    best_in_file: dict[str, float] = {}
    for (source, span), score in zip(units, scores, strict=True):
        if score > 0:
            best = _best_line(hits[source.path], span, weights)
            candidates.extend(_split(source.path, span, _glimpse(span, best), best, score))
            best_in_file[source.path] = max(best_in_file.get(source.path, 0.0), score)
    for source in sources:  # the header of a file with a hit: imports and constants a fix often touches
        header = header_window(len(source.lines), source.symbols)
        if header is not None and best_in_file.get(source.path, 0.0) > CONTEXT_WEIGHT * 3:
            candidates.append(Candidate(source.path, header, round(HEADER_SHARE * best_in_file[source.path], 9)))
    for source in sources:  # a focus file always offers something, even without a hit
        if source.path in focus and source.lines:
            head = Window(1, min(len(source.lines), HEAD_LINES))
            candidates.append(Candidate(source.path, head, round(FOCUS_WEIGHT * 0.5, 9)))
    candidates.sort(key=lambda c: (-c.score, c.path, c.window.start))
    return candidates[:MAX_CANDIDATES]


def _span_text(source: SourceFile, span: Window) -> str:
    """What the semantic channel embeds of a span: its path (a word in every span) and its lines."""
    return "\n".join((source.path, *source.lines[span.start - 1 : span.end]))


def _term_lines(source: SourceFile, memo: dict[str, tuple[str, ...]]) -> TermLines:
    if isinstance(source.line_terms, TermLines):
        return source.line_terms
    if source.line_terms is not None:
        return TermLines.from_lines(source.line_terms)
    return TermLines.from_lines([terms(line, memo) for line in source.lines])


def _split(path: str, span: Window, glimpse: Window, best: int, score: float) -> list[Candidate]:
    """A long span as its core around the best-matching lines, then the rest of it, ranked lower: a whole
    40-line definition cost a small pack a third of its code for the few lines that matched."""
    if span.size <= CORE_LINES:
        return [Candidate(path, span, round(score, 9), glimpse, best)]
    middle = (glimpse.start + glimpse.end) // 2
    start = max(span.start, min(middle - int(CORE_LINES * CORE_ABOVE), span.end - CORE_LINES + 1))
    core = Window(start, start + CORE_LINES - 1)
    return [Candidate(path, core, round(score, 9), glimpse, best), Candidate(path, span, round(score * REST_SHARE, 9))]
