"""Read and parse the files a build needs, in worker processes when there are many (a cold build).

Parsing is the cost of a cold build (tree-sitter's Python grammar reads about 200k lines a second per core),
so a large batch is spread over processes; a handful of changed files is parsed in this process, where
starting workers would cost more than it saves.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from slmcode.packs.repomap.cache import FAILED, OK, Entry, content_digest
from slmcode.packs.repomap.discover import Candidate, content_skip_reason
from slmcode.packs.repomap.extract import Extractor, ParseFailure

PARALLEL_MIN_FILES = 64
MAX_WORKERS = 4
BATCH_FILES = 48  # the smallest batch; a batch loads its grammars afresh, so large builds use fewer, larger ones
BATCHES_PER_WORKER = 6  # enough for a smooth progress bar and an even spread over the workers

Progress = Callable[[int, int], None]


def parse_batch(workspace: str, batch: Sequence[Candidate]) -> list[Entry]:
    """Read and parse files; a file that cannot be read or parsed becomes an entry saying so."""
    extractor = Extractor()
    entries: list[Entry] = []
    for candidate in batch:
        try:
            source = (Path(workspace) / candidate.path).read_bytes()
        except OSError:
            entries.append(Entry(candidate.path, candidate.mtime_ns, candidate.size, "", "unreadable"))
            continue
        digest = content_digest(source)
        reason = content_skip_reason(source)
        if reason is not None:
            entries.append(Entry(candidate.path, candidate.mtime_ns, candidate.size, digest, reason))
            continue
        try:
            symbols = extractor.extract(candidate.path, source)
        except (ParseFailure, RecursionError, ValueError):
            entries.append(Entry(candidate.path, candidate.mtime_ns, candidate.size, digest, FAILED))
            continue
        entries.append(Entry(candidate.path, candidate.mtime_ns, candidate.size, digest, OK, symbols))
    return entries


def _workers() -> int:
    if "fork" not in multiprocessing.get_all_start_methods() or not hasattr(os, "sched_getaffinity"):
        return 1  # spawning fresh interpreters costs more than parsing saves; stay in this process
    if threading.active_count() > 1:
        return 1  # forking a process that runs threads (a graph run's nodes) can deadlock the child
    return max(1, min(MAX_WORKERS, len(os.sched_getaffinity(0))))


def parse_files(workspace: Path, candidates: Sequence[Candidate], on_progress: Progress | None = None) -> list[Entry]:
    """Entries for every candidate, in the candidates' order."""
    total = len(candidates)
    workers = _workers()
    if total < PARALLEL_MIN_FILES or workers == 1:
        entries: list[Entry] = []
        for start in range(0, total, BATCH_FILES):
            entries += parse_batch(str(workspace), candidates[start : start + BATCH_FILES])
            if on_progress:
                on_progress(len(entries), total)
        return entries
    size = max(BATCH_FILES, -(-total // (workers * BATCHES_PER_WORKER)))
    batches = [candidates[start : start + size] for start in range(0, total, size)]
    results: dict[int, list[Entry]] = {}
    done = 0
    # fork: workers inherit the loaded modules, so a batch starts at once; they touch no shared state.
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = {pool.submit(parse_batch, str(workspace), batch): i for i, batch in enumerate(batches)}
        for future in as_completed(futures):
            results[futures[future]] = future.result()
            done += len(results[futures[future]])
            if on_progress:
                on_progress(done, total)
    return [entry for i in range(len(batches)) for entry in results[i]]
