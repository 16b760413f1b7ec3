"""Permission modes for every write: auto writes through the task's Environment, dry-run records, review stages
for the user.

A recorded patch holds the file's whole new text, the encoding it is written in, the sha256 of the disk file
it was made against (so `apply` refuses a patch whose file changed since) and a hash of its own content
(path, new bytes and base hash), so a patch file edited by anything but slmcode is refused. Each file has at
most one patch per folder: a second edit of the same file updates the patch, and the tools read a file
through its patch, so a worker in dry-run or review mode sees its own edits (and is told they are not on
disk). A patch's id is its file's name, never a field inside it.

Review patches live in .slmcode/pending/ until `slmcode apply` or `slmcode reject` (pending.py); dry-run
patches live in .slmcode/dry-run/<run id>/ and are never applied. The modes are an Environment wrapper
(staging.py): in review and dry-run a task's `ctx.env` stages what it is given to write.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ValidationError

from slmcode.environment.containment import WorkspacePath
from slmcode.store import paths
from slmcode.store.paths import STATE_DIR
from slmcode.tools import prompts

if TYPE_CHECKING:  # the context imports the staging wrapper, which reads the patches kept here
    from slmcode.tools.context import ToolContext

log = logging.getLogger(__name__)

PatchMode = Literal["review", "dry-run"]
Encoding = Literal["utf-8", "latin-1"]
PENDING_DIR = Path(STATE_DIR) / paths.PENDING_DIR
DRY_RUN_DIR = Path(STATE_DIR) / paths.DRY_RUN_DIR


class Patch(BaseModel):
    id: str
    path: str  # workspace-relative, as tools show it (filenames.shown_name)
    base_sha256: str | None  # None: the file did not exist when the patch was made
    new_text: str
    encoding: Encoding = "utf-8"
    sha256: str = ""  # content_hash of path, new bytes and base; "" in a forged or pre-hash patch
    mode: PatchMode
    run_id: str = ""
    task_id: str = ""

    @property
    def new_bytes(self) -> bytes:
        return self.new_text.encode(self.encoding)

    def expected_hash(self) -> str:
        return content_hash(self.path, self.new_bytes, self.base_sha256)


def content_hash(path: str, new_bytes: bytes, base_sha256: str | None) -> str:
    """sha256 of the canonical JSON of what a patch would do: which file, which bytes, against which base."""
    canonical = json.dumps(
        {"base_sha256": base_sha256, "new_bytes": base64.b64encode(new_bytes).decode("ascii"), "path": path},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,
    )
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()


def sha256_of(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None


def patch_folder(workspace: Path, mode: PatchMode, run_id: str = "") -> Path:
    return workspace / (PENDING_DIR if mode == "review" else DRY_RUN_DIR / (run_id or "run"))


def read_patch(file: Path) -> Patch:
    """One patch file; its id is the file's name. Raises ValueError when it is not a patch."""
    try:
        patch = Patch.model_validate_json(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValidationError) as exc:
        raise ValueError(f"{type(exc).__name__}: {str(exc).splitlines()[0]}") from None
    return patch.model_copy(update={"id": file.stem})


def load_patches(folder: Path) -> list[Patch]:
    """The patches a worker reads files through; a file that is not a patch is skipped (and logged)."""
    if not folder.is_dir():
        return []
    patches = []
    for file in sorted(folder.glob("*.json")):
        try:
            patches.append(read_patch(file))
        except ValueError as exc:
            log.warning("skipping %s: %s", file, exc)
    return patches


def save_patch(folder: Path, patch: Patch) -> None:
    (folder / f"{patch.id}.json").write_text(patch.model_dump_json(indent=1), encoding="utf-8")


def save_new(folder: Path, patch: Patch) -> Patch:
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


def staged_patch(ctx: ToolContext, shown: str) -> Patch | None:
    """The patch this task's mode keeps for the file tools show as `shown`, if any."""
    staging = getattr(ctx.env, "patch", None)  # the staging wrapper's (review, dry-run); auto keeps none
    return staging(shown) if staging is not None else None


def staged_texts(ctx: ToolContext) -> dict[str, str]:
    """Every file this task's mode has a patch for, by shown name, as the patch would leave it."""
    staging = getattr(ctx.env, "patches", None)
    return {p.path: p.new_text for p in staging()} if staging is not None else {}


def _line_count(text: str) -> int:
    return text.count("\n") + (0 if text.endswith("\n") or not text else 1)


def _unencodable(text: str, encoding: str) -> str:
    chars = sorted({c for c in text if not c.encode(encoding, errors="ignore")})
    return ", ".join(repr(c) for c in chars[:5])


def record_write(
    ctx: ToolContext, target: WorkspacePath, new_text: str, *, action: str, encoding: Encoding = "utf-8"
) -> str:
    """Carry out one write in the task's permission mode, in the file's encoding; returns what the model is told."""
    try:
        data = new_text.encode(encoding)
    except UnicodeEncodeError:
        chars = _unencodable(new_text, encoding)
        return prompts.NOT_ENCODABLE.format(path=target.shown, encoding=encoding, chars=chars)
    stage = getattr(ctx.env, "stage", None)  # review and dry-run: the staging wrapper (staging.py)
    if stage is None:
        if ctx.before_write is not None:  # what the file held, for `slmcode undo` without git
            ctx.before_write(target.shown, target.real, data)
        try:
            ctx.env.write(target.rel, data)  # the one place a tool's write reaches the workspace
        except ValueError as exc:  # the path changed since it was checked (a symlink swapped in): refused again
            return str(exc)
        if target.shown not in ctx.files_changed:
            ctx.files_changed.append(target.shown)
        return prompts.WROTE.format(action=action, path=target.shown, lines=_line_count(new_text))
    patch = stage(target.shown, target.real, new_text, encoding)
    if patch.id not in ctx.staged_patches:
        ctx.staged_patches.append(patch.id)
    if patch.mode == "dry-run":
        return prompts.DRY_RUN.format(action=action, path=target.shown, id=patch.id)
    return prompts.REVIEW.format(path=target.shown, id=patch.id)
