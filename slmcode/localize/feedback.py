"""What the best-matching spans say about the others (feedback from the top of the ranking): a request's words reach
the code to change once or twice, and the code they reach names the rest.

- Links: the definitions the best spans spell, and the spans that spell the best spans' definitions (the code's
  references), gain a share of the best span's score.
- Echoes: in the best spans' own files, a span holding the rare terms of those best spans gains up to a share of the
  best span's score (pseudo-relevance feedback, within a file). A fix often touches several places of one file, and
  the request names the one it starts from: "Fix generic schema type hints" matches one annotation, and the other
  annotations share its type names, not the request's words.

Units are (file, span) pairs, a file's spans consecutive and in line order (packs/units); scores are parallel to them.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from slmcode.localize.line_window import Window
from slmcode.localize.priors import defined_in, spelled_names
from slmcode.localize.sources import SourceFile
from slmcode.localize.termlines import TermLines

Units = Sequence[tuple[SourceFile, Window]]
GRAPH_SEEDS = 3  # the best spans whose references are followed
# A linked span gains this share of the best span's score: at 0.3 linked spans outranked spans holding the query's
# words and cost 0.02-0.03 hunk recall on the tuning half; at 0.1 they still come before unmatched code.
GRAPH_WEIGHT = 0.1
ECHO_SEEDS = 2  # the best spans whose terms are echoed in their files
# ... of those, the ones scoring at least this share of the best: a span lifted only by a link holds no word of the
# request, and its names echo nothing the request asked for.
ECHO_FLOOR = 0.5
ECHO_TERMS = 12  # the rarest of their terms (within the file) that are echoed
# The most an echoing span gains, as a share of the best span's score; it stays below its file's best span, so the
# breadth of the pack (other files' glimpses and mentions) is ranked as before. Tuning half: 0.5 gained 0.02 hunk
# recall at every budget; 1.0 gained less at 2k and nothing at 8k.
ECHO_WEIGHT = 0.5
MIN_ECHO_CHARS = 4  # shorter terms (`id`, `url`, `get`) are everywhere in a file


def _seeds(scores: Sequence[float], count: int, floor: float = 0.0) -> list[int]:
    """The `count` best spans scoring above 0 and at least `floor` of the best."""
    order = sorted(range(len(scores)), key=lambda i: -scores[i])[:count]
    return [i for i in order if scores[i] > 0 and scores[i] >= floor * scores[order[0]]]


def linked(units: Units, scores: Sequence[float]) -> list[float]:
    """Scores raised along the code's references: the definitions the best spans spell, and the spans that
    spell the best spans' definitions, gain a share of the best span's score."""
    seeds = _seeds(scores, GRAPH_SEEDS)
    if not seeds:
        return list(scores)
    top = scores[seeds[0]]
    spelled = set().union(*(spelled_names(units[i][0].lines, units[i][1]) for i in seeds))
    defined = set().union(*(defined_in(units[i][0].symbols, units[i][1]) for i in seeds))
    raised = list(scores)
    # Speed only, the same answers: a file's symbols by line, so a span looks at those starting in it (not all of
    # its file's); the lines spelling a seed's definition found once per file, not looked for in every span; and
    # a file with neither such a line nor a definition a seed spells passed over.
    files = {id(source): source for source, _ in units}
    by_line = {
        key: sorted((s for s in source.symbols if s.name in spelled), key=lambda s: s.start)
        for key, source in files.items()
    }
    starts = {key: [s.start for s in symbols] for key, symbols in by_line.items()}
    spelling = {key: _lines_holding(source.lines, defined) for key, source in files.items()}
    for i, (source, span) in enumerate(units):
        key = id(source)
        if i in seeds or not (starts[key] or spelling[key]):
            continue
        inside = by_line[key][bisect_left(starts[key], span.start) : bisect_right(starts[key], span.end)]
        callee = bool(defined_in(inside, span) & spelled)
        caller = bisect_right(spelling[key], span.end) > bisect_left(spelling[key], span.start)
        if callee or caller:
            raised[i] += GRAPH_WEIGHT * top * (callee + caller) / 2
    return raised


def _lines_holding(lines: Sequence[str], names: Iterable[str]) -> list[int]:
    """The 1-based lines holding any of `names`, in order: one pass over the file's text per name."""
    text = "\n".join(lines)
    found: set[int] = set()
    for name in filter(None, names):  # an empty name would be found at every character
        line, counted, at = 1, 0, text.find(name)
        while at >= 0:
            line += text.count("\n", counted, at)
            counted = at
            found.add(line)
            at = text.find(name, at + 1)
    return sorted(found)


def echoed(
    units: Units, scores: Sequence[float], line_terms: Mapping[str, TermLines], asked: Iterable[str]
) -> list[float]:
    """Scores raised, in the best spans' files, for the spans that hold those spans' rare terms (not the query's):
    by the share of the echoed terms' weight a span holds, times ECHO_WEIGHT of the best score, kept below the
    file's best span."""
    seeds = _seeds(scores, ECHO_SEEDS, ECHO_FLOOR)
    raised = list(scores)
    if not seeds:
        return raised
    top, asked = scores[seeds[0]], set(asked)
    for path in dict.fromkeys(units[i][0].path for i in seeds):
        members = [i for i, (source, _) in enumerate(units) if source.path == path]  # consecutive, by line
        mine = [i for i in seeds if units[i][0].path == path]
        weights, holders = _rare_terms(units, members, mine, line_terms[path], asked)
        total = sum(weights.values())
        if not total:
            continue
        # Just below the file's best span, not level with it: a tie is broken by line, and an earlier echo would
        # become the file's glimpse in the seed's place.
        ceiling = 0.99 * max(scores[i] for i in mine)
        for i in members:
            held = sum(weight for term, weight in weights.items() if i in holders[term])
            if i not in mine and held:
                raised[i] = max(scores[i], min(ceiling, scores[i] + ECHO_WEIGHT * top * held / total))
    return raised


def _rare_terms(
    units: Units, members: Sequence[int], seeds: Sequence[int], lines: TermLines, asked: set[str]
) -> tuple[dict[str, float], dict[str, set[int]]]:
    """The ECHO_TERMS terms of the seed spans with the most weight (count in the seeds times their inverse
    frequency over the file's spans), and the spans holding each. A term only the seeds hold is left out: it
    raises nothing."""
    counts: Counter[str] = Counter()
    for i in seeds:
        span = units[i][1]
        counts.update(
            t
            for terms in lines[span.start - 1 : span.end]
            for t in terms
            if t not in asked and len(t) >= MIN_ECHO_CHARS
        )
    starts = [units[i][1].start for i in members]
    weights: dict[str, float] = {}
    holders: dict[str, set[int]] = {}
    for term, count in sorted(counts.items()):
        spans = {members[bisect_right(starts, line) - 1] for line in lines.occurrences(term)}
        if spans - set(seeds):
            df = len(spans)
            weights[term] = count * math.log(1 + (len(members) - df + 0.5) / (df + 0.5))
            holders[term] = spans
    chosen = sorted(weights, key=lambda t: (-weights[t], t))[:ECHO_TERMS]
    return {t: weights[t] for t in chosen}, {t: holders[t] for t in chosen}
