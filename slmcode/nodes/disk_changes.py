"""Which of a task's written files it really changed: the verdict table, the reviewer and the lessons read
`task.files_changed`, and it must say what the disk says. A worker that edits a file and later puts it back
(a stray edit undone by hand, a corrector reverting the first attempt) leaves the file as it was: no change.

The reference is the file's before-image (store/before_images.py: its bytes before the task's first write,
kept for `slmcode undo`), compared with the disk now. A file with no image (a dry-run or review task stages
patches and writes nothing; a transcript from before images were kept) stays listed: nothing says otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from slmcode.store.before_images import images_of


def _bytes_now(workspace: Path, shown: str) -> bytes | None:
    path = workspace / shown
    return path.read_bytes() if path.is_file() else None


def net_changes(workspace: Path, run_id: str, task_id: str, paths: Iterable[str]) -> list[str]:
    """`paths` (what the task's write tools reported) less those the disk holds exactly as before the task."""
    before = {image.path: image.before for image in images_of(workspace, run_id) if image.task_id == task_id}
    return sorted(p for p in set(paths) if p not in before or _bytes_now(workspace, p) != before[p])
