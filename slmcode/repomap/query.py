"""What a query (a task, a question, a goal) mentions: identifiers and paths, to personalise the ranking."""

from __future__ import annotations

import re

# A path: at least one slash or a file extension, e.g. slmcode/cli.py, cli.py, src/app/.
_PATH = re.compile(r"(?<![\w/.-])(?:[\w.-]+/)+[\w.-]*|(?<![\w/.-])[\w-]+\.[A-Za-z][\w]{0,7}(?![\w/])")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
MIN_IDENTIFIER_CHARS = 2
# English function words: in a query they are prose, and a symbol that happens to share the name (tkinter's
# `where`) would otherwise be pulled to the top of the map.
# fmt: off
STOPWORDS = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "how", "if", "in",
    "into", "is", "it", "its", "not", "of", "on", "or", "should", "so", "that", "the", "their", "then", "there",
    "these", "this", "to", "was", "what", "when", "where", "which", "while", "who", "why", "will", "with",
})
# fmt: on


def query_identifiers(text: str) -> list[str]:
    """Identifiers and paths mentioned in `text`, sorted and unique. `cli.py` yields the path `cli.py` and
    the identifiers `cli` and `py`; the ranking matches paths against files and identifiers against symbols."""
    found = {p.rstrip(".") for p in _PATH.findall(text)}
    found.update(i for i in _IDENTIFIER.findall(text) if len(i) >= MIN_IDENTIFIER_CHARS and i not in STOPWORDS)
    return sorted(f for f in found if f)


def is_path(mention: str) -> bool:
    return "/" in mention or "." in mention
