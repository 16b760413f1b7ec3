"""Read and parse the files a build needs, in forked worker processes when there are many (a cold build).

Parsing is the cost of a cold build (tree-sitter's Python grammar reads about 250k lines a second per core),
so a large batch is spread over processes; a handful of changed files is parsed in this process, where
starting workers would cost more than it saves. Each worker keeps its extractor, so its grammars, for all
the spans it parses, and sends back cache rows (a JSON payload per file), which cost next to nothing to
pickle. Grammars load in the workers, not here before the fork: a rare language then costs only the worker
that meets it, and a common one costs each worker the same time in parallel.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from slmcode.repomap.cache import FAILED, OK, FileRow, content_digest
from slmcode.repomap.discover import Candidate, content_skip_reason
from slmcode.repomap.extract import Extractor, ParseFailure
from slmcode.repomap.workers import run_forked

PARALLEL_MIN_FILES = 64
MAX_WORKERS = 4
BATCH_FILES = 48  # files between two progress calls when parsing here
SPANS_PER_WORKER = 24  # many small spans, largest files first: the workers finish together

Progress = Callable[[int, int], None]


def read_file(workspace: Path, candidate: Candidate, extractor: Extractor) -> FileRow:
    """Read and parse one file; a file that cannot be read or parsed becomes a row saying so."""
    try:
        source = (workspace / candidate.path).read_bytes()
    except OSError:
        return FileRow(candidate.mtime_ns, candidate.size, "", "unreadable")
    digest = content_digest(source)
    if (reason := content_skip_reason(source)) is not None:
        return FileRow(candidate.mtime_ns, candidate.size, digest, reason)
    try:
        payload, names = extractor.payload(candidate.path, source)
    except (ParseFailure, RecursionError, ValueError):
        return FileRow(candidate.mtime_ns, candidate.size, digest, FAILED)
    return FileRow(candidate.mtime_ns, candidate.size, digest, OK, payload, names)


def _workers() -> int:
    if "fork" not in multiprocessing.get_all_start_methods() or not hasattr(os, "sched_getaffinity"):
        return 1  # spawning fresh interpreters costs more than parsing saves; stay in this process
    if threading.active_count() > 1:
        return 1  # forking a process that runs threads (a graph run's nodes) can deadlock the child
    return max(1, min(MAX_WORKERS, len(os.sched_getaffinity(0))))


def _spans(candidates: Sequence[Candidate], workers: int) -> list[list[int]]:
    """Candidate indexes in spans, the largest files first, so that the last spans handed out are short."""
    order = sorted(range(len(candidates)), key=lambda i: -candidates[i].size)
    size = max(1, -(-len(order) // (workers * SPANS_PER_WORKER)))
    return [order[start : start + size] for start in range(0, len(order), size)]


def parse_files(
    workspace: Path,
    candidates: Sequence[Candidate],
    on_progress: Progress | None = None,
    on_row: Callable[[str, FileRow], None] | None = None,
) -> list[tuple[str, FileRow]]:
    """(path, row) for every candidate, in the candidates' order; on_row(path, row) as each row arrives."""
    total = len(candidates)
    extractor = Extractor()
    workers = _workers()
    if total < PARALLEL_MIN_FILES or workers == 1:
        rows: list[tuple[str, FileRow]] = []
        for c in candidates:
            rows.append((c.path, read_file(workspace, c, extractor)))
            if on_row:
                on_row(*rows[-1])
            if on_progress and (len(rows) % BATCH_FILES == 0 or len(rows) == total):
                on_progress(len(rows), total)
        return rows
    spans = _spans(candidates, workers)
    found: dict[int, FileRow] = {}

    def parse_span(span: int) -> list[FileRow]:
        return [read_file(workspace, candidates[i], extractor) for i in spans[span]]

    def collect(span: int, result: list[FileRow]) -> None:
        found.update(zip(spans[span], result, strict=True))
        if on_row:
            for i, row in zip(spans[span], result, strict=True):
                on_row(candidates[i].path, row)
        if on_progress:
            on_progress(len(found), total)

    run_forked(parse_span, len(spans), workers, collect)
    return [(c.path, found[i]) for i, c in enumerate(candidates)]
