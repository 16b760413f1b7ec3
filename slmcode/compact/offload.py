"""Tool-output offload: output above the inline limit goes whole to a run-scoped scratch file, and the
context gets a preview (the head; head and tail for logs and test runs, whose verdict is at the end) and
the path to read the rest from.

Scratch lives under <workspace>/.slmcode/scratch/<run_id>/, never in the project's own tree. The file name
carries a hash of the text, so the same output maps to the same file and a replay writes nothing new.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from slmcode.compact.prompts import OFFLOAD_NOTE, OFFLOAD_TAIL_HEADER
from slmcode.errors import WorkspaceError
from slmcode.store import paths
from slmcode.store.paths import STATE_DIR

SCRATCH_DIR = Path(STATE_DIR) / paths.SCRATCH_DIR
TAIL_KINDS = frozenset({"log", "test", "tests", "shell"})
HEAD_SHARE = 0.6  # of the preview, when a tail is kept too
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def _safe(part: str, what: str) -> str:
    cleaned = _UNSAFE.sub("-", part).strip(".-")
    if not cleaned:
        raise WorkspaceError(f"offload: {what} {part!r} has no usable characters for a file name")
    return cleaned[:80]


def _cut_bytes(text: str, limit: int, *, from_end: bool = False) -> str:
    """At most `limit` bytes of whole lines (a partial line only when one line is longer than `limit`)."""
    data = text.encode()
    if len(data) <= limit:
        return text
    piece = data[-limit:] if from_end else data[:limit]
    cut = piece.decode(errors="ignore")
    if from_end and "\n" in cut:
        return cut.split("\n", 1)[1]
    if not from_end and "\n" in cut:
        return cut.rsplit("\n", 1)[0]
    return cut


def preview(text: str, limit_bytes: int, kind: str) -> str:
    """What stays inline: the head, or for logs and test runs the head and the tail."""
    if kind not in TAIL_KINDS:
        return _cut_bytes(text, limit_bytes)
    head = _cut_bytes(text, int(limit_bytes * HEAD_SHARE))
    tail = _cut_bytes(text, limit_bytes - len(head.encode()), from_end=True)
    return f"{head}\n{OFFLOAD_TAIL_HEADER}\n{tail}"


def offload_tool_output(text: str, *, workspace: Path, run_id: str, name: str, limit_bytes: int, kind: str) -> str:
    """`text` itself when it fits `limit_bytes`; else a preview plus the path of the file holding all of it."""
    size = len(text.encode())
    if size <= limit_bytes:
        return text
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    relative = SCRATCH_DIR / _safe(run_id, "run id") / f"{_safe(name, 'name')}-{digest}.txt"
    target = Path(workspace) / relative
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists():
            target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise WorkspaceError(f"offload: cannot write {target} ({exc.strerror})") from None
    note = OFFLOAD_NOTE.format(size=size, lines=text.count("\n") + 1, path=relative.as_posix())
    # The preview and the note together stay within the inline limit.
    room = max(0, limit_bytes - len(note.encode()) - len(OFFLOAD_TAIL_HEADER) - 2)
    return f"{preview(text, room, kind)}\n{note}"
