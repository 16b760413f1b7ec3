"""Undo and rewind without git: files restored from the journal's before-images (store.before_images).

A file is restored only while it still holds what the run wrote: one changed since (by the user, a command,
a later run) is named in one line and nothing is touched. Undoing one task refuses a file a later task of the
run wrote again (rewind to an earlier task instead). Tasks are ordered by their first write.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from slmcode.errors import GitRunError
from slmcode.gitrun.ops import Outcome
from slmcode.store.atomic import atomic_write_bytes
from slmcode.store.before_images import Image, images_of, mark_undone, runs_with_images, sha256_bytes

__all__ = ["changes_diff", "rewind", "runs_with_images", "undo"]


def _task_order(images: list[Image]) -> list[str]:
    order: list[str] = []
    for image in images:
        if image.task_id not in order:
            order.append(image.task_id)
    return order


def _restore(workspace: Path, chosen: list[Image], last_sha: dict[str, str], what: str, dry_run: bool) -> Outcome:
    """Restore the earliest chosen image of each file; refuse if any file no longer holds the run's last write."""
    first: dict[str, Image] = {}
    for image in chosen:
        first.setdefault(image.path, image)
    changes: list[tuple[str, str]] = []
    for path, image in first.items():
        real = workspace / path
        now = real.read_bytes() if real.is_file() else None
        if sha256_bytes(now) != last_sha[path]:
            raise GitRunError(
                f"{path} changed since the run wrote it: {what} would lose that change; nothing was restored"
            )
        changes.append(("D" if image.before is None else "A" if now is None else "M", path))
    if dry_run:
        return Outcome(f"{what} would restore {len(first)} file(s) from the journal's before-images", changes)
    for path, image in first.items():
        real = workspace / path
        if image.before is None:
            real.unlink(missing_ok=True)
        else:
            atomic_write_bytes(real, image.before)
    mark_undone(workspace, [i.seq for i in chosen])
    return Outcome(f"{what}: restored {len(first)} file(s) from the journal's before-images", changes)


def _images(workspace: Path, run_id: str) -> list[Image]:
    images = images_of(workspace, run_id)
    if not images:
        known = ", ".join(runs_with_images(workspace)[-5:]) or "none"
        raise GitRunError(f"run '{run_id}' has no file changes to undo in {workspace} (runs with changes: {known})")
    return images


def _last_sha(images: list[Image]) -> dict[str, str]:
    """What each file holds after the run's last write of it: the last writing task's after-image."""
    return {i.path: i.after_sha for i in images}  # images come in write order


def undo(workspace: Path, run_id: str, task_id: str | None, *, dry_run: bool = False) -> Outcome:
    images = _images(workspace, run_id)
    last = _last_sha(images)
    if task_id is None:
        return _restore(workspace, images, last, f"undo run {run_id}", dry_run)
    order = _task_order(images)
    if task_id not in order:
        raise GitRunError(f"task '{task_id}' of run {run_id} wrote no file (tasks that did: {', '.join(order)})")
    mine = [i for i in images if i.task_id == task_id]
    for image in mine:
        later = [i.task_id for i in images if i.path == image.path and i.seq > image.seq]
        if later:
            raise GitRunError(
                f"{image.path} was written again by task {later[0]}: undoing task {task_id} alone "
                f"would lose that; `slmcode rewind {run_id} --to` an earlier task instead"
            )
    return _restore(workspace, mine, {i.path: i.after_sha for i in mine}, f"undo task {task_id}", dry_run)


def rewind(workspace: Path, run_id: str, to_task: str, *, dry_run: bool = False) -> Outcome:
    images = _images(workspace, run_id)
    order = _task_order(images)
    if to_task not in order:
        raise GitRunError(f"task '{to_task}' of run {run_id} wrote no file (tasks that did: {', '.join(order)})")
    dropped = order[order.index(to_task) + 1 :]
    if not dropped:
        raise GitRunError(f"task {to_task} is run {run_id}'s last task with changes: nothing to rewind")
    later = [i for i in images if i.task_id in dropped]
    return _restore(
        workspace,
        later,
        _last_sha(images),
        f"rewind run {run_id} to task {to_task} (undoing {', '.join(dropped)})",
        dry_run,
    )


def changes_diff(workspace: Path, run_ids: list[str]) -> str:
    """What the runs changed, as a unified diff from each file's earliest before-image to what it holds now:
    /diff where there is no git to ask (the demo's copy under /tmp). A file the runs made is all additions."""
    first: dict[str, Image] = {}
    for run_id in run_ids:
        for image in images_of(workspace, run_id):
            first.setdefault(image.path, image)
    out = []
    for path in sorted(first):
        real = workspace / path
        now = real.read_bytes() if real.is_file() else None
        before = first[path].before
        if now == before:
            continue
        old = (before or b"").decode(errors="replace").splitlines(keepends=True)
        new = (now or b"").decode(errors="replace").splitlines(keepends=True)
        where = ("/dev/null" if before is None else f"a/{path}", "/dev/null" if now is None else f"b/{path}")
        lines = difflib.unified_diff(old, new, fromfile=where[0], tofile=where[1])
        ending = "\n\\ No newline at end of file\n"
        out.append("".join(line if line.endswith("\n") else line + ending for line in lines))
    return "".join(out)
