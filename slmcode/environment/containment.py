"""Containment: every path a model names is resolved against the workspace root, or refused in one line.

Real paths decide: `..`, absolute paths elsewhere, and symlinks whose target lies outside all resolve outside
the root and are refused. Device files, FIFOs and sockets are refused before anything opens them (opening a
FIFO would block the tool forever). Writes into any folder or file named `.git` or `.slmcode`, at any depth
(a nested repository's hooks run code too; a `.git` file points git elsewhere), are refused.

A name that is not valid UTF-8 is shown as `\\xNN` escapes (filenames.py); a path given back in that form
finds the file when the path as written does not exist.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from slmcode.environment import refusals
from slmcode.environment.filenames import real_name, shown_name

# Names a model may read under but never change, at any depth: git's internals (hooks and config run code)
# and the harness's own state. Compared without case, for case-insensitive file systems.
PROTECTED_DIRS = (".git", ".slmcode")


class Refusal(Exception):
    """A model asked for something containment forbids; the message is the error text it gets back."""


@dataclass(frozen=True)
class WorkspacePath:
    """A path proven to lie inside the workspace: its real location and its name relative to the root."""

    real: Path
    rel: str  # as tools show it (shown_name): printable, and resolve_path finds the file by it again

    @property
    def shown(self) -> str:
        return self.rel


def workspace_root(workspace: Path) -> Path:
    return Path(os.path.realpath(workspace))


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def resolve_path(workspace: Path, raw: str, *, for_write: bool = False) -> WorkspacePath:
    """The real path for `raw` inside the workspace, or a Refusal naming what is wrong."""
    text = (raw or "").strip()
    if not text:
        raise Refusal(refusals.EMPTY_PATH)
    if "\x00" in text:
        raise Refusal(refusals.OUTSIDE.format(path=repr(text)))
    if text.startswith("~"):
        raise Refusal(refusals.OUTSIDE.format(path=text))
    root = str(workspace_root(workspace))
    lexical = os.path.normpath(os.path.join(root, text))  # an absolute `text` replaces root here
    if not os.path.lexists(lexical) and "\\x" in text:
        lexical = _as_shown(lexical, os.path.normpath(os.path.join(root, real_name(text))))
    real = os.path.realpath(lexical)
    if not _inside(real, root):
        template = refusals.SYMLINK_OUT if _inside(lexical, root) else refusals.OUTSIDE
        raise Refusal(template.format(path=text))
    rel = Path(os.path.relpath(real, root)).as_posix()
    check_file_kind(Path(real), text)
    if for_write:
        protected = protected_part(rel) or protected_part(os.path.relpath(lexical, root))
        if protected:
            raise Refusal(refusals.PROTECTED.format(path=text, folder=protected))
    return WorkspacePath(real=Path(real), rel=shown_name(rel))


def readable(workspace: Path, raw: str) -> bool:
    """Whether a tool could read `raw`: for text the harness reads itself (a task's focus files go into the
    model's pack), so a symlink out of the workspace cannot carry an outside file's bytes into a prompt."""
    try:
        resolve_path(workspace, raw)
    except Refusal:
        return False
    return True


def _as_shown(literal: str, unescaped: str) -> str:
    """The path a model meant by a name with \\xNN in it: the escaped file if it exists, or a new file in the
    escaped folder if only that folder exists; else the name as written."""
    if os.path.lexists(unescaped):
        return unescaped
    new_in_escaped = os.path.isdir(os.path.dirname(unescaped)) and not os.path.isdir(os.path.dirname(literal))
    return unescaped if new_in_escaped else literal


def protected_part(rel: str) -> str | None:
    """The first part of a relative path that names a protected folder or file, if any."""
    return next((part for part in Path(rel).parts if part.lower() in PROTECTED_DIRS), None)


def file_kind(mode: int) -> str | None:
    """The name of a special file type, or None for regular files and folders."""
    kinds = {
        stat.S_ISFIFO: "FIFO (named pipe)",
        stat.S_ISSOCK: "socket",
        stat.S_ISCHR: "character device",
        stat.S_ISBLK: "block device",
    }
    return next((name for test, name in kinds.items() if test(mode)), None)


def check_file_kind(path: Path, shown: str) -> None:
    """Refuse device files, FIFOs and sockets; stat never blocks, unlike open."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise Refusal(f"Error: cannot inspect {shown}: {exc.strerror}.") from None
    kind = file_kind(mode)
    if kind is not None:
        raise Refusal(refusals.SPECIAL_FILE.format(path=shown, kind=kind))
