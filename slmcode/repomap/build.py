"""The repo map's public entry points: build the symbol index (through the cache), size the map's budget,
render the map for a query.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from slmcode.budget.tokens import TokenCounter, default_counter
from slmcode.errors import RepoMapError
from slmcode.repomap.cache import (
    FAILED,
    FORMAT_VERSION,
    OK,
    FileRow,
    content_digest,
    decode_names,
    open_cache,
    path_key,
    read_graph,
    read_rows,
    read_tables,
    write_graph,
    write_rows,
)
from slmcode.repomap.discover import Candidate, discover
from slmcode.repomap.fitted import map_key, remembered_counts, store_counts, store_map, stored_map
from slmcode.repomap.graph import ReferenceGraph, graph_from_tables
from slmcode.repomap.model import FileSymbols, RepoMap, SymbolIndex
from slmcode.repomap.parse import parse_files
from slmcode.repomap.query import query_identifiers
from slmcode.repomap.rank import rank_symbols, with_base_rank
from slmcode.repomap.render import fit_map
from slmcode.repomap.settings import RepoMapSettings
from slmcode.repomap.tables import NameTables, changed_files, patched_tables, tables_from_files

__all__ = ["load_index", "map_budget", "query_identifiers", "render_map"]

MAP_SHRINK_PER_FILE = 0.08
MAP_FLOOR = 0.25
NOT_CACHED = frozenset({"unreadable"})  # may change without the stat changing (permissions): ask again


def _reconcile(
    workspace: Path, candidates: Sequence[Candidate], rows: dict[str, FileRow]
) -> tuple[list[tuple[str, FileRow]], list[tuple[str, FileRow]], list[Candidate]]:
    """Split the files into unchanged (row reused), refreshed (same bytes under a new stat or a new name),
    and those to parse."""
    current = {c.path for c in candidates}
    vanished_by_digest: dict[str, str] = {}
    for path, old in rows.items():  # rows come sorted by path, so the first old name wins a tie
        if path not in current:
            vanished_by_digest.setdefault(old.digest, path)
    unchanged: list[tuple[str, FileRow]] = []
    refreshed: list[tuple[str, FileRow]] = []
    to_parse: list[Candidate] = []
    for c in candidates:
        row = rows.get(c.path)
        if row is not None and row.mtime_ns == c.mtime_ns and row.size == c.size:
            unchanged.append((c.path, row))
            continue
        if row is None and not vanished_by_digest:
            to_parse.append(c)  # a new file and no old one it could be a rename of: no need to hash it here
            continue
        try:
            digest = content_digest((workspace / c.path).read_bytes())
        except OSError:
            to_parse.append(c)  # parsing reports it unreadable
            continue
        if row is not None and row.digest == digest:
            refreshed.append((c.path, row.restat(c.mtime_ns, c.size)))
        elif digest in vanished_by_digest:
            refreshed.append((c.path, rows[vanished_by_digest[digest]].restat(c.mtime_ns, c.size)))
        else:
            to_parse.append(c)
    return unchanged, refreshed, to_parse


def load_index(
    workspace: Path, settings: RepoMapSettings, on_progress: Callable[[int, int], None] | None = None
) -> SymbolIndex:
    """The workspace's symbol index, parsing only what the cache does not already hold, with its reference
    graph (read from the cache when no file changed, else built and stored).

    on_progress(done, total) follows the files being parsed. A file that fails to parse is counted in
    parse_failures; a build that cannot run at all raises RepoMapError.
    """
    workspace = Path(workspace).resolve()
    found = discover(workspace, settings.repomap_max_file_bytes)
    index = SymbolIndex(skipped=dict(found.skipped))
    try:
        with open_cache(workspace) as conn:
            rows = read_rows(conn)
            unchanged, refreshed, to_parse = _reconcile(workspace, found.files, rows)
            by_path = {c.path: c for c in found.files}
            for path, row in unchanged + refreshed:
                _add(index, path, row)
            parsed = parse_files(workspace, to_parse, on_progress, partial(_add_parsed, index))
            written = dict(refreshed + parsed)
            version = _version(index, {**rows, **written})
            stored = read_graph(conn, version)
            if stored is not None:
                index.graph = _graph_or_none(stored)
            if index.graph is None:
                version = _store_graph(conn, workspace, index, {**rows, **written}, written, by_path)
            index.version, index.workspace = version, workspace
            write_rows(
                conn,
                [(path, row) for path, row in written.items() if row.outcome not in NOT_CACHED],
                [path for path in rows if path not in by_path],
            )
    except OSError as exc:
        raise RepoMapError(f"repo map of {workspace}: {exc}") from None
    index.skipped = dict(sorted(index.skipped.items()))
    return index


def _patched(conn: sqlite3.Connection, index: SymbolIndex, paths: list[str], digests: list[str]) -> NameTables | None:
    """The last graph's name tables patched with the files changed since; None when there are none or when
    most files changed (building from every file is then as quick)."""
    data = read_tables(conn)
    try:
        old = NameTables.from_bytes(data) if data is not None else None
        if old is None or len(changed_files(old, paths, digests)) * 2 > len(paths):
            return None
        return patched_tables(old, paths, digests, index.files.names)
    except (ValueError, KeyError, TypeError, OSError):
        return None  # stored tables or a changed file's row this version cannot read: build from every file


def _store_graph(
    conn: sqlite3.Connection,
    workspace: Path,
    index: SymbolIndex,
    rows: dict[str, FileRow],
    written: dict[str, FileRow],
    by_path: dict[str, Candidate],
) -> str:
    """Build the index's graph (by patching the last one's name tables when few files changed), store it with
    its tables, and return the index version. `rows` and `written` take the rows of files parsed again."""
    paths = list(index.files)
    tables = _patched(conn, index, paths, [rows[path].digest for path in paths])
    if tables is None:
        # A row whose names this version cannot read (an older build's, under the same format number) would
        # break the graph: parse its file again.
        unreadable = [by_path[path] for path in index.files if not _readable(index, path)]
        for path, row in parse_files(workspace, unreadable):
            _add(index, path, row)
            written[path] = rows[path] = row
        paths = list(index.files)
        tables = tables_from_files(paths, [rows[path].digest for path in paths], [index.files.names(p) for p in paths])
    index.files.drop_names()
    index.graph = with_base_rank(graph_from_tables(tables))
    version = _version(index, rows)
    write_graph(conn, version, index.graph.to_bytes(), tables.to_bytes())
    return version


def _version(index: SymbolIndex, rows: dict[str, FileRow]) -> str:
    """A digest of the files the index holds and of their bytes."""
    digest = hashlib.blake2b(FORMAT_VERSION.encode(), digest_size=16)
    for path in index.files:
        digest.update(path_key(path) + b"\0" + rows[path].digest.encode() + b"\n")
    return digest.hexdigest()


def _graph_or_none(data: bytes) -> ReferenceGraph | None:
    try:
        return ReferenceGraph.from_bytes(data)
    except (ValueError, KeyError, OSError):
        return None  # a graph this version cannot read: build it again


def _readable(index: SymbolIndex, path: str) -> bool:
    try:
        index.files.names(path)
    except (ValueError, KeyError, TypeError):
        return False
    return True


def _decoded(path: str, row: FileRow) -> FileSymbols:
    try:
        symbols = row.symbols(path)
    except (ValueError, KeyError, TypeError):
        symbols = None  # a row the graph could read but whose definitions are damaged: show none of them
    return symbols or FileSymbols(path, "", (), ())


def _add(index: SymbolIndex, path: str, row: FileRow) -> None:
    """Count a file into the index: its symbols (decoded when asked), a parse failure, or the reason it was
    skipped."""
    if row.outcome == OK and row.payload is not None and row.names is not None:
        index.files.defer(path, partial(_decoded, path, row), partial(decode_names, row.names))
    elif row.outcome == FAILED:
        index.parse_failures += 1
    elif row.outcome != OK:
        index.skipped[row.outcome] = index.skipped.get(row.outcome, 0) + 1


def _add_parsed(index: SymbolIndex, path: str, row: FileRow) -> None:
    """Count a freshly parsed file in, its names decoded now: the graph reads every changed file's names, and
    in a cold build this runs beside the parse workers instead of after them."""
    _add(index, path, row)
    if path in index.files:
        index.files.names(path)


def map_budget(base_tokens: int, files_in_pack: int) -> int:
    """The map's budget once `files_in_pack` file bodies are in the pack: 8% less per file, never under 25%."""
    share = max(MAP_FLOOR, 1.0 - MAP_SHRINK_PER_FILE * max(0, files_in_pack))
    return max(1, round(base_tokens * share))


def render_map(
    index: SymbolIndex,
    *,
    query: str = "",
    focus_files: Sequence[str] = (),
    budget_tokens: int = 1000,
    counter: TokenCounter | None = None,
) -> RepoMap:
    """The largest map of the index's best-ranked symbols that fits `budget_tokens`."""
    # A map fitted before for the same index version and inputs is read back (only with the default counter,
    # whose name says what it counts).
    workspace = index.workspace
    reusable = index.version is not None and workspace is not None and counter in (None, default_counter())
    key = map_key(query, focus_files, budget_tokens, default_counter().name) if reusable else ""
    if reusable and workspace is not None and (found := stored_map(index, workspace, key)) is not None:
        return found
    # Each symbol costs at least a token: more than the budget's count can never fit.
    ranked = rank_symbols(index, query=query, focus_files=focus_files, limit=max(0, budget_tokens))
    if not reusable or workspace is None:
        return fit_map(ranked, budget_tokens, counter)
    counts = remembered_counts(workspace, default_counter())
    fitted = fit_map(ranked, budget_tokens, counts)
    store_map(index, workspace, key, fitted)
    store_counts(workspace, counts)
    return fitted
