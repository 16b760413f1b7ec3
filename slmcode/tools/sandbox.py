"""Containment: every path a model names is resolved against the workspace root, or refused in one line.

Real paths decide: `..`, absolute paths elsewhere, and symlinks whose target lies outside all resolve outside
the root and are refused. Device files, FIFOs and sockets are refused before anything opens them (opening a
FIFO would block the tool forever). Binary and oversized files are refused for reading as a whole.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from slmcode.tools import prompts

# Folders a model may read but never change: git's internals (hooks run code) and the harness's own state.
PROTECTED_DIRS = (".git", ".slmcode")
BINARY_SAMPLE_BYTES = 8192


class Refusal(Exception):
    """A model asked for something containment forbids; the message is the error text it gets back."""


@dataclass(frozen=True)
class WorkspacePath:
    """A path proven to lie inside the workspace: its real location and its name relative to the root."""

    real: Path
    rel: str


def workspace_root(workspace: Path) -> Path:
    return Path(os.path.realpath(workspace))


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def resolve_path(workspace: Path, raw: str, *, for_write: bool = False) -> WorkspacePath:
    """The real path for `raw` inside the workspace, or a Refusal naming what is wrong."""
    text = (raw or "").strip()
    if not text:
        raise Refusal(prompts.EMPTY_PATH)
    if "\x00" in text:
        raise Refusal(prompts.OUTSIDE.format(path=repr(text)))
    if text.startswith("~"):
        raise Refusal(prompts.OUTSIDE.format(path=text))
    root = str(workspace_root(workspace))
    lexical = os.path.normpath(os.path.join(root, text))  # an absolute `text` replaces root here
    real = os.path.realpath(lexical)
    if not _inside(real, root):
        template = prompts.SYMLINK_OUT if _inside(lexical, root) else prompts.OUTSIDE
        raise Refusal(template.format(path=text))
    rel = Path(os.path.relpath(real, root)).as_posix()
    check_file_kind(Path(real), text)
    if for_write:
        first = rel.split("/", 1)[0]
        if first in PROTECTED_DIRS:
            raise Refusal(prompts.PROTECTED.format(path=text, folder=first))
    return WorkspacePath(real=Path(real), rel=rel)


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
        raise Refusal(prompts.SPECIAL_FILE.format(path=shown, kind=kind))


def looks_binary(sample: bytes) -> bool:
    """NUL bytes or undecodable UTF-8 in the first block mean binary; cut multi-byte tails are forgiven."""
    if b"\x00" in sample:
        return True
    try:
        sample.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start < len(sample) - 4
    return False


def require_file(target: WorkspacePath) -> int:
    """Refuse missing paths and folders; return the file's size."""
    if not target.real.exists():
        raise Refusal(prompts.NOT_FOUND.format(path=target.rel))
    if target.real.is_dir():
        raise Refusal(prompts.NOT_A_FILE.format(path=target.rel))
    return target.real.stat().st_size


def read_text(target: WorkspacePath, max_bytes: int) -> str:
    """A whole text file, refusing binary files and files over max_bytes."""
    size = require_file(target)
    if size > max_bytes:
        raise Refusal(prompts.TOO_BIG.format(path=target.rel, size=size, limit=max_bytes))
    data = target.real.read_bytes()
    if looks_binary(data[:BINARY_SAMPLE_BYTES]):
        raise Refusal(prompts.BINARY_FILE.format(path=target.rel, size=size))
    return data.decode("utf-8", errors="replace")


def is_binary_file(path: Path) -> bool:
    with path.open("rb") as handle:
        return looks_binary(handle.read(BINARY_SAMPLE_BYTES))
