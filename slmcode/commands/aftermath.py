"""The last lines of a run that did not end well: which files it left changed and the command that puts them
back. A failed run of a small model often leaves half an edit behind (a file that no longer parses); the user
should not have to find `slmcode undo` on their own."""

from __future__ import annotations

import shlex
from pathlib import Path

from slmcode.errors import SlmcodeError

SHOWN_FILES = 8  # a long list is cut here; `undo --dry-run` lists all of them


def undo_lines(workspace: Path, run_id: str, *, command: str = "slmcode undo") -> list[str]:
    """'changed: a, b' and the undo command for `run_id`; none when the run changed nothing undo can take back."""
    from slmcode.gitrun.undo import undo_target

    try:
        preview = undo_target(workspace.resolve(), run_id, None, dry_run=True)
    except (SlmcodeError, OSError):  # nothing to undo (or already undone): nothing to say
        return []
    paths = sorted({path for _, path in preview.changes})
    if not paths:
        return []
    more = len(paths) - SHOWN_FILES
    shown = ", ".join(paths[:SHOWN_FILES]) + (f" and {more} more" if more > 0 else "")
    where = "" if workspace.resolve() == Path.cwd().resolve() else f" --workspace {shlex.quote(str(workspace))}"
    return [
        f"this run left {len(paths)} file(s) changed: {shown}",
        f"`{command} {run_id}{where}` puts them back as they were before it",
    ]
