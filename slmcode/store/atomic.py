"""The one atomic write: through a temporary file in the same folder, flushed to disk, renamed over the
target, and the folder entry synced, so a crash leaves the old file or the new one, never half of either.

Used for the user's files (ws_edit, ws_write, applied patches, undo) and for slmcode's own (.slmcode state,
memory files, run records) alike; a file's mode bits survive the replacement.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

TEMP_SUFFIX = ".slmcode-tmp"  # a leftover of a crash mid-write is recognisable as ours


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Replace `path` with `data` (its mode bits kept when it exists)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o7777 if path.exists() else None
    try:
        fd, temp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMP_SUFFIX)
    except OSError as exc:
        raise _about(exc, path) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(temp_name, mode)
        os.replace(temp_name, path)
    except OSError as exc:
        Path(temp_name).unlink(missing_ok=True)
        raise _about(exc, path) from None
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def _about(exc: OSError, path: Path) -> OSError:
    """The same error naming the file the caller asked for: the temporary name is ours, not the user's."""
    return type(exc)(exc.errno, exc.strerror, str(path))


def atomic_write_text(path: Path, text: str) -> None:
    """Replace `path` with `text`, UTF-8."""
    atomic_write_bytes(path, text.encode("utf-8"))
