"""Fitted maps kept per index version: the same files, query, focus, budget and token counter give the same map,
so a map asked for again (a re-run `slmcode map`, each pack's stable map) is read back instead of ranked, fitted
and counted again; loading the tokenizer alone cost a warm map a third of its time.

Rows live beside the graph in the map's cache and go with it: a new index version drops the old version's maps.
The token counts of the texts a fit tried outlive the version: after an edit outside the files the map shows,
the fit tries the same texts again and reads their counts back instead of loading the tokenizer.
A cache that cannot be read or written costs the speed, never the map.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path

from slmcode.budget.tokens import TokenCounter
from slmcode.repomap.cache import cache_path
from slmcode.repomap.model import RankedSymbol, RepoMap, Symbol, SymbolIndex

KEPT_PER_VERSION = 64  # queries differ task by task; the oldest fall out first
COUNTS_KEPT = 1024  # a fit tries about a dozen texts
SCHEMA = """
CREATE TABLE IF NOT EXISTS maps (
    version TEXT NOT NULL, key TEXT NOT NULL, text TEXT NOT NULL, tokens INTEGER NOT NULL, chosen TEXT NOT NULL,
    PRIMARY KEY (version, key)
);
CREATE TABLE IF NOT EXISTS map_counts (
    counter TEXT NOT NULL, digest TEXT NOT NULL, tokens INTEGER NOT NULL, PRIMARY KEY (counter, digest)
);
"""


def map_key(query: str, focus_files: Sequence[str], budget_tokens: int, counter_name: str) -> str:
    return json.dumps([query, sorted(set(focus_files)), budget_tokens, counter_name], ensure_ascii=True)


def _connect(workspace: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(cache_path(workspace), timeout=10)
    conn.execute("PRAGMA synchronous=NORMAL")  # the file is in WAL mode (cache.open_cache): no fsync per commit
    conn.executescript(SCHEMA)
    return conn


def stored_map(index: SymbolIndex, workspace: Path, key: str) -> RepoMap | None:
    """The map fitted before for this index version and key; None if none."""
    row = None
    with suppress(sqlite3.Error, OSError):
        conn = _connect(workspace)
        try:
            row = conn.execute(
                "SELECT text, tokens, chosen FROM maps WHERE version = ? AND key = ?", (index.version, key)
            ).fetchone()
        finally:
            conn.close()
    if row is None:
        return None
    text, tokens, chosen = row
    try:
        # Stored whole: the same index version has the same definitions, and decoding their files cost more.
        symbols = tuple(
            RankedSymbol(Symbol(path, name, kind, start, end, signature), rank)
            for path, name, kind, start, end, signature, rank in json.loads(chosen)
        )
        budget = json.loads(key)[2]
    except (ValueError, TypeError, IndexError):
        return None
    files = tuple(dict.fromkeys(r.symbol.path for r in symbols))
    return RepoMap(text=text, tokens=tokens, budget=budget, files=files, symbols=symbols)


def store_map(index: SymbolIndex, workspace: Path, key: str, fitted: RepoMap) -> None:
    chosen = json.dumps(
        [[s.path, s.name, s.kind, s.start, s.end, s.signature, r.rank] for r in fitted.symbols for s in [r.symbol]]
    )
    with suppress(sqlite3.Error, OSError):
        conn = _connect(workspace)
        try:
            with conn:
                conn.execute("DELETE FROM maps WHERE version != ?", (index.version,))
                conn.execute(
                    "INSERT OR REPLACE INTO maps VALUES (?, ?, ?, ?, ?)",
                    (index.version, key, fitted.text, fitted.tokens, chosen),
                )
                conn.execute(
                    "DELETE FROM maps WHERE rowid NOT IN (SELECT rowid FROM maps ORDER BY rowid DESC LIMIT ?)",
                    (KEPT_PER_VERSION,),
                )
        finally:
            conn.close()


class RememberedCounts:
    """A token counter that answers a text counted before from the cache (by the text's digest) and counts
    the others with `counter`, remembering them for store_counts."""

    def __init__(self, counter: TokenCounter, known: dict[str, int]) -> None:
        self.name = counter.name
        self._counter, self._known, self.new = counter, known, dict[str, int]()

    def count(self, text: str) -> int:
        digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
        found = self._known.get(digest)
        if found is None:
            found = self._known[digest] = self.new[digest] = self._counter.count(text)
        return found


def remembered_counts(workspace: Path, counter: TokenCounter) -> RememberedCounts:
    rows: list[tuple[str, int]] = []
    with suppress(sqlite3.Error, OSError):
        conn = _connect(workspace)
        try:
            rows = conn.execute("SELECT digest, tokens FROM map_counts WHERE counter = ?", (counter.name,)).fetchall()
        finally:
            conn.close()
    return RememberedCounts(counter, dict(rows))


def store_counts(workspace: Path, counts: RememberedCounts) -> None:
    """Keep the counts made since remembered_counts, and the newest COUNTS_KEPT in all."""
    if not counts.new:
        return
    with suppress(sqlite3.Error, OSError):
        conn = _connect(workspace)
        try:
            with conn:
                conn.executemany(
                    "INSERT OR REPLACE INTO map_counts VALUES (?, ?, ?)",
                    [(counts.name, digest, tokens) for digest, tokens in counts.new.items()],
                )
                conn.execute(
                    "DELETE FROM map_counts WHERE rowid NOT IN (SELECT rowid FROM map_counts ORDER BY "
                    "rowid DESC LIMIT ?)",
                    (COUNTS_KEPT,),
                )
        finally:
            conn.close()
