"""The repo map's cache: one SQLite file per workspace, one row per file with what reading it gave.

A row is trusted while the file's mtime and size match; when they disagree the content hash decides, so a
touch or a checkout that restores the same bytes costs a read and a hash but no parse. A row also records
files that were skipped for their content or failed to parse, so a warm build never reads them again.

A path is stored as its file name's bytes (a BLOB): Linux names are bytes, and one that is not UTF-8
(`caf\xe9.py`, a surrogate escape in Python) could not be stored as text.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from slmcode.errors import RepoMapError
from slmcode.repomap.model import FileSymbols, Symbol
from slmcode.store.paths import cache_file, prepare_parent

# Bump when the extraction or the payload changes: old rows are then dropped, not misread.
FORMAT_VERSION = "9"  # 6: references as a JSON list, paths as bytes; 7: names apart from definitions; 8: JS objects
# 9: JavaScript exported tables and function-valued class fields
OK = "ok"
FAILED = "failed"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    path BLOB PRIMARY KEY, mtime_ns INTEGER NOT NULL, size INTEGER NOT NULL, digest TEXT NOT NULL,
    outcome TEXT NOT NULL, payload TEXT, names TEXT
);
CREATE TABLE IF NOT EXISTS graphs (version TEXT PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS name_tables (version TEXT PRIMARY KEY, data BLOB NOT NULL);
"""


def cache_path(workspace: Path) -> Path:
    return cache_file(workspace, "repomap.sqlite")


def content_digest(source: bytes) -> str:
    return hashlib.blake2b(source, digest_size=16).hexdigest()


Definition = tuple[str, str, int, int, str]  # name, kind, start, end, signature: a Symbol without its path


def encode_payload(
    language: str, definitions: Sequence[Definition], references: Sequence[str], counts: Sequence[int]
) -> tuple[str, str]:
    """A parsed file's symbols as stored, in two parts: its definitions (read for the few files a map shows)
    and its names (what the reference graph is built from, read for every file when any file changed). The
    parse workers send these texts, which pickle at no cost."""
    payload = json.dumps({"l": language, "d": definitions}, separators=(",", ":"), ensure_ascii=False)
    names = json.dumps(
        # References as a list: a name may hold spaces (TypeScript's `new (a ?? b)(x)` marks `(a ?? b)`).
        {"n": [d[0] for d in definitions], "s": [d[2] for d in definitions], "r": list(references), "c": counts},
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return payload, names


def decode_names(names: str) -> tuple[list[str], list[int], list[str], list[int]]:
    """Definition names and first lines, reference names and counts; ValueError when they disagree."""
    data = json.loads(names)
    defined, starts, references, counts = data["n"], data["s"], data["r"], data["c"]
    if not all(isinstance(v, list) for v in (defined, starts, references, counts)):
        raise ValueError("a cache row's names are not lists")
    if len(defined) != len(starts) or len(references) != len(counts):
        raise ValueError("a cache row's names and counts disagree")
    return defined, starts, references, counts


def decode_symbols(path: str, payload: str, names: str) -> FileSymbols:
    data = json.loads(payload)
    _, _, references, counts = decode_names(names)
    return FileSymbols(
        path=path,
        language=data["l"],
        definitions=tuple(Symbol(path, name, kind, start, end, sig) for name, kind, start, end, sig in data["d"]),
        references=tuple(references),
        reference_counts=tuple(counts),
    )


@contextmanager
def open_cache(workspace: Path) -> Iterator[sqlite3.Connection]:
    """The workspace's cache, created on first use; any SQLite trouble becomes a RepoMapError."""
    path = cache_path(workspace)
    try:
        conn = _connect(path)
    except sqlite3.DatabaseError as exc:
        if isinstance(exc, sqlite3.OperationalError):  # locked, read-only, full: not the file's fault
            raise RepoMapError(f"repo map cache {path}: {exc}") from None
        # Junk or a torn file ('file is not a database'): a cache is only derived data, so it starts afresh
        # instead of failing every map and pack until the user finds and deletes it.
        for stale in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            stale.unlink(missing_ok=True)
        try:
            conn = _connect(path)
        except (OSError, sqlite3.Error) as again:
            raise RepoMapError(f"repo map cache {path}: {again}") from None
    except (OSError, sqlite3.Error) as exc:
        raise RepoMapError(f"repo map cache {path}: {exc}") from None
    try:
        yield conn
    except sqlite3.Error as exc:
        raise RepoMapError(f"repo map cache {path}: {exc}") from None
    finally:
        conn.close()


def _connect(path: Path) -> sqlite3.Connection:
    prepare_parent(path)
    conn = sqlite3.connect(path, timeout=10)
    try:
        # WAL, synchronous NORMAL (as store/walfile): a commit costs no fsync, of which a build after one edit made
        # three (~25 ms each here); a cache loses at most its last commit to a power cut, and is rebuilt.
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        with conn:
            conn.executescript(SCHEMA)
            row = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
            if row is None or row[0] != FORMAT_VERSION:  # the table may have other columns too: start afresh
                conn.executescript(
                    "DROP TABLE IF EXISTS files; DROP TABLE IF EXISTS graphs; DROP TABLE IF EXISTS name_tables;"
                    + SCHEMA
                )
                conn.execute("INSERT OR REPLACE INTO meta VALUES ('format', ?)", (FORMAT_VERSION,))
    except BaseException:
        conn.close()
        raise
    return conn


@dataclass(frozen=True)
class FileRow:
    """What reading one file gave, as stored: its symbols' payload (outcome ok), a skip reason, or a parse
    failure. A warm build compares most rows and decodes them only to build the index."""

    mtime_ns: int
    size: int
    digest: str
    outcome: str  # OK, FAILED, or a skip reason such as "binary"
    payload: str | None = None  # encode_payload's texts when the outcome is OK
    names: str | None = None

    def symbols(self, path: str) -> FileSymbols | None:
        """The file's symbols under `path` (a renamed file reuses its old row); None unless parsed."""
        if self.outcome != OK or self.payload is None or self.names is None:
            return None
        return decode_symbols(path, self.payload, self.names)

    def restat(self, mtime_ns: int, size: int) -> FileRow:
        return replace(self, mtime_ns=mtime_ns, size=size)


def path_key(path: str) -> bytes:
    """A path as stored: its bytes, surrogate escapes back to the bytes they stand for."""
    return path.encode("utf-8", "surrogateescape")


def path_of(key: bytes | str) -> str:
    return key.decode("utf-8", "surrogateescape") if isinstance(key, bytes) else key


def read_rows(conn: sqlite3.Connection) -> dict[str, FileRow]:
    rows = conn.execute("SELECT path, mtime_ns, size, digest, outcome, payload, names FROM files ORDER BY path")
    return {path_of(key): FileRow(*rest) for key, *rest in rows}


def write_rows(conn: sqlite3.Connection, rows: Iterable[tuple[str, FileRow]], deleted: Iterable[str]) -> None:
    """Store new and changed rows and drop the rows of files that are gone, in one transaction."""
    values = [(path_key(path), r.mtime_ns, r.size, r.digest, r.outcome, r.payload, r.names) for path, r in rows]
    with conn:
        conn.executemany("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?, ?, ?)", values)
        conn.executemany("DELETE FROM files WHERE path = ?", [(path_key(p),) for p in deleted])


def read_graph(conn: sqlite3.Connection, version: str) -> bytes | None:
    row = conn.execute("SELECT data FROM graphs WHERE version = ?", (version,)).fetchone()
    return row[0] if row else None


def read_tables(conn: sqlite3.Connection) -> bytes | None:
    """The name tables of the last graph built, whatever its version: what a patch starts from."""
    row = conn.execute("SELECT data FROM name_tables").fetchone()
    return row[0] if row else None


def write_graph(conn: sqlite3.Connection, version: str, data: bytes, tables: bytes | None = None) -> None:
    """Keep the graph of this index version only, with the name tables it was built from: an older graph is
    never asked for again, and the next patch starts from these tables."""
    with conn:
        conn.execute("DELETE FROM graphs")
        conn.execute("INSERT INTO graphs VALUES (?, ?)", (version, data))
        conn.execute("DELETE FROM name_tables")
        if tables is not None:
            conn.execute("INSERT INTO name_tables VALUES (?, ?)", (version, tables))
