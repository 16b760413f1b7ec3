"""The repo map's cache: one SQLite file per workspace, one row per file with what reading it gave.

A row is trusted while the file's mtime and size match; when they disagree the content hash decides, so a
touch or a checkout that restores the same bytes costs a read and a hash but no parse. A row also records
files that were skipped for their content or failed to parse, so a warm build never reads them again.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from slmcode.errors import RepoMapError
from slmcode.packs.repomap.model import FileSymbols, Symbol

# Bump when the extraction or the payload changes: old rows are then dropped, not misread.
FORMAT_VERSION = "4"
OK = "ok"
FAILED = "failed"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY, mtime_ns INTEGER NOT NULL, size INTEGER NOT NULL, digest TEXT NOT NULL,
    outcome TEXT NOT NULL, language TEXT, payload TEXT
);
"""


def cache_path(workspace: Path) -> Path:
    return workspace / ".slmcode" / "cache" / "repomap.sqlite"


def content_digest(source: bytes) -> str:
    return hashlib.blake2b(source, digest_size=16).hexdigest()


@dataclass(frozen=True)
class Entry:
    """What reading one file gave: its symbols (outcome ok), a skip reason, or a parse failure."""

    path: str
    mtime_ns: int
    size: int
    digest: str
    outcome: str  # OK, FAILED, or a skip reason such as "binary"
    symbols: FileSymbols | None = None


def encode_symbols(symbols: FileSymbols) -> str:
    return json.dumps(
        {
            "d": [[s.name, s.kind, s.start, s.end, s.signature] for s in symbols.definitions],
            "r": " ".join(symbols.references),
            "c": list(symbols.reference_counts),
        },
        separators=(",", ":"),
        ensure_ascii=False,
    )


def decode_symbols(path: str, language: str, payload: str) -> FileSymbols:
    data = json.loads(payload)
    references = tuple(data["r"].split()) if data["r"] else ()
    return FileSymbols(
        path=path,
        language=language,
        definitions=tuple(Symbol(path, name, kind, start, end, sig) for name, kind, start, end, sig in data["d"]),
        references=references,
        reference_counts=tuple(data["c"]),
    )


@contextmanager
def open_cache(workspace: Path) -> Iterator[sqlite3.Connection]:
    """The workspace's cache, created on first use; any SQLite trouble becomes a RepoMapError."""
    path = cache_path(workspace)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, timeout=10)
    except (OSError, sqlite3.Error) as exc:
        raise RepoMapError(f"repo map cache {path}: {exc}") from None
    try:
        with conn:
            conn.executescript(SCHEMA)
            row = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
            if row is None or row[0] != FORMAT_VERSION:
                conn.execute("DELETE FROM files")
                conn.execute("INSERT OR REPLACE INTO meta VALUES ('format', ?)", (FORMAT_VERSION,))
        yield conn
    except sqlite3.Error as exc:
        raise RepoMapError(f"repo map cache {path}: {exc}") from None
    finally:
        conn.close()


@dataclass(frozen=True)
class CachedRow:
    """A stored row, its payload still encoded: most rows of a warm build are only compared, then decoded."""

    mtime_ns: int
    size: int
    digest: str
    outcome: str
    language: str | None
    payload: str | None

    def entry(self, path: str, mtime_ns: int | None = None, size: int | None = None) -> Entry:
        """The row as an Entry for `path` (a renamed file reuses its old row), with a fresher stat if given."""
        symbols = None
        if self.outcome == OK and self.language is not None and self.payload is not None:
            symbols = decode_symbols(path, self.language, self.payload)
        return Entry(
            path, self.mtime_ns if mtime_ns is None else mtime_ns, self.size if size is None else size,
            self.digest, self.outcome, symbols,
        )


def read_rows(conn: sqlite3.Connection) -> dict[str, CachedRow]:
    rows = conn.execute("SELECT path, mtime_ns, size, digest, outcome, language, payload FROM files ORDER BY path")
    return {path: CachedRow(*rest) for path, *rest in rows}


def write_entries(conn: sqlite3.Connection, entries: Iterable[Entry], deleted: Iterable[str]) -> None:
    """Store new and changed rows and drop the rows of files that are gone, in one transaction."""
    rows = [
        (
            e.path, e.mtime_ns, e.size, e.digest, e.outcome,
            e.symbols.language if e.symbols else None,
            encode_symbols(e.symbols) if e.symbols else None,
        )
        for e in entries
    ]
    with conn:
        conn.executemany("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
        conn.executemany("DELETE FROM files WHERE path = ?", [(p,) for p in deleted])
