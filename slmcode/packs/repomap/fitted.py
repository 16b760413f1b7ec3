"""Fitted maps kept per index version: the same files, query, focus, budget and token counter give the same map,
so a map asked for again (a re-run `slmcode map`, each pack's stable map) is read back instead of ranked, fitted
and counted again; loading the tokenizer alone cost a warm map a third of its time.

Rows live beside the graph in the map's cache and go with it: a new index version drops the old version's maps.
A cache that cannot be read or written costs the speed, never the map.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path

from slmcode.packs.repomap.cache import cache_path
from slmcode.packs.repomap.model import RankedSymbol, RepoMap, Symbol, SymbolIndex

KEPT_PER_VERSION = 64  # queries differ task by task; the oldest fall out first
SCHEMA = """
CREATE TABLE IF NOT EXISTS maps (
    version TEXT NOT NULL, key TEXT NOT NULL, text TEXT NOT NULL, tokens INTEGER NOT NULL, chosen TEXT NOT NULL,
    PRIMARY KEY (version, key)
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
            row = conn.execute("SELECT text, tokens, chosen FROM maps WHERE version = ? AND key = ?",
                               (index.version, key)).fetchone()
        finally:
            conn.close()
    if row is None:
        return None
    text, tokens, chosen = row
    try:
        # Stored whole: the same index version has the same definitions, and decoding their files cost more.
        symbols = tuple(RankedSymbol(Symbol(path, name, kind, start, end, signature), rank)
                        for path, name, kind, start, end, signature, rank in json.loads(chosen))
        budget = json.loads(key)[2]
    except (ValueError, TypeError, IndexError):
        return None
    files = tuple(dict.fromkeys(r.symbol.path for r in symbols))
    return RepoMap(text=text, tokens=tokens, budget=budget, files=files, symbols=symbols)


def store_map(index: SymbolIndex, workspace: Path, key: str, fitted: RepoMap) -> None:
    chosen = json.dumps([[s.path, s.name, s.kind, s.start, s.end, s.signature, r.rank]
                         for r in fitted.symbols for s in [r.symbol]])
    with suppress(sqlite3.Error, OSError):
        conn = _connect(workspace)
        try:
            with conn:
                conn.execute("DELETE FROM maps WHERE version != ?", (index.version,))
                conn.execute("INSERT OR REPLACE INTO maps VALUES (?, ?, ?, ?, ?)",
                             (index.version, key, fitted.text, fitted.tokens, chosen))
                conn.execute("DELETE FROM maps WHERE rowid NOT IN (SELECT rowid FROM maps ORDER BY rowid DESC "
                             "LIMIT ?)", (KEPT_PER_VERSION,))
        finally:
            conn.close()
