"""The repo map's data: symbols, the index of a workspace, and a rendered map. Shared by extract,
cache, rank and render, and read by the context packs (excerpts widen to a symbol's range)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# What the reference graph reads of a file: definition names and first lines, reference names and counts.
Names = tuple[list[str], list[int], list[str], list[int]]


@dataclass(frozen=True)
class Symbol:
    """A definition: 1-based inclusive line range, and its signature line as written in the file."""

    path: str  # relative to the workspace, with forward slashes
    name: str
    kind: str  # class, function, method, interface, type, constant, module, ...
    start: int
    end: int
    signature: str


@dataclass(frozen=True)
class FileSymbols:
    """What one file defines and which identifiers it uses."""

    path: str
    language: str
    definitions: tuple[Symbol, ...]
    references: tuple[str, ...]  # distinct identifiers the file spells, sorted
    reference_counts: tuple[int, ...] = ()  # how often each of `references` occurs, same order

    def uses(self) -> dict[str, int]:
        """Identifier -> occurrences; 1 each when counts were not recorded."""
        counts = self.reference_counts or (1,) * len(self.references)
        return dict(zip(self.references, counts, strict=True))


class FileTable(MutableMapping[str, FileSymbols]):
    """path -> FileSymbols in path order, a cached file's symbols decoded on first use: a warm map shows the
    symbols of a few dozen files and ranks the rest from its cached graph, so decoding every file's
    definitions would be most of its time. Two threads reading one file at once may both decode it: the
    same result, stored twice."""

    def __init__(self, items: Iterable[tuple[str, FileSymbols]] = ()) -> None:
        # A file's symbols, or the two decoders of a cached row: its symbols and its names.
        self._entries: dict[str, FileSymbols | tuple[Callable[[], FileSymbols], Callable[[], Names]]] = {}
        self._order: list[str] | None = None
        self._names: dict[str, Names] = {}  # decoded once per build of the graph, then dropped
        for path, symbols in items:
            self[path] = symbols

    def defer(self, path: str, symbols: Callable[[], FileSymbols], names: Callable[[], Names]) -> None:
        """Hold a file whose symbols `symbols()` decodes and whose names `names()` decodes, when asked."""
        self._entries[path] = (symbols, names)
        self._names.pop(path, None)
        self._order = None

    def names(self, path: str) -> Names:
        """What the reference graph reads of the file, without decoding its definitions."""
        entry = self._entries[path]
        if not isinstance(entry, FileSymbols):
            if path not in self._names:
                self._names[path] = entry[1]()
            return self._names[path]
        uses = entry.uses()
        return (
            [s.name for s in entry.definitions],
            [s.start for s in entry.definitions],
            list(uses),
            list(uses.values()),
        )

    def drop_names(self) -> None:
        self._names.clear()

    def __getitem__(self, path: str) -> FileSymbols:
        entry = self._entries[path]  # KeyError for a path the index does not hold, as a dict's
        if isinstance(entry, FileSymbols):
            return entry
        decoded = self._entries[path] = entry[0]()
        return decoded

    def __setitem__(self, path: str, symbols: FileSymbols) -> None:
        self._entries[path] = symbols
        self._names.pop(path, None)
        self._order = None

    def __delitem__(self, path: str) -> None:
        del self._entries[path]
        self._order = None

    def __contains__(self, path: object) -> bool:
        return path in self._entries

    def __iter__(self) -> Iterator[str]:
        if self._order is None:
            self._order = sorted(self._entries)
        return iter(self._order)

    def __len__(self) -> int:
        return len(self._entries)


@dataclass
class SymbolIndex:
    """Every parsed file of a workspace, plus what was skipped and why (counted, never fatal)."""

    files: FileTable = field(default_factory=FileTable)
    skipped: dict[str, int] = field(default_factory=dict)  # reason -> count
    parse_failures: int = 0
    # What the index holds, as a digest: the same files with the same bytes give the same version, which
    # keys the cached reference graph. None for an index built in memory (its graph is built when asked).
    version: str | None = None
    graph: Any = field(default=None, repr=False)  # graph.ReferenceGraph, once built or loaded
    workspace: Path | None = None  # where the index's cache lives (load_index's); None for one built in memory

    def __post_init__(self) -> None:
        if not isinstance(self.files, FileTable):
            self.files = FileTable(dict(self.files).items())

    def definitions(self, path: str) -> tuple[Symbol, ...]:
        entry = self.files.get(path)
        return entry.definitions if entry else ()


@dataclass(frozen=True)
class RankedSymbol:
    symbol: Symbol
    rank: float


@dataclass(frozen=True)
class RepoMap:
    """A map fitted to its budget: the text a model reads, and what it lists."""

    text: str
    tokens: int
    budget: int
    files: tuple[str, ...]
    symbols: tuple[RankedSymbol, ...]
