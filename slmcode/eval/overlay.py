"""A bundled task that shares a larger repository, laid out on use from its base and its overlay.

Thirty-odd tasks work in the same three 50-file repositories (data/bases/<base>/: each project in its finished
state). Shipping a copy of the base per task made the suite 1,974 files, most of them identical. A task of that
kind names its base and the files its change touches (meta.yaml `base:` and `changes:`, a path written `+path`
being a file the change adds), and keeps only what differs from the base in its repo/: those files in their task
state and its own visible check. Its repository is the base with the overlay on top and the added files left
out; its reference solution is the base's version of the touched files. Both are laid out once per process, in
a private temporary folder (never a shared, predictable name), and removed at exit.
"""

from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
from pathlib import Path

from slmcode.errors import SlmcodeError

BASES_DIR = Path(__file__).resolve().parent.parent / "data" / "bases"
# What a toolchain leaves in a base while someone works on it: never part of a task's repository.
_LITTER = frozenset({"__pycache__", ".pytest_cache", "target", "node_modules", "Cargo.lock"})


@functools.cache
def _scratch() -> Path:
    root = Path(tempfile.mkdtemp(prefix="slmcode-suite-"))  # mode 0700, a fresh random name
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    return root


def _files(root: Path) -> list[Path]:
    return sorted(
        p.relative_to(root)
        for p in root.rglob("*")
        if p.is_file() and not _LITTER.intersection(p.relative_to(root).parts)
    )


def _copy(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)


@functools.cache
def laid_out(folder: Path, base: str, changes: tuple[str, ...]) -> Path:
    """The folder holding `repo/` and `solution/` of the task in `folder` (base `base`, touching `changes`)."""
    source = BASES_DIR / base
    if not source.is_dir():
        raise SlmcodeError(f"eval task {folder.name}: no base repository '{base}' in {BASES_DIR}")
    added = {Path(c[1:]) for c in changes if c.startswith("+")}
    touched = {Path(c.lstrip("+")) for c in changes}
    root = _scratch() / folder.name
    for rel in _files(source):
        if rel in touched:
            _copy(source / rel, root / "solution" / rel)
        if rel not in added:
            _copy(source / rel, root / "repo" / rel)
    for rel in _files(folder / "repo"):  # the task's own state of its files, and its visible check
        _copy(folder / "repo" / rel, root / "repo" / rel)
    return root
