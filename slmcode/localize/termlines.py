"""One file's lexical terms, line by line, as the lexical index stores them: one string (lines apart by newlines,
terms by spaces) and the number of terms on each line.

A pack asks a few things of every file of a large tree: how many terms a span holds, and on which lines the
query's dozen terms occur. Splitting the stored string into a list per line answered both but cost most of a
warm pack on a million lines (and hundreds of MB of lists); here a span's length is a difference of two running
sums and a term's lines come from a search of the one string, for the terms asked only.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from functools import cached_property
from itertools import accumulate


class TermLines(Sequence[list[str]]):
    """The terms of each line of a file (1 line per item, as lists, when read one by one), with counts per
    span and the lines where a term occurs."""

    def __init__(self, text: str, counts: Sequence[int]) -> None:
        self.text = text  # as stored: "\n".join(" ".join(terms of a line))
        self.counts = counts  # terms per line

    @classmethod
    def from_lines(cls, line_terms: Sequence[Sequence[str]]) -> TermLines:
        return cls("\n".join(" ".join(ts) for ts in line_terms), [len(ts) for ts in line_terms])

    def __len__(self) -> int:
        return len(self.counts)

    def __getitem__(self, at):  # Sequence's int | slice overloads
        if isinstance(at, slice):
            return [line.split(" ") if line else [] for line in self._lines[at]]
        line = self._lines[at]
        return line.split(" ") if line else []

    @cached_property
    def _lines(self) -> list[str]:
        return self.text.split("\n") if self.counts else []

    @cached_property
    def _running(self) -> list[int]:
        return [0, *accumulate(self.counts)]

    @property
    def total(self) -> int:
        return self._running[-1]

    def span_length(self, start: int, end: int) -> int:
        """Terms on lines start..end (1-based, inclusive)."""
        return self._running[end] - self._running[start - 1]

    def occurrences(self, term: str) -> list[int]:
        """The 1-based line of each occurrence of `term`, in order (a line twice if it holds the term twice)."""
        if term not in self.text:
            return []
        found: list[int] = []
        line, at, text = 1, 0, self.text
        # A term is word characters only (lexical._WORD_RE's pieces), so it ends where \b says; a pattern that
        # starts with the term itself is searched for as a literal, far faster than one that starts with \b.
        for match in re.finditer(rf"{re.escape(term)}\b", text):
            start = match.start()
            if start and text[start - 1] not in " \n":
                continue  # the end of a longer term
            line += text.count("\n", at, start)
            at = start
            found.append(line)
        return found


def count_between(lines: Sequence[int], start: int, end: int) -> int:
    """How many of the sorted `lines` fall in start..end."""
    return bisect_right(lines, end) - bisect_left(lines, start)


class QueryHits:
    """Where a query's terms occur in one file (its path's terms counted as part of each span, as BM25's
    documents hold them): counts per span and per line, for the query's terms only."""

    def __init__(self, lines: TermLines, path_terms: Sequence[str], query_terms: Sequence[str]) -> None:
        asked = list(dict.fromkeys(query_terms))
        self.path_counts = {t: c for t in asked if (c := path_terms.count(t))}
        self.at = {t: found for t in asked if (found := lines.occurrences(t))}
        self.asked = [t for t in asked if t in self.path_counts or t in self.at]

    def counts(self, start: int, end: int, path_weight: int = 1) -> dict[str, int]:
        """How often each query term occurs on lines start..end plus `path_weight` times in the path, in query
        order, the terms that do not occur left out."""
        found = {}
        for term in self.asked:
            count = path_weight * self.path_counts.get(term, 0) + count_between(self.at.get(term, ()), start, end)
            if count:
                found[term] = count
        return found

    @cached_property
    def on_line(self) -> dict[int, list[str]]:
        """line -> the distinct query terms on it, in query order."""
        found: dict[int, list[str]] = {}
        for term, lines in self.at.items():
            for line in dict.fromkeys(lines):
                found.setdefault(line, []).append(term)
        return found

    @cached_property
    def hit_lines(self) -> list[int]:
        return sorted(self.on_line)


def held(counts: Iterable[dict[str, int]]) -> list[tuple[int, dict[str, int]]]:
    """(document number, counts) of the documents holding a query term, in document order."""
    return [(i, found) for i, found in enumerate(counts) if found]
