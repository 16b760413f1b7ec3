"""The embedding cache: vectors by (embedder, sha256 of the text) in SQLite under .slmcode/cache/.

A text embedded once is never embedded again, across runs. Any SQLite failure raises EmbeddingCacheError so
retrieval can fall back to its lexical ranking and say so.
"""

from __future__ import annotations

import hashlib
import sqlite3
from array import array
from collections.abc import Callable, Sequence
from pathlib import Path

import sqlite_utils

from slmcode.store.paths import EMBEDDINGS, cache_file, prepare_parent

TABLE = "embeddings"


class EmbeddingCacheError(Exception):
    """The cache cannot be opened, read or written (internal: retrieval falls back, the user is not stopped)."""


def cache_key(embedder: str, text: str) -> str:
    return hashlib.sha256(f"{embedder}\0{text}".encode()).hexdigest()


def _pack(vector: Sequence[float]) -> bytes:
    packed = array("f", vector)
    return packed.tobytes()


def _unpack(blob: bytes) -> list[float]:
    values = array("f")
    values.frombytes(blob)
    return list(values)


def cached_embeddings(
    workspace: Path, embedder: str, texts: Sequence[str], embed: Callable[[str], list[float]]
) -> list[list[float]]:
    """Vectors for `texts`, in order; the missing ones are computed and stored."""
    path = cache_file(workspace, EMBEDDINGS)
    try:
        prepare_parent(path)
        db = sqlite_utils.Database(path)
        try:
            table = db.table(TABLE)
            if not table.exists():
                table.create({"key": str, "embedder": str, "vector": bytes}, pk="key")
            keys = [cache_key(embedder, t) for t in texts]
            wanted = sorted(set(keys))
            marks = ",".join("?" * len(wanted))
            rows = db.query(f"select key, vector from {TABLE} where key in ({marks})", wanted) if wanted else []
            found = {row["key"]: _unpack(row["vector"]) for row in rows}
            missing = [(k, t) for k, t in zip(keys, texts, strict=True) if k not in found]
            # stored as float32: round-trip fresh ones too, so a first run scores exactly like a cached one
            fresh = {k: _unpack(_pack(embed(t))) for k, t in dict(missing).items()}
            if fresh:
                rows = [{"key": k, "embedder": embedder, "vector": _pack(v)} for k, v in sorted(fresh.items())]
                table.insert_all(rows, replace=True)
            return [found[k] if k in found else fresh[k] for k in keys]
        finally:
            db.close()
    except (sqlite3.Error, OSError) as exc:
        raise EmbeddingCacheError(f"{path}: {exc}") from exc
