"""Opening a file the containment rules resolved, so that what is opened is what was checked.

A parallel task's jailed command can swap a folder for a symlink (or a file for a FIFO) between
containment.resolve_path and the open: a path opened by name would then follow the link to a host folder the
jail cannot even see, or block on the FIFO for good. So the resolved path is walked from the workspace root
one component at a time, each opened relative to its folder's descriptor with O_NOFOLLOW (a link found at
open time is refused, never followed); the file itself is opened with O_NONBLOCK and must be a regular file
by fstat of the descriptor opened. A write goes to a new temporary file created exclusively in the folder's
descriptor and renamed over the target in that same descriptor, so a crash leaves the old file or the new one.
(openat2's RESOLVE_BENEATH would do the walk in one call; Python 3.11's os has no openat2.)
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path, PurePosixPath

from slmcode.environment import refusals
from slmcode.environment.containment import Refusal, file_kind, resolve_path, workspace_root
from slmcode.store.atomic import TEMP_SUFFIX

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_LINK_ERRORS = (errno.ELOOP, errno.ENOTDIR)  # O_NOFOLLOW met a link, or a folder became something else


def checked(workspace: Path, raw: str, *, for_write: bool = False) -> tuple[str, str]:
    """(the workspace's real root, `raw` as containment resolved it, relative to that root): what the calls
    below open. Refusal as resolve_path gives it."""
    root = str(workspace_root(workspace))
    return root, os.path.relpath(resolve_path(workspace, raw, for_write=for_write).real, root)


def _parts(rel: str) -> list[str]:
    parts = [p for p in PurePosixPath(rel).parts if p not in ("", ".")]
    if any(p == ".." or "/" in p for p in parts):
        raise Refusal(refusals.OUTSIDE.format(path=rel))
    return parts


def _swapped(exc: OSError, rel: str) -> OSError | Refusal:
    return Refusal(refusals.SYMLINK_OUT.format(path=rel)) if exc.errno in _LINK_ERRORS else exc


@contextmanager
def folder_of(root: str, rel: str, *, create: bool = False) -> Iterator[tuple[int, str]]:
    """(descriptor of `rel`'s folder, `rel`'s last name), the folder walked from `root` without following a
    link; missing folders made when `create`."""
    parts = _parts(rel)
    if not parts:
        raise IsADirectoryError(errno.EISDIR, "is the workspace itself", rel)
    fd = os.open(root, _DIR_FLAGS)
    try:
        for name in parts[:-1]:
            try:
                child = os.open(name, _DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise
                os.mkdir(name, 0o777, dir_fd=fd)
                child = os.open(name, _DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                raise _swapped(exc, rel) from None
            os.close(fd)
            fd = child
        yield fd, parts[-1]
    finally:
        os.close(fd)


def open_beneath(root: str, rel: str) -> int:
    """A read-only descriptor of the regular file `rel` under `root`, opened without following a link or
    blocking; the caller closes it."""
    with folder_of(root, rel) as (folder, name):
        try:
            fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=folder)
        except OSError as exc:
            raise _swapped(exc, rel) from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "is a folder", rel)
        raise Refusal(refusals.SPECIAL_FILE.format(path=rel, kind=file_kind(mode) or "special file"))
    return fd


def read_beneath(root: str, rel: str, offset: int = 0, size: int | None = None) -> bytes:
    """The bytes of the regular file `rel` under `root` (`size` of them from `offset`, or to its end)."""
    with os.fdopen(open_beneath(root, rel), "rb") as handle:
        handle.seek(offset)
        return handle.read(-1 if size is None else size)


def write_beneath(root: str, rel: str, data: bytes) -> None:
    """Create or replace the regular file `rel` under `root` with `data` (its mode bits kept when it exists)."""
    with folder_of(root, rel, create=True) as (folder, name):
        try:
            old = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except FileNotFoundError:
            old = None
        if old is not None and not stat.S_ISREG(old.st_mode):
            kind = "symlink" if stat.S_ISLNK(old.st_mode) else file_kind(old.st_mode) or "folder"
            raise Refusal(refusals.SPECIAL_FILE.format(path=rel, kind=kind))
        temp = f".{name}.{secrets.token_hex(6)}{TEMP_SUFFIX}"
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600, dir_fd=folder)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                if old is not None:
                    os.fchmod(fd, old.st_mode & 0o7777)
                os.fsync(fd)
            os.rename(temp, name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException:
            with suppress(OSError):
                os.unlink(temp, dir_fd=folder)
            raise
        os.fsync(folder)
