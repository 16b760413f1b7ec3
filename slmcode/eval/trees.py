"""A checkout's folder as data the user did not write: copied with its links kept as links, compared without
opening what a link names.

Following a link while copying or comparing reads whatever it names on the host: a link to a secret carries
its bytes into a workspace (then into a prompt), and a link to /dev/zero never ends. So a copy keeps each link
as a link and refuses one that leads out of the folder copied (its target is resolved against the source's
real path); anything neither a file, a folder nor a link (a FIFO, a socket, a device) is refused too. A
comparison reads regular files only, through a descriptor that follows no link and never blocks, and takes
a link's target text in place of its bytes.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Callable, Iterable
from pathlib import Path

from slmcode.errors import SlmcodeError
from slmcode.treewalk import walk

Ignore = Callable[[str, list[str]], Iterable[str]]


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root + os.sep)


def copy_tree(source: Path, dest: Path, ignore: Ignore | None = None) -> Path:
    """`source` copied to `dest`, links as links; SlmcodeError naming a link that leads out of `source` or a
    file that is not a regular file, a folder or a link."""
    root = os.path.realpath(source)

    def checked(folder: str, names: list[str]) -> set[str]:
        skipped = set(ignore(folder, names)) if ignore is not None else set()
        for name in sorted(set(names) - skipped):
            path = os.path.join(folder, name)
            mode = os.lstat(path).st_mode
            if stat.S_ISLNK(mode):
                target = os.readlink(path)
                if os.path.isabs(target) or not _inside(os.path.realpath(path), root):
                    raise SlmcodeError(f"{path}: a symlink to {target}, outside {source}; refused")
            elif not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                raise SlmcodeError(f"{path}: not a regular file, a folder or a symlink; refused")
        return skipped

    shutil.copytree(source, dest, symlinks=True, ignore=checked)
    return dest


def _regular_bytes(path: str) -> bytes | None:
    """A regular file's bytes, or None when `path` is anything else by the time it is opened."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return handle.read()


def tree_bytes(root: Path, skip: frozenset[str] = frozenset()) -> dict[str, bytes]:
    """Every regular file (its bytes) and link (its target) under `root` by relative path, files and folders
    named in `skip` left out; no link is followed."""
    found: dict[str, bytes] = {}
    for folder, dirs, files in walk(root):
        dirs[:] = sorted(d for d in dirs if d not in skip)
        links = [d for d in dirs if os.path.islink(os.path.join(folder, d))]  # listed, never entered
        for name in (n for n in [*files, *links] if n not in skip):
            path = os.path.join(folder, name)
            rel = Path(os.path.relpath(path, root)).as_posix()
            if os.path.islink(path):
                found[rel] = b"symlink -> " + os.fsencode(os.readlink(path))
            else:
                data = _regular_bytes(path)
                if data is not None:
                    found[rel] = data
    return found
