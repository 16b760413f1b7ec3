"""The kept attempt's files reach the workspace as a change, not as whole files: the user may edit the workspace
while the attempts work in their copies, and a copy of a file holds nothing of that edit.

For each file the attempt changed, its base is what the attempt's copy held before the attempt first wrote it
(the before-image in the copy's own journal). A workspace file still equal to its base takes the attempt's
version; one the user changed meanwhile gets a three-way merge (merge3) of base, the user's and the attempt's;
when the two changes overlap, the user's file is left as it is and the attempt's change is kept as a unified
diff under .slmcode/attempts, and the run says so. A file containment refuses on either side (the attempt's
copy left a symlink out of it, or the name reaches a protected folder) is withheld: nothing of it is read or
written, and the run names it. A file already holding the attempt's version (a join
resumed after a crash) is left alone, so nothing is applied twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from merge3 import Merge3

from slmcode.environment.containment import Refusal, resolve_path
from slmcode.environment.protocol import Environment
from slmcode.store.before_images import images_of, keep_before_image
from slmcode.tools.pending import unified_diff

UNKNOWN = object()  # no base recorded: whether the user changed the file cannot be told, so it counts as changed


@dataclass
class Applied:
    """What applying one attempt did to the files the user changed meanwhile."""

    merged: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    patches: list[str] = field(default_factory=list)  # workspace-relative, one per refused file
    withheld: list[str] = field(default_factory=list)  # "path: why", files containment kept out of the workspace

    def message(self) -> str:
        parts = []
        if self.merged:
            parts.append(f"{', '.join(self.merged)} changed while the attempts worked: the winner's change merged in")
        for shown, patch in zip(self.refused, self.patches, strict=True):
            parts.append(
                f"{shown} changed while the attempts worked and the winner's change overlaps yours: kept your "
                f"version; the winner's change is in {patch}"
            )
        parts.extend(f"not applied: {why}" for why in self.withheld)
        return "; ".join(parts)


def _read(path: Path) -> bytes | None:
    return path.read_bytes() if path.is_file() else None


def merge(base: bytes | None, mine: bytes | None, theirs: bytes | None) -> bytes | None:
    """The three-way merge of the user's and the attempt's changes to `base`; None when they overlap (or a side
    deleted or created the file: there is no line-wise merge of those)."""
    if base is None or mine is None or theirs is None:
        return None
    regions = Merge3(base.splitlines(keepends=True), mine.splitlines(keepends=True), theirs.splitlines(keepends=True))
    out: list[bytes] = []
    for region in regions.merge_regions():
        kind = region[0]
        if kind == "conflict":
            return None
        start, end = region[1], region[2]
        source = {"unchanged": regions.base, "same": regions.a, "a": regions.a, "b": regions.b}[kind]
        out.extend(source[start:end])
    return b"".join(out)


def _keep_patch(folder: Path, workspace: Path, shown: str, base: bytes | None, theirs: bytes | None) -> str:
    old = None if base is None else base.decode("utf-8", "replace")
    new = "" if theirs is None else theirs.decode("utf-8", "replace")
    patch = folder / (shown.replace("/", "__") + ".patch")
    patch.parent.mkdir(parents=True, exist_ok=True)
    patch.write_text(unified_diff(shown, old, new), encoding="utf-8")
    return patch.relative_to(workspace).as_posix()


def apply_attempt(
    env: Environment,
    workspace: Path,
    copy: Path,
    files: Sequence[str],
    *,
    run_id: str,
    task_id: str,
    patches: Path,
) -> Applied:
    """The attempt in `copy` applied to `workspace` file by file (before-images kept for undo); refused files'
    changes kept as patches in the folder `patches`."""
    bases = {i.path: i.before for i in images_of(copy, run_id) if i.task_id == task_id}
    applied = Applied()
    for shown in files:
        try:
            target = resolve_path(workspace, shown, for_write=True).real
            theirs, mine = _read(resolve_path(copy, shown).real), _read(target)
        except Refusal as exc:  # e.g. a command in the copy made the file a link to a host file
            applied.withheld.append(str(exc).removeprefix("Error: "))
            continue
        base = bases.get(shown, UNKNOWN)
        if mine == theirs:
            continue  # already there (applied before a crash, or the user made the same change)
        if mine == base:
            new = theirs
        else:
            new = merge(base, mine, theirs) if isinstance(base, bytes) else None
            if new is None:
                applied.refused.append(shown)
                applied.patches.append(
                    _keep_patch(patches, workspace, shown, base if isinstance(base, bytes) else mine, theirs)
                )
                continue
            applied.merged.append(shown)
        keep_before_image(workspace, run_id, task_id, shown, target, new if new is not None else b"")
        if new is None:
            target.unlink(missing_ok=True)
        else:
            env.write(shown, new)
    return applied
