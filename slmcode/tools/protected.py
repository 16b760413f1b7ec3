"""The protected-path index: every `.git` (folder or file) and `.slmcode` at any depth of a workspace.

The sandbox binds each read-only before a command runs and, after it, removes any new one the command
created (ossandbox.Jail.undo_new_protected); both need the set, cheaply, many times a run.
"""

from __future__ import annotations

import os
from pathlib import Path

PROTECTED_NAMES = (".git", ".slmcode")


class ProtectedIndex:
    """Every `.git` (folder or file) and `.slmcode` at any depth of one workspace, kept up to date cheaply.

    A full walk of a tree with a virtual environment costs ~20 ms, and each command needs the set twice (to
    protect before, to undo after). Creating or removing an entry changes its folder's mtime, so a refresh
    stats the known folders and lists again only those whose mtime moved (and the new folders they hold)."""

    def __init__(self, workspace: Path) -> None:
        self.workspace = str(workspace)
        self.folders: dict[str, int] = {}  # folder -> mtime_ns when last listed
        self.found: dict[str, set[str]] = {}  # folder -> its protected entries
        self._scan(self.workspace)

    def _scan(self, folder: str) -> None:
        try:
            mtime = os.stat(folder).st_mtime_ns
            entries = list(os.scandir(folder))
        except OSError:
            return
        self.folders[folder] = mtime
        mine: set[str] = set()
        for entry in entries:
            if entry.name in PROTECTED_NAMES:
                mine.add(entry.path)
            elif entry.is_dir(follow_symlinks=False) and entry.path not in self.folders:
                self._scan(entry.path)
        self.found[folder] = mine

    def refresh(self) -> list[Path]:
        for folder, mtime in list(self.folders.items()):
            try:
                now = os.stat(folder).st_mtime_ns
            except OSError:
                now = None
            if now is None:
                self.folders.pop(folder, None)
                self.found.pop(folder, None)
            elif now != mtime:
                self._scan(folder)
        return sorted(Path(p) for paths in self.found.values() for p in paths)


_INDEXES: dict[str, ProtectedIndex] = {}


def find_protected(workspace: Path) -> list[Path]:
    """The protected entries of `workspace` now (one index per workspace per process)."""
    index = _INDEXES.get(str(workspace))
    if index is None:
        index = _INDEXES[str(workspace)] = ProtectedIndex(workspace)
    return index.refresh()

