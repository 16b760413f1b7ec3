"""Which lines of a file, as it is now, the task's own edits added: a gate must judge the change, not the code
that was there before it (a TODO the user left is not the worker's)."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from slmcode.gates.task_record import Edit


def _added_indexes(old: str, new: str) -> list[int]:
    """Indexes of the lines of `new` that are not carried over from `old`."""
    matcher = difflib.SequenceMatcher(None, old.splitlines(), new.splitlines(), autojunk=False)
    return [j for tag, _, _, j1, j2 in matcher.get_opcodes() if tag in ("replace", "insert") for j in range(j1, j2)]


def added_lines(edits: Sequence[Edit], text: str) -> list[tuple[int, str]]:
    """(1-based line number, line) of `text` that `edits` added and that are still there. An edit whose new text
    is still in the file places its lines exactly; one a later edit changed falls back to matching the added
    lines' text."""
    lines = text.splitlines()
    found: set[int] = set()
    for edit in edits:
        new_lines = edit.new.splitlines()
        added = _added_indexes(edit.old, edit.new)
        if not added:
            continue
        at = text.find(edit.new) if edit.new else -1
        if at >= 0:
            first = text.count("\n", 0, at)
            found |= {first + i for i in added if first + i < len(lines)}
            continue
        wanted = {new_lines[i].strip() for i in added if new_lines[i].strip()}
        found |= {n for n, line in enumerate(lines) if line.strip() in wanted}
    return [(n + 1, lines[n]) for n in sorted(found)]
