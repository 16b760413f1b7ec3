"""Walking the workspace for ws_list and ws_search: sorted, bounded, skipping caches and ignored files.

Ignore rules and globs are matched against the name as tools show it (filenames.shown_name): pathspec
matches with RE2 when google-re2 is installed, and RE2 cannot take a name that is not valid UTF-8.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterator
from pathlib import Path

from pathspec import GitIgnoreSpec

from slmcode.environment.filenames import shown_name

# Never worth a small model's tokens, and often huge.
SKIP_DIRS = frozenset(
    {".git", ".slmcode", "node_modules", "__pycache__", ".venv", "venv", ".mypy_cache", ".pytest_cache",
     ".ruff_cache", ".tox", ".idea", ".gradle", "target"}
)


def gitignore(root: Path) -> GitIgnoreSpec:
    """The root .gitignore as a matcher (empty when there is none)."""
    path = root / ".gitignore"
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines() if path.is_file() else []
    return GitIgnoreSpec.from_lines(lines)


def glob_matches(rel: str, glob: str) -> bool:
    """A glob without '/' matches the file name in any folder (like find -name); with '/' the whole path."""
    if "/" not in glob:
        return fnmatch.fnmatchcase(rel.rsplit("/", 1)[-1], glob)
    return fnmatch.fnmatchcase(rel, glob) or (glob.startswith("**/") and fnmatch.fnmatchcase(rel, glob[3:]))


def walk_files(root: Path, start: Path, glob: str | None = None) -> Iterator[str]:
    """Workspace-relative paths of regular files under `start`, in sorted order; symlinked folders not followed."""
    ignored = gitignore(root)
    for folder, dirs, files in os.walk(start, followlinks=False):
        rel_folder = Path(os.path.relpath(folder, root)).as_posix()
        prefix = "" if rel_folder == "." else rel_folder + "/"
        shown_prefix = shown_name(prefix)
        dirs[:] = sorted(
            d for d in dirs if d not in SKIP_DIRS and not ignored.match_file(shown_prefix + shown_name(d) + "/")
        )
        for name in sorted(files):
            rel, shown = prefix + name, shown_prefix + shown_name(name)
            if ignored.match_file(shown) or (glob and not glob_matches(shown, glob)):
                continue
            if os.path.isfile(os.path.join(folder, name)):  # skips FIFOs, sockets, dangling links
                yield rel


def list_children(root: Path, folder: Path) -> list[str]:
    """The immediate entries of a folder, folders marked with a trailing '/'."""
    ignored = gitignore(root)
    prefix = Path(os.path.relpath(folder, root)).as_posix()
    prefix = "" if prefix == "." else prefix + "/"
    entries = []
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        is_dir = entry.is_dir(follow_symlinks=False)
        rel = prefix + entry.name + ("/" if is_dir else "")
        if (is_dir and entry.name in SKIP_DIRS) or ignored.match_file(shown_name(rel)):
            continue
        entries.append(rel)
    return entries
