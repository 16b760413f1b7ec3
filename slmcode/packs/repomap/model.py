"""The repo map's data: symbols, the index of a workspace, and a rendered map. Shared by extract,
cache, rank and render, and read by the context packs (excerpts widen to a symbol's range)."""

from __future__ import annotations

from dataclasses import dataclass, field


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


@dataclass
class SymbolIndex:
    """Every parsed file of a workspace, plus what was skipped and why (counted, never fatal)."""

    files: dict[str, FileSymbols] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)  # reason -> count
    parse_failures: int = 0

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
