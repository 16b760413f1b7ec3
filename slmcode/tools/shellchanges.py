"""Which files a shell command changed. ws_write and ws_edit say which file they wrote; a command does not: a
code generator, a formatter, or a test writing its snapshot changes files the worker's transcript never named,
so the reviewer's evidence, the Files column and the task's commit left them out.

In a git workspace, the uncommitted files (`git status`, inside the wall through gitwall: a filter or fsmonitor
the repository's config names runs there, never on the host) with their size and modification time are taken
before and after the command (one git call each: the folder's place below the repository's top is worked out
here, not asked of git, as each call pays for starting the jail); a file that turns up, goes, or changes between
the two is the command's. Files git ignores are not counted (build output, caches), nor the harness's own
.slmcode, nor what a build or a test run leaves in the folders its tools own (TOOL_FOLDERS) when the repository
does not ignore them: they are no change of the task, and cargo rewrites and removes its own as it goes. Nor are
other untracked build leftovers (environment/buildout: compiled objects, a lock file the repository never kept).
Elsewhere nothing is taken: walking a whole tree around every command would cost more than it tells.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from slmcode.environment.buildout import TOOL_FOLDERS
from slmcode.environment.filenames import shown_name
from slmcode.environment.gitsafe import STATUS, uncommitted_paths
from slmcode.environment.gitwall import read_git, repository_top
from slmcode.tools import prompts

Stamp = tuple[int, int]  # (size, mtime in ns); (-1, -1): the file is gone
Snapshot = Mapping[str, Stamp]
NOTE_HEAD = prompts.SHELL_CHANGED.split("{", 1)[0]  # "[files this command changed: "
MAX_LISTED = 50  # a formatter over a whole tree: the first ones, and how many more


def uncommitted(workspace: Path) -> dict[str, Stamp] | None:
    """The workspace's uncommitted files (relative to it) and their stamps; None outside a git repository."""
    top = repository_top(workspace)
    status = read_git(workspace, *STATUS) if top is not None else None
    if top is None or status is None:
        return None
    inside = "" if top == workspace else os.path.relpath(workspace, top).replace(os.sep, "/") + "/"
    stamps: dict[str, Stamp] = {}
    for path in (p.removeprefix(inside) for p in uncommitted_paths(os.fsdecode(status), work_only=True)):
        try:
            found = (workspace / path).lstat()
            stamps[path] = (found.st_size, found.st_mtime_ns)
        except OSError:
            stamps[path] = (-1, -1)
    return stamps


def changed_between(before: Snapshot, after: Snapshot) -> list[str]:
    return sorted(
        path
        for path in {*before, *after}
        if before.get(path) != after.get(path) and not TOOL_FOLDERS.intersection(path.split("/")[:-1])
    )


def changed_note(paths: Sequence[str]) -> str:
    """The line a command's result ends with when it changed files (read back by `noted_changes`); a name that is
    not UTF-8 as the tools show it (\\xNN), as ws_write's path would be."""
    listed = json.dumps([shown_name(p) for p in paths[:MAX_LISTED]], ensure_ascii=False)
    more = prompts.SHELL_CHANGED_MORE.format(more=len(paths) - MAX_LISTED) if len(paths) > MAX_LISTED else ""
    return "\n" + prompts.SHELL_CHANGED.format(paths=listed, more=more)


def split_note(result: str) -> tuple[str, str]:
    """(the command's result, the changed-files line it ends with or ""). Only a last line counts: a command's
    own output always comes before the exit line, so it cannot pass for the note."""
    body, _, last = result.rpartition("\n")
    if body and last.startswith(NOTE_HEAD):
        return body, "\n" + last
    return result, ""


def noted_changes(result: str) -> list[str]:
    """The files a command's result says it changed."""
    note = split_note(result)[1].strip()
    try:
        paths, _ = json.JSONDecoder().raw_decode(note, len(NOTE_HEAD))
    except ValueError:
        return []
    return [p for p in paths if isinstance(p, str)] if isinstance(paths, list) else []
