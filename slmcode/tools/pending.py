"""The user's side of review mode: `slmcode diff`, `slmcode apply`, `slmcode reject`.

`diff` and `apply` go through the same check (planned_write) and use the same bytes: what `diff` shows is
computed from the disk file and exactly the bytes `apply` would write, never from text stored in the patch.
A patch is refused, with one line naming why, when its content hash does not match (the file was edited
outside slmcode), when its target is outside the workspace or protected, or when its file changed since it
was staged. The hash catches a patch edited by hand or by a command; the sandbox keeps agent commands
from writing the pending folder at all.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from slmcode.environment import Environment, LocalEnvironment
from slmcode.environment.containment import Refusal, WorkspacePath, resolve_path
from slmcode.errors import PatchError
from slmcode.tools.permissions import Patch, patch_folder, read_patch, sha256_of


@dataclass(frozen=True)
class PlannedWrite:
    """A checked patch: the file it writes, what is there now, and the exact bytes it would write."""

    patch: Patch
    target: WorkspacePath
    old: bytes | None
    new: bytes

    def diff(self) -> str:
        old = None if self.old is None else self.old.decode(self.patch.encoding, errors="replace")
        return unified_diff(self.patch.path, old, self.new.decode(self.patch.encoding))


def unified_diff(rel: str, old: str | None, new: str) -> str:
    lines = difflib.unified_diff(
        (old or "").splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile="/dev/null" if old is None else f"a/{rel}",
        tofile=f"b/{rel}",
    )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def list_pending(workspace: Path) -> list[Patch]:
    """Every patch staged for review, oldest first; a file there that is not a patch is an error."""
    folder = patch_folder(Path(workspace), "review")
    if not folder.is_dir():
        return []
    patches = []
    for file in sorted(folder.glob("*.json")):
        try:
            patches.append(read_patch(file))
        except ValueError as exc:
            raise PatchError(
                f"{file.relative_to(workspace)} is not a valid patch ({exc}); delete it or `slmcode reject {file.stem}`"
            ) from None
    return patches


def planned_write(workspace: Path, patch: Patch) -> PlannedWrite:
    """Check one patch and say exactly what applying it would do; PatchError (one line) when it must not."""
    where = f"patch {patch.id} ({patch.path})"
    if not patch.sha256 or patch.sha256 != patch.expected_hash():
        raise PatchError(
            f"{where} does not match its content hash: it was changed outside slmcode; "
            f"reject it with `slmcode reject {patch.id}`"
        )
    try:
        target = resolve_path(workspace, patch.path, for_write=True)
    except Refusal as exc:
        raise PatchError(f"patch {patch.id}: {str(exc).removeprefix('Error: ')}") from None
    if target.real.is_dir():
        raise PatchError(f"{where} targets a folder; reject it with `slmcode reject {patch.id}`")
    old = target.real.read_bytes() if target.real.is_file() else None
    if sha256_of(target.real) != patch.base_sha256:
        raise PatchError(
            f"{where} is stale: the file changed since it was staged; "
            f"reject it with `slmcode reject {patch.id}` and redo the change"
        )
    return PlannedWrite(patch=patch, target=target, old=old, new=patch.new_bytes)


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


def plan_pending(workspace: Path, ids: Sequence[str] | None = None) -> list[PlannedWrite | PatchError]:
    """What `apply` would do for each chosen patch, or why it would refuse it (for `slmcode diff`)."""
    plans: list[PlannedWrite | PatchError] = []
    for patch in _select(Path(workspace), ids):
        try:
            plans.append(planned_write(Path(workspace), patch))
        except PatchError as exc:
            plans.append(exc)
    return plans


def apply_pending(
    workspace: Path, ids: Sequence[str] | None = None, environment: Environment | None = None
) -> list[Patch]:
    """Write the chosen patches (all when ids is empty) through `environment` (None: the local one); refuses every
    write if any of them is refused."""
    workspace = Path(workspace)
    environment = environment or LocalEnvironment(workspace)
    plans = [planned_write(workspace, patch) for patch in _select(workspace, ids)]
    targets = [plan.target.real for plan in plans]
    if len(set(targets)) < len(targets):
        twice = next(plan.patch.path for plan in plans if targets.count(plan.target.real) > 1)
        raise PatchError(f"two pending patches write {twice}; reject one of them with `slmcode reject ID`")
    folder = patch_folder(workspace, "review")
    for plan in plans:
        try:
            environment.write(plan.target.rel, plan.new)
        except ValueError as exc:  # its path changed since it was checked (a symlink swapped in)
            raise PatchError(f"patch {plan.patch.id}: {exc}") from None
        (folder / f"{plan.patch.id}.json").unlink()
    return [plan.patch for plan in plans]


def reject_pending(workspace: Path, ids: Sequence[str] | None = None) -> list[tuple[str, str]]:
    """Discard the chosen patches (all when ids is empty) without touching the files; returns (id, path) pairs.

    Works on patch files that no longer parse too, so a broken or forged one can always be removed."""
    folder = patch_folder(Path(workspace), "review")
    files = sorted(folder.glob("*.json")) if folder.is_dir() else []
    by_id = {f.stem: f for f in files}
    chosen = []
    for raw in ids or list(by_id):
        key = f"{int(raw):04d}" if raw.strip().isdigit() else raw.strip()
        if key not in by_id:
            raise PatchError(f"no pending patch {raw}; `slmcode diff` lists the pending patches")
        chosen.append(key)
    rejected = []
    for key in chosen:
        try:
            path = read_patch(by_id[key]).path
        except ValueError:
            path = "(not a valid patch)"
        by_id[key].unlink()
        rejected.append((key, path))
    return rejected
