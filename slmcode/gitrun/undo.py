"""Which undo a target means: a run with a git record goes through its commits (gitrun.ops), any other run
through the journal's before-images (gitrun.images). A target is a run id, or a task id of a run."""

from __future__ import annotations

from pathlib import Path

from slmcode.errors import GitRunError
from slmcode.gitrun import images, ops
from slmcode.gitrun.ops import Outcome
from slmcode.gitrun.run_record import all_records, load_record


def _latest_run(workspace: Path) -> str:
    git_runs = [r.run_id for r in all_records(workspace) if r.state != "undone"]
    image_runs = images.runs_with_images(workspace)
    latest = sorted([*git_runs, *image_runs])  # run ids begin with their start time
    if not latest:
        raise GitRunError(f"no run in {workspace} changed any file that slmcode could undo")
    return latest[-1]


def _is_run(workspace: Path, name: str) -> bool:
    return load_record(workspace, name) is not None or name in images.runs_with_images(workspace)


def undo_target(workspace: Path, target: str | None, run: str | None, *, dry_run: bool) -> Outcome:
    if target is None or (run is None and _is_run(workspace, target)):
        run_id = target or run or _latest_run(workspace)
        if load_record(workspace, run_id) is not None:
            return ops.undo_run(workspace, run_id, dry_run=dry_run)
        return images.undo(workspace, run_id, None, dry_run=dry_run)
    run_id = run or _latest_run(workspace)
    if load_record(workspace, run_id) is not None:
        return ops.undo_task(workspace, run_id, target, dry_run=dry_run)
    return images.undo(workspace, run_id, target, dry_run=dry_run)


def rewind_run(workspace: Path, run_id: str, to_task: str, *, dry_run: bool) -> Outcome:
    if load_record(workspace, run_id) is not None:
        return ops.rewind(workspace, run_id, to_task, dry_run=dry_run)
    return images.rewind(workspace, run_id, to_task, dry_run=dry_run)
