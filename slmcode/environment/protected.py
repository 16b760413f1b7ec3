"""The protected-path index: every `.git` (folder or file) and `.slmcode` at any depth of a workspace, and every
folder shaped like a git directory (HEAD, objects/ and refs/: a bare repository under any name, which git
opens as one and whose config can name an fsmonitor or a filter).

The sandbox binds each read-only before a command runs and, after it, removes any new one the command
created (ossandbox.Jail.undo_new_protected); both need the set, cheaply, many times a run.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from slmcode.treewalk import remove_tree

PROTECTED_NAMES = (".git", ".slmcode")
# What makes git take a folder for a git directory (setup.c's is_git_directory): all three present.
GIT_MARKERS = frozenset({"HEAD", "objects", "refs"})


class ProtectedIndex:
    """Every `.git` (folder or file) and `.slmcode` at any depth of one workspace, kept up to date cheaply.

    A full walk of a tree with a virtual environment costs ~20 ms, and each command needs the set twice (to
    protect before, to undo after). Creating or removing an entry changes its folder's mtime, so a refresh
    stats the known folders and lists again only those whose mtime moved (and the new folders they hold)."""

    def __init__(self, workspace: Path) -> None:
        self.workspace = str(workspace)
        self.folders: dict[str, int] = {}  # folder -> mtime_ns when last listed
        self.found: dict[str, set[str]] = {}  # folder -> its protected entries
        self.markers: dict[str, frozenset[str]] = {}  # folder -> which of GIT_MARKERS it holds (when any)
        self._scan(self.workspace)

    def _scan(self, start: str) -> None:
        """List `start` and the folders below it not listed yet: a stack, not recursion, so a tree thousands
        of folders deep (a command can make one) is indexed like any other."""
        pending = [start]
        while pending:
            folder = pending.pop()
            try:
                mtime = os.stat(folder).st_mtime_ns
                entries = list(os.scandir(folder))
            except OSError:
                continue
            self.folders[folder] = mtime
            markers = frozenset(e.name for e in entries if e.name in GIT_MARKERS)
            if markers:
                self.markers[folder] = markers
            else:
                self.markers.pop(folder, None)
            mine: set[str] = set()
            for entry in entries:
                if entry.name in PROTECTED_NAMES:
                    mine.add(entry.path)
                elif markers == GIT_MARKERS:
                    continue  # a git directory's insides (thousands of object folders) need no index
                elif entry.is_dir(follow_symlinks=False) and entry.path not in self.folders:
                    pending.append(entry.path)
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
                self.markers.pop(folder, None)
            elif now != mtime:
                self._scan(folder)
        return sorted(Path(p) for paths in self.found.values() for p in paths)


_INDEXES: dict[str, ProtectedIndex] = {}


def index_of(workspace: Path) -> ProtectedIndex:
    """The workspace's index (one per workspace per process), not refreshed."""
    index = _INDEXES.get(str(workspace))
    if index is None:
        index = _INDEXES[str(workspace)] = ProtectedIndex(workspace)
    return index


def find_protected(workspace: Path) -> list[Path]:
    """The protected entries of `workspace` now."""
    return index_of(workspace).refresh()


@dataclass(frozen=True)
class GitShapes:
    """Which folders held git's markers at one moment, and which folders existed then: enough to tell a bare
    repository a command made (or completed) from one the user had."""

    markers: dict[str, frozenset[str]]
    folders: frozenset[str]

    def git_dirs(self) -> list[Path]:
        return sorted(Path(f) for f, m in self.markers.items() if m == GIT_MARKERS)


def snapshot(workspace: Path) -> tuple[list[Path], GitShapes]:
    """The protected entries and the git-directory-shaped folders now, from one refresh of the index."""
    index = index_of(workspace)
    found = index.refresh()
    return found, GitShapes(dict(index.markers), frozenset(index.folders))


def undo_new_git_dirs(before: GitShapes, now: GitShapes) -> list[Path]:
    """Make every folder that became a git directory since `before` stop being one: a new folder goes whole,
    an older one loses the markers it gained. Returns the paths removed."""
    removed: list[Path] = []
    for folder in now.git_dirs():
        had = before.markers.get(str(folder), frozenset())
        if had == GIT_MARKERS:
            continue  # the user's own bare repository (bound read-only while the command ran)
        targets = [folder] if str(folder) not in before.folders else [folder / m for m in sorted(GIT_MARKERS - had)]
        for path in targets:
            if path.is_dir() and not path.is_symlink():
                remove_tree(path)
            else:
                path.unlink(missing_ok=True)
            removed.append(path)
    return removed
