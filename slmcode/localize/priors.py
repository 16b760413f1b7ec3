"""What localisation knows about a span besides its words: is it a test, is it the file's header, and is it
linked through the code to the spans that match best.

- Tests: a fix is asked for in source; test files matched the query's words as well as the code they test and
  took a third of a pack's code. They rank lower unless the task talks about tests. Documentation and examples
  likewise (a `docs/conf.py` matched "version" and "docstring" requests) unless the task talks about them.
- Header: the imports and constants above a file's first definition, a cheap glimpse that a change often
  touches (a new import, a new constant) and that a window around the best hit never reaches.
- References: a query that shares no word with the lines to change still names the code around them; the
  definitions the best spans call, and the spans that call the best definitions, come next.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from slmcode.localize.line_window import Window
from slmcode.repomap.model import Symbol

TEST_WEIGHT = 0.3
DOCS_WEIGHT = 0.5
HEADER_LINES = 20  # at most this much of a header: a long license or import block is not worth more
_TEST_PATH_RE = re.compile(
    r"(^|/)(tests?|__tests__|testing|testdata|test_?utils|spec|specs|fixtures?|e2e|benches)/"
    r"|(^|/)test_[^/]*$|_test\.[a-z]+$|_spec\.[a-z]+$|\.(test|spec)\.[a-z]+$|Tests?\.(java|kt|cs|scala)$"
    r"|(^|/)src/test/|(^|/)conftest\.py$",
    re.IGNORECASE,
)
_TEST_WORDS = frozenset(
    {
        "test",
        "tests",
        "testing",
        "spec",
        "specs",
        "fixture",
        "fixtures",
        "e2e",
        "unittest",
        "pytest",
        "jest",
        "vitest",
        "mocha",
        "junit",
        "conftest",
    }
)
_DOCS_PATH_RE = re.compile(r"(^|/)(docs?|documentation|examples?|samples?|demos?)/", re.IGNORECASE)
_DOCS_WORDS = frozenset(
    {
        "doc",
        "docs",
        "documentation",
        "example",
        "examples",
        "sample",
        "samples",
        "demo",
        "demos",
        "readme",
        "sphinx",
        "mkdocs",
        "tutorial",
        "guide",
    }
)
_IDENTIFIER_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
MIN_NAME_CHARS = 4  # shorter names (`id`, `get`, `run`) link everything to everything
# Words that say a change is wanted, not where: "Fix ..." heads most fix requests and is rare in code, so its high
# IDF pulled in the odd `fixture` comment or `fixHeader`; a pull-request reference (#3116) names no code at all.
CHANGE_WORDS = frozenset(
    {"fix", "fixed", "fixes", "fixing", "bugfix", "bug", "bugs", "workaround", "regression", "properly", "correctly"}
)
_CHANGE_RE = re.compile(r"#\d+\b|\b(" + "|".join(sorted(CHANGE_WORDS)) + r")\b", re.IGNORECASE)
DROP_CHANGE_WORDS = True


def is_test_path(path: str) -> bool:
    return _TEST_PATH_RE.search(path) is not None


def aside_weights(query: str) -> tuple[float, float]:
    """The weights of a test file and of a documentation or example file for this query: 1 where it asks for them."""
    words = {word.lower() for word in _IDENTIFIER_RE.findall(query)}
    return (1.0 if words & _TEST_WORDS else TEST_WEIGHT), (1.0 if words & _DOCS_WORDS else DOCS_WEIGHT)


def aside_weight(path: str, weights: tuple[float, float]) -> float:
    """How much a span of `path` counts, given aside_weights: tests and docs rank after the source they describe."""
    if is_test_path(path):
        return weights[0]
    return weights[1] if _DOCS_PATH_RE.search(path) else 1.0


def where_words(query: str) -> str:
    """The query without its change words and pull-request references: the words left say where."""
    return _CHANGE_RE.sub(" ", query) if DROP_CHANGE_WORDS else query


def header_window(total_lines: int, symbols: Sequence[Symbol]) -> Window | None:
    """The lines above the file's first definition, at most HEADER_LINES; None when there are none."""
    first = min((s.start for s in symbols if s.start >= 1), default=total_lines + 1)
    end = min(first - 1, HEADER_LINES, total_lines)
    return Window(1, end) if end >= 1 else None


def spelled_names(lines: Sequence[str], span: Window) -> set[str]:
    """The identifiers a span spells, long enough to be specific."""
    return {
        word
        for line in lines[span.start - 1 : span.end]
        for word in _IDENTIFIER_RE.findall(line)
        if len(word) >= MIN_NAME_CHARS
    }


def defined_in(symbols: Sequence[Symbol], span: Window) -> set[str]:
    return {s.name for s in symbols if span.start <= s.start <= span.end and len(s.name) >= MIN_NAME_CHARS}
