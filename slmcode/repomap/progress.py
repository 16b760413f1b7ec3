"""A Rich progress bar for a cold build: shown only when enough files need parsing to make the wait felt."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

SHOW_FROM_FILES = 200


@contextmanager
def progress_reporter(console: Console) -> Iterator[Callable[[int, int], None]]:
    """An on_progress(done, total) callback; the bar appears on the first call with total >= SHOW_FROM_FILES."""
    progress: Progress | None = None
    task = None

    def report(done: int, total: int) -> None:
        nonlocal progress, task
        if progress is None:
            if total < SHOW_FROM_FILES or not console.is_terminal:
                return
            progress = Progress(
                TextColumn("indexing symbols"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=console,
                transient=True,
            )
            progress.start()
            task = progress.add_task("parse", total=total)
        progress.update(task, completed=done)  # type: ignore[arg-type]

    try:
        yield report
    finally:
        if progress is not None:
            progress.stop()
