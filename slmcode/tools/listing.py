"""Walking the workspace for ws_list and ws_search: sorted, bounded, skipping caches and ignored files.

Folders are listed one at a time through the task's Environment (listdir) and the root .gitignore is read
through it, so the walk sees the workspace wherever it lives. Ignore rules and globs are matched against the
name as tools show it (filenames.shown_name): pathspec matches with RE2 when google-re2 is installed, and
RE2 cannot take a name that is not valid UTF-8.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterator

from pathspec import GitIgnoreSpec

from slmcode.environment import Environment
from slmcode.environment.filenames import shown_name

# Never worth a small model's tokens, and often huge.
SKIP_DIRS = frozenset(
    {
        ".git",
        ".slmcode",
        "node_modules",
        "__pycache__",
        ".venv",
        "venv",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".tox",
        ".idea",
        ".gradle",
        "target",
    }
)


def gitignore(env: Environment) -> GitIgnoreSpec:
    """The root .gitignore as a matcher (empty when there is none, or it is no file inside the workspace)."""
    try:
        lines = env.read(".gitignore").decode("utf-8", errors="replace").splitlines()
    except (OSError, ValueError):
        lines = []
    return GitIgnoreSpec.from_lines(lines)


def glob_matches(rel: str, glob: str) -> bool:
    """A glob without '/' matches the file name in any folder (like find -name); with '/' the whole path."""
    if "/" not in glob:
        return fnmatch.fnmatchcase(rel.rsplit("/", 1)[-1], glob)
    return fnmatch.fnmatchcase(rel, glob) or (glob.startswith("**/") and fnmatch.fnmatchcase(rel, glob[3:]))


def _prefix(folder: str) -> str:
    return "" if folder in (".", "") else folder + "/"


def walk_files(env: Environment, start: str, glob: str | None = None) -> Iterator[str]:
    """Workspace-relative paths of regular files under the folder `start` (workspace-relative), in sorted order:
    a folder's files, then each subfolder's; links to folders not followed, unlistable folders skipped."""
    ignored = gitignore(env)
    pending = [start]
    while pending:
        folder = pending.pop()
        try:
            entries = env.listdir(folder)
        except (OSError, ValueError):
            continue
        prefix = _prefix(folder)
        shown_prefix = shown_name(prefix)
        dirs = [
            name
            for name, kind in entries
            if kind == "dir" and name not in SKIP_DIRS and not ignored.match_file(shown_prefix + shown_name(name) + "/")
        ]
        for name, kind in entries:
            shown = shown_prefix + shown_name(name)
            if kind == "file" and not ignored.match_file(shown) and not (glob and not glob_matches(shown, glob)):
                yield prefix + name  # FIFOs, sockets, dangling links and links to folders are "other"
        pending.extend(prefix + name for name in reversed(dirs))  # the first subfolder is walked first


def list_children(env: Environment, folder: str) -> list[str]:
    """The immediate entries of a folder, folders marked with a trailing '/'."""
    ignored = gitignore(env)
    prefix = _prefix(folder)
    entries = []
    for name, kind in env.listdir(folder):
        is_dir = kind == "dir"
        rel = prefix + name + ("/" if is_dir else "")
        if (is_dir and name in SKIP_DIRS) or ignored.match_file(shown_name(rel)):
            continue
        entries.append(rel)
    return entries
