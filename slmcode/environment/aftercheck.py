"""What is checked after each sandboxed command, outside the sandbox: no set-uid or set-gid file is left behind,
and the scratch folder stays under its cap.

Set-uid: inside, every bind is mounted nosuid (bwrap mounts all its binds nosuid and nodev), so a set-uid file
gives a command nothing. But a file the command made is owned outside by the invoking user, root when slmcode
runs as root, and `chmod 4755` on it would leave a set-uid-root program in the workspace for anyone on the host
to run. The kernel lets a file's owner set the bit without any capability, so the check is a walk after the
command: a regular file that has a set-uid or set-gid bit and was changed since the command started (its ctime:
chmod, creation, a rename and a hard link all move it) loses both bits. Folders keep theirs (set-gid folders
are an ordinary way to share a group). The walk skips `.git` and `.slmcode` folders (read-only inside).

Scratch: the folder is the command's HOME and TMPDIR, kept between commands so caches stay warm; after a
command that leaves it over the cap it is emptied (the next command starts with cold caches), and the result
says so. During a command RLIMIT_FSIZE bounds each file, not their sum. Walking a cache of thousands of files
after every command would cost more than the command, so the size is walked once, then bounded: the folder
grew by at most what its file system's free space lost meanwhile, and only a bound that reaches the cap walks
again (a concurrent deletion elsewhere on that file system can hide growth until a later walk).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from slmcode.environment.protected import PROTECTED_NAMES
from slmcode.treewalk import remove_tree

SETID = stat.S_ISUID | stat.S_ISGID
CTIME_SLACK_NS = 2_000_000_000  # file times come from a coarse clock that may lag the one we read


@dataclass
class Walked:
    stripped: list[str] = field(default_factory=list)
    size: int = 0


def _files(root: str) -> Iterator[tuple[str, os.stat_result]]:
    """Every regular file below root with its lstat, never following a symlink, skipping protected folders."""
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            entries = os.scandir(folder)
        except OSError:
            continue
        with entries:
            for entry in entries:
                try:
                    if entry.is_dir(follow_symlinks=False):
                        if entry.name not in PROTECTED_NAMES:
                            stack.append(entry.path)
                    elif entry.is_file(follow_symlinks=False):
                        yield entry.path, entry.stat(follow_symlinks=False)
                except OSError:
                    continue


def strip_setid(root: Path, since_ns: int, *, clear: bool = True) -> Walked:
    """Clear set-uid/set-gid on the regular files below root changed since `since_ns` (unless not `clear`);
    also sum their sizes."""
    walked = Walked()
    for path, info in _files(str(root)):
        walked.size += info.st_blocks * 512
        if clear and info.st_mode & SETID and info.st_ctime_ns >= since_ns - CTIME_SLACK_NS:
            _clear(path, stat.S_IMODE(info.st_mode) & ~SETID)
            walked.stripped.append(os.path.relpath(path, root))
    return walked


def _clear(path: str, mode: int) -> None:
    """chmod through a descriptor opened without following a symlink (one swapped in meanwhile is not
    followed); a file whose bits cannot be cleared is removed."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return  # a symlink now: not the file we saw, and never followed
        fd = -1
    try:
        if fd >= 0:
            os.fchmod(fd, mode)
        else:
            os.chmod(path, mode)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(path)
    finally:
        if fd >= 0:
            os.close(fd)


def empty_scratch(scratch: Path, keep: tuple[str, ...]) -> None:
    """Remove everything in the scratch folder but `keep` (its owner record), and give it a fresh home."""
    for entry in scratch.iterdir():
        if entry.name in keep:
            continue
        if entry.is_dir() and not entry.is_symlink():
            remove_tree(entry)
        else:
            entry.unlink(missing_ok=True)
    (scratch / "home").mkdir(mode=0o700, exist_ok=True)


_BOUND: dict[str, int] = {}  # scratch folder -> an upper bound of its size in bytes


def free_bytes(path: Path) -> int:
    try:
        info = os.statvfs(path)
    except OSError:
        return 0
    return info.f_bavail * info.f_frsize


def scratch_size(scratch: Path, free_before: int, cap: int, since_ns: int, *, clear: bool) -> int:
    """The scratch folder's size, or an upper bound of it under `cap` found without a walk. `clear`: the walk
    clears set-id bits too, so it always runs."""
    key = str(scratch)
    bound = _BOUND.get(key)
    grown = max(0, free_before - free_bytes(scratch))
    if clear or bound is None or bound + grown > cap:
        size = strip_setid(scratch, since_ns, clear=clear).size
    else:
        size = bound + grown
    _BOUND[key] = size
    return size


def forget_size(scratch: Path) -> None:
    _BOUND[str(scratch)] = 0
