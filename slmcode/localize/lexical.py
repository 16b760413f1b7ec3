"""Lexical terms and BM25: how the packs compare a query with code and notes without a model.

Identifiers are split the way people name things (snake_case, CamelCase, paths), so the query word
"budget" meets `compute_budget` and `BudgetError`. Pure functions over explicit inputs; every order is
sorted or positional, never set order.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

_WORD_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+")
_CAMEL_RE = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")

# Words that say nothing about where a change lands: English glue and the commonest code keywords.
STOPWORDS = frozenset(
    (
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "but",
        "by",
        "for",
        "from",
        "has",
        "have",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "so",
        "that",
        "the",
        "their",
        "then",
        "there",
        "these",
        "this",
        "to",
        "was",
        "were",
        "when",
        "which",
        "while",
        "with",
        "without",
        "not",
        "no",
        "do",
        "does",
        "did",
        "can",
        "could",
        "should",
        "would",
        "will",
        "may",
        "self",
        "def",
        "return",
        "import",
        "none",
        "true",
        "false",
        "class",
        "function",
        "const",
        "let",
        "var",
        "new",
        "else",
        "elif",
        "pass",
    )
)
MIN_TERM_CHARS = 2


def stem(word: str) -> str:
    """Plural to singular, crudely: 'migrations' -> 'migration', 'entries' -> 'entry'; enough to match notes."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def split_identifier(word: str) -> list[str]:
    """'compute_budget' -> ['compute', 'budget']; 'RepoMapError' -> ['repo', 'map', 'error']."""
    parts: list[str] = []
    for piece in word.split("_"):
        parts.extend(p.lower() for p in _CAMEL_RE.findall(piece))
    return parts


def word_terms(word: str) -> tuple[str, ...]:
    """The terms of one word: the identifier whole (lower-cased) when it has parts, then its stemmed parts."""
    whole = word.lower()
    pieces = split_identifier(word)
    candidates = ([whole] if len(pieces) != 1 or pieces[0] != whole else []) + [stem(p) for p in pieces]
    return tuple(t for t in candidates if len(t) >= MIN_TERM_CHARS and t not in STOPWORDS)


def terms(text: str, memo: dict[str, tuple[str, ...]] | None = None) -> list[str]:
    """The terms of a text, in order, minus stopwords. `memo` (the caller's, for one job) saves re-splitting
    words a large corpus repeats thousands of times."""
    found: list[str] = []
    for word in _WORD_RE.findall(text):
        if memo is None:
            found.extend(word_terms(word))
            continue
        split = memo.get(word)
        if split is None:
            split = memo[word] = word_terms(word)
        found.extend(split)
    return found


def bm25_from_counts(
    lengths: Sequence[int],
    held: Sequence[tuple[int, dict[str, int]]],
    query_terms: Sequence[str],
    k1: float = 1.2,
    b: float = 0.75,
) -> tuple[list[float], dict[str, float]]:
    """Okapi BM25 scores of every document, and the idf of each query term some document holds, for documents
    known only by their lengths and, for each one holding a query term (in document order), the count of each
    query term it holds: what an index of terms answers without listing every term of every document."""
    asked = list(dict.fromkeys(query_terms))
    n = max(1, len(lengths))
    average = (sum(lengths) / n if lengths else 0.0) or 1.0
    frequency = dict.fromkeys(asked, 0)
    for _, counts in held:
        for term in counts:
            frequency[term] += 1
    idf = {term: math.log(1 + (n - df + 0.5) / (df + 0.5)) for term, df in frequency.items() if df}
    scores = [0.0] * len(lengths)
    for i, counts in held:
        total = 0.0
        for term in asked:
            tf = counts.get(term, 0)
            if tf:
                norm = tf + k1 * (1 - b + b * lengths[i] / average)
                total += idf[term] * tf * (k1 + 1) / norm
        scores[i] = total
    return scores, idf
