"""Permission modes for every write: auto writes to disk, dry-run records, review stages for the user.

A recorded patch holds the file's whole new text and the sha256 of the disk file it was made against, so
`apply` can refuse a patch whose file changed since. Each file has at most one patch per folder: a second
edit of the same file updates the patch, and the tools read a file through its patch, so a worker in
dry-run or review mode sees its own edits (and is told they are not on disk).

Review patches live in .slmcode/pending/ until `slmcode apply` or `slmcode reject`; dry-run patches live in
.slmcode/dry-run/<run id>/ and are never applied.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

from slmcode.errors import PatchError
from slmcode.tools import prompts
from slmcode.tools.context import ToolContext
from slmcode.tools.sandbox import Refusal, WorkspacePath, resolve_path

PatchMode = Literal["review", "dry-run"]
PENDING_DIR = Path(".slmcode") / "pending"
DRY_RUN_DIR = Path(".slmcode") / "dry-run"


class Patch(BaseModel):
    id: str
    path: str
    base_sha256: str | None  # None: the file did not exist when the patch was made
    new_text: str
    diff: str
    mode: PatchMode
    run_id: str = ""
    task_id: str = ""


def sha256_of(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None


def unified_diff(rel: str, old: str | None, new: str) -> str:
    lines = difflib.unified_diff(
        (old or "").splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile="/dev/null" if old is None else f"a/{rel}",
        tofile=f"b/{rel}",
    )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def patch_folder(workspace: Path, mode: PatchMode, run_id: str = "") -> Path:
    return workspace / (PENDING_DIR if mode == "review" else DRY_RUN_DIR / (run_id or "run"))


def load_patches(folder: Path) -> list[Patch]:
    if not folder.is_dir():
        return []
    return [Patch.model_validate_json(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))]


def _save_new(folder: Path, patch: Patch) -> Patch:
    """Store under the next free id; exclusive creation keeps two parallel workers from sharing one."""
    folder.mkdir(parents=True, exist_ok=True)
    number = max((int(p.stem) for p in folder.glob("*.json") if p.stem.isdigit()), default=0) + 1
    while True:
        stored = patch.model_copy(update={"id": f"{number:04d}"})
        try:
            with (folder / f"{stored.id}.json").open("x", encoding="utf-8") as handle:
                handle.write(stored.model_dump_json(indent=1))
            return stored
        except FileExistsError:
            number += 1


def _active_mode(ctx: ToolContext) -> PatchMode | None:
    mode = ctx.settings.permission
    return None if mode == "auto" else mode


def staged_patch(ctx: ToolContext, rel: str) -> Patch | None:
    """The patch this task's mode keeps for `rel`, if any."""
    mode = _active_mode(ctx)
    if mode is None:
        return None
    folder = patch_folder(ctx.workspace, mode, ctx.run_id)
    return next((p for p in load_patches(folder) if p.path == rel), None)


def atomic_write(path: Path, text: str) -> None:
    """Write through a temporary file and rename, so a crash never leaves half a file; keep the mode bits."""
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o7777 if path.exists() else None
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".slmcode-tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _line_count(text: str) -> int:
    return text.count("\n") + (0 if text.endswith("\n") or not text else 1)


def record_write(ctx: ToolContext, target: WorkspacePath, new_text: str, *, action: str) -> str:
    """Carry out one write in the task's permission mode; returns what the model is told."""
    mode = _active_mode(ctx)
    if mode is None:
        atomic_write(target.real, new_text)
        if target.rel not in ctx.files_changed:
            ctx.files_changed.append(target.rel)
        return prompts.WROTE.format(action=action, path=target.rel, lines=_line_count(new_text))
    disk = target.real.read_text(encoding="utf-8", errors="replace") if target.real.is_file() else None
    folder = patch_folder(ctx.workspace, mode, ctx.run_id)
    diff = unified_diff(target.rel, disk, new_text)
    previous = staged_patch(ctx, target.rel)
    if previous is not None:
        patch = previous.model_copy(update={"new_text": new_text, "diff": diff})
        (folder / f"{patch.id}.json").write_text(patch.model_dump_json(indent=1), encoding="utf-8")
    else:
        draft = Patch(
            id="", path=target.rel, base_sha256=sha256_of(target.real), new_text=new_text, diff=diff,
            mode=mode, run_id=ctx.run_id, task_id=ctx.task_id,
        )
        patch = _save_new(folder, draft)
    if patch.id not in ctx.staged_patches:
        ctx.staged_patches.append(patch.id)
    if mode == "dry-run":
        return prompts.DRY_RUN.format(action=action, path=target.rel, id=patch.id)
    return prompts.REVIEW.format(path=target.rel, id=patch.id)


# The user's side: `slmcode diff`, `slmcode apply`, `slmcode reject`.


def list_pending(workspace: Path) -> list[Patch]:
    """Every patch staged for review, oldest first."""
    return load_patches(patch_folder(Path(workspace), "review"))


def _select(workspace: Path, ids: Sequence[str] | None) -> list[Patch]:
    pending = list_pending(workspace)
    if not ids:
        return pending
    by_id = {p.id: p for p in pending}
    chosen: list[Patch] = []
    for raw in ids:
        key = f"{int(raw):04d}" if raw.strip().isdigit() else raw.strip()
        if key not in by_id:
            raise PatchError(f"no pending patch {raw}; `slmcode diff` lists the pending patches")
        chosen.append(by_id[key])
    return chosen


def _check_fresh(workspace: Path, patch: Patch) -> WorkspacePath:
    try:
        target = resolve_path(workspace, patch.path, for_write=True)
    except Refusal as exc:
        raise PatchError(f"patch {patch.id}: {str(exc).removeprefix('Error: ')}") from None
    if sha256_of(target.real) != patch.base_sha256:
        raise PatchError(
            f"patch {patch.id} ({patch.path}) is stale: the file changed since it was staged; "
            f"reject it with `slmcode reject {patch.id}` and redo the change"
        )
    return target


def apply_pending(workspace: Path, ids: Sequence[str] | None = None) -> list[Patch]:
    """Write the chosen patches (all when ids is empty); refuses every write if any of them is stale."""
    workspace = Path(workspace)
    chosen = _select(workspace, ids)
    targets = [_check_fresh(workspace, patch) for patch in chosen]
    folder = patch_folder(workspace, "review")
    for patch, target in zip(chosen, targets, strict=True):
        atomic_write(target.real, patch.new_text)
        (folder / f"{patch.id}.json").unlink()
    return chosen


def reject_pending(workspace: Path, ids: Sequence[str] | None = None) -> list[Patch]:
    """Discard the chosen patches (all when ids is empty) without touching the files."""
    workspace = Path(workspace)
    chosen = _select(workspace, ids)
    folder = patch_folder(workspace, "review")
    for patch in chosen:
        (folder / f"{patch.id}.json").unlink()
    return chosen
