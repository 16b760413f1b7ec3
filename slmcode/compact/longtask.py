"""A long task: the task is part of the budget like everything else in a request.

Past its share of the smallest role's pack, the whole text goes to .slmcode/scratch/<run_id>/task.md and
the run carries a preview plus the file's path (which ws_read can open). Every phase then sees a task that
fits: the clarify interview, the packs, the worker's first message, the learn step.
"""

from __future__ import annotations

from pathlib import Path

from slmcode.budget.compute import role_budget
from slmcode.budget.tokens import count_tokens
from slmcode.compact.offload import SCRATCH_DIR, _cut_bytes, _safe
from slmcode.compact.prompts import TASK_OFFLOAD_NOTE
from slmcode.compact.settings import CompactSettings
from slmcode.packs.sections import SECTION_SHARES
from slmcode.store.atomic import atomic_write_text

TASK_FILE = "task.md"
BYTES_PER_TOKEN_GUESS = 3  # a first cut of the preview by bytes, then counted and trimmed


def task_room(settings: CompactSettings) -> int:
    """Tokens the task may take inline: its section's share of the smallest role's pack."""
    smallest = min(role_budget(settings, role).available for role in settings.context_role_budget or ["worker"])
    return max(1, int(smallest * SECTION_SHARES["task"]))


def bound_task(query: str, *, workspace: Path, run_id: str, settings: CompactSettings) -> str:
    """`query` itself when it fits its room; else a preview and the path of the file that holds all of it."""
    room = task_room(settings)
    # A cl100k token is at least one byte: a task of `room` bytes or fewer needs no counting.
    if len(query.encode()) <= room or count_tokens(query) <= room:
        return query
    relative = SCRATCH_DIR / _safe(run_id, "run id") / TASK_FILE
    atomic_write_text(workspace / relative, query)
    note = TASK_OFFLOAD_NOTE.format(size=len(query.encode()), lines=query.count("\n") + 1, path=relative.as_posix())
    left = max(0, room - count_tokens(note) - 1)
    limit = left * BYTES_PER_TOKEN_GUESS
    preview = _cut_bytes(query, limit)
    while preview and count_tokens(preview) > left:
        limit = int(limit * 0.8)
        preview = _cut_bytes(query, limit)
    return f"{preview}\n{note}" if preview else note
