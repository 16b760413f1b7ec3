"""Run one function over spans of a list in forked worker processes, handing out the spans one at a time.

Forking, not a process pool: the work is a closure over this process's data (the file list, an extractor),
which a forked child starts with and a pool would have to pickle, and each child keeps what the closure
builds up (compiled grammars) across all its spans without a module-level cache. Only span numbers go out
and results come back. Each worker has its own pipe; the next span goes to whichever worker answers first.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from contextlib import suppress
from multiprocessing.connection import Connection, wait
from typing import TypeVar

from slmcode.errors import RepoMapError

Result = TypeVar("Result")


def _serve(work: Callable[[int], Result], conn: Connection, parent_ends: list[Connection]) -> None:
    """A worker's loop: span number in, its result out, until told to stop (None) or the parent is gone."""
    for end in parent_ends:
        end.close()  # inherited copies: held here, they would keep a pipe open after the parent closes it
    try:
        while (span := conn.recv()) is not None:
            conn.send(work(span))
    except (EOFError, BrokenPipeError):
        return  # the parent stopped early (an error or an interrupt): nothing left to do


def _died(process: multiprocessing.process.BaseProcess) -> RepoMapError:
    process.join(timeout=5)
    return RepoMapError(f"a parse worker died (exit code {process.exitcode})")


def run_forked(
    work: Callable[[int], Result],
    spans: int,
    workers: int,
    on_result: Callable[[int, Result], None],
) -> None:
    """Call work(0) .. work(spans - 1) in `workers` forked processes; on_result(span, result) runs here, in
    the order results arrive. A worker that dies before its last answer raises RepoMapError."""
    context = multiprocessing.get_context("fork")
    links: dict[Connection, multiprocessing.process.BaseProcess] = {}
    try:
        for _ in range(min(workers, spans)):
            ours, theirs = context.Pipe()
            process = context.Process(target=_serve, args=(work, theirs, [*links, ours]), daemon=True)
            process.start()
            theirs.close()
            links[ours] = process
        pending = iter(range(spans))
        running: dict[Connection, int] = {}
        for conn in links:
            running[conn] = next(pending)
            conn.send(running[conn])
        while running:
            busy = {links[conn].sentinel: conn for conn in running}
            for ready in wait([*running, *busy]):
                conn = busy.get(ready, ready)  # type: ignore[arg-type]  # a sentinel (int) or a Connection
                if conn not in running:
                    continue  # answered in this same round, before its sentinel was read
                try:
                    result = conn.recv()
                except EOFError:
                    raise _died(links[conn]) from None
                on_result(running.pop(conn), result)
                if (span := next(pending, None)) is not None:
                    running[conn] = span
                # A worker that died meanwhile is caught by the next wait if it still owes a span.
                with suppress(BrokenPipeError):
                    conn.send(span)
    finally:
        for conn, process in links.items():  # type: ignore[assignment]
            conn.close()
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()
