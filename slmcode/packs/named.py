"""Files a text names outright (`calc/ops.py`): the surest localization signal there is.

A small model's splitter may drop the file the user named from a task's focus list, or fill the list with
neighbours; the words of the task and of the user's request still name it, and a file named there that exists
is always a focus file (its code then reaches the worker's pack first, whatever the ranking thinks)."""

from __future__ import annotations

import re
from pathlib import Path

# A path-like word with an extension; the lookarounds keep it from matching inside URLs or longer words.
PATH_WORD = re.compile(r"(?<![\w/.:-])((?:[\w.-]+/)*[\w-][\w.-]*\.[A-Za-z0-9]{1,8})(?![\w/-])")
MAX_NAMED = 8


def named_files(text: str, workspace: Path) -> list[str]:
    """Workspace-relative files that `text` names and that exist, in the order named (at most MAX_NAMED)."""
    root = workspace.resolve()
    found: list[str] = []
    for match in PATH_WORD.finditer(text):
        word = match.group(1).removeprefix("./").rstrip(".")
        parts = word.split("/")
        # slmcode's own state (an offloaded task file) and git's are never a task's to change.
        if word in found or word.startswith("/") or ".." in parts or {".slmcode", ".git"} & set(parts):
            continue
        path = (root / word).resolve()
        if path.is_relative_to(root) and path.is_file():
            found.append(word)
            if len(found) == MAX_NAMED:
                break
    return found
