"""The files a pack ranks, read once: each text file's lines, its definitions from the repo map and its lines'
lexical terms. Its own module so that localization and its feedback both read the type, one way round."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from slmcode.localize import lexindex
from slmcode.repomap.model import Symbol, SymbolIndex


@dataclass(frozen=True)
class SourceFile:
    path: str
    lines: tuple[str, ...]
    symbols: tuple[Symbol, ...]
    # Each line's lexical terms, from the workspace's lexical index (packs/lexindex); None: split when ranked.
    line_terms: Sequence[list[str]] | None = field(default=None, compare=False, repr=False)


def read_sources(workspace: Path, paths: Sequence[str], index: SymbolIndex | None, max_bytes: int) -> list[SourceFile]:
    """The text files among `paths` (sorted, de-duplicated); unreadable, binary or oversized ones are left out."""
    read: list[tuple[str, tuple[str, ...], tuple[Symbol, ...]]] = []
    for path in sorted(dict.fromkeys(paths)):
        file = workspace / path
        try:
            if not file.is_file() or file.stat().st_size > max_bytes:
                continue
            data = file.read_bytes()
        except OSError:
            continue  # a file that vanished or cannot be read is simply not a candidate
        if b"\0" in data[:8192]:
            continue
        text = data.decode("utf-8", errors="replace")
        symbols = index.definitions(path) if index else ()
        read.append((path, tuple(text.splitlines()), tuple(symbols)))
    # Splitting every line into terms was most of a pack's time; the index keeps them between packs.
    indexed = lexindex.line_terms(workspace, [(path, lines) for path, lines, _ in read])
    return [SourceFile(path, lines, symbols, indexed[path]) for path, lines, symbols in read]
