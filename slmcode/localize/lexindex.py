"""The packs' lexical index: every file's terms, line by line, kept between packs in the workspace's cache.

Splitting every line of every file into terms (lexical.terms) was most of a pack's time, and the same
files gave the same terms pack after pack. So each file's terms are stored once per content, in
.slmcode/cache/lexical.sqlite, keyed by the file's path and a digest of its text: an edited file is split
again, an unchanged one is read back (a split of one stored string per file). A cache that cannot be opened
or written costs the speed, never the pack: the terms are then computed here, as before.

A file's terms come back as packs/termlines.TermLines: its stored string and the count of terms per line (stored
beside it), never split into a list per line unless a line is read.
"""

from __future__ import annotations

import hashlib
import sqlite3
from array import array
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path

from slmcode.localize import lexical
from slmcode.localize.lexical import terms
from slmcode.localize.termlines import TermLines
from slmcode.store.paths import cache_file, prepare_parent

# Bump when the stored form changes. The terms change with lexical.py (its stopwords, its splitting): any
# edit of that file gives the index a new version, and the old terms are dropped, not misread.
FORMAT_VERSION = "2/" + hashlib.blake2b(Path(lexical.__file__).read_bytes(), digest_size=8).hexdigest()
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    path BLOB PRIMARY KEY, digest TEXT NOT NULL, terms TEXT NOT NULL, counts BLOB NOT NULL
);
"""


def index_path(workspace: Path) -> Path:
    return cache_file(workspace, "lexical.sqlite")


def _digest(lines: Sequence[str]) -> str:
    text = "\n".join(lines).encode("utf-8", "surrogateescape")
    return hashlib.blake2b(text, digest_size=16).hexdigest()


def _key(path: str) -> bytes:
    return path.encode("utf-8", "surrogateescape")  # a file name that is not UTF-8 is stored as its bytes


def decode(stored: str, counts: bytes, line_count: int) -> TermLines | None:
    """The stored lines' terms; None when they do not number `line_count` (then the file is split again)."""
    per_line = array("I")
    per_line.frombytes(counts)
    return TermLines(stored, per_line) if len(per_line) == line_count else None


def split_lines(lines: Sequence[str], memo: dict[str, tuple[str, ...]]) -> TermLines:
    return TermLines.from_lines([terms(line, memo) for line in lines])


@contextmanager
def _opened(workspace: Path) -> Iterator[sqlite3.Connection | None]:
    """The index, or None when it cannot be opened (a read-only or full disk): the caller computes instead."""
    conn = None
    try:
        path = index_path(workspace)
        prepare_parent(path)
        conn = sqlite3.connect(path, timeout=10)
        with conn:
            conn.executescript(SCHEMA)
            row = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
            if row is None or row[0] != FORMAT_VERSION:
                conn.executescript("DROP TABLE files;" + SCHEMA)
                conn.execute("INSERT OR REPLACE INTO meta VALUES ('format', ?)", (FORMAT_VERSION,))
    except (OSError, sqlite3.Error):
        if conn is not None:
            conn.close()
        conn = None
    try:
        yield conn
    finally:
        if conn is not None:
            conn.close()


def line_terms(workspace: Path, files: Sequence[tuple[str, Sequence[str]]]) -> dict[str, TermLines]:
    """path -> the terms of each of its lines, for each (path, lines) given; read from the index where the
    file's text is the one indexed, split (and stored) otherwise."""
    workspace = Path(workspace)
    memo: dict[str, tuple[str, ...]] = {}
    digests = {path: _digest(lines) for path, lines in files}
    found: dict[str, TermLines] = {}
    with _opened(workspace) as conn:
        stored: dict[str, tuple[str, str, bytes]] = {}
        if conn is not None:
            with suppress(sqlite3.Error):
                rows = conn.execute("SELECT path, digest, terms, counts FROM files")
                stored = {
                    key.decode("utf-8", "surrogateescape"): (digest, text, counts) for key, digest, text, counts in rows
                }
        fresh: list[tuple[bytes, str, str, bytes]] = []
        for path, lines in files:
            digest, text, counts = stored.get(path, ("", "", b""))
            if digest == digests[path] and (decoded := decode(text, counts, len(lines))) is not None:
                found[path] = decoded
                continue
            split = found[path] = split_lines(lines, memo)
            fresh.append((_key(path), digests[path], split.text, array("I", split.counts).tobytes()))
        # A file that no longer exists is forgotten (one merely left out of this pack is kept).
        gone = [(_key(p),) for p in stored if p not in digests and not (workspace / p).exists()]
        if conn is not None and (fresh or gone):
            with suppress(sqlite3.Error), conn:
                conn.executemany("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?)", fresh)
                conn.executemany("DELETE FROM files WHERE path = ?", gone)
    return found
