"""The completeness bar: every file the plan named for the task (its focus files) was touched, or the worker's
final message names it (says why it was left alone). A focus folder counts as touched by any file in it."""

from __future__ import annotations

import re
from collections.abc import Sequence

from slmcode.gates.verdict import GateVerdict
from slmcode.store.paths import STATE_DIR

GATE = "completeness"
HARNESS_STATE = (f"{STATE_DIR}/", ".git/")


def _clean(path: str) -> str:
    return path.strip().removeprefix("./").rstrip("/")


def _touched(focus: str, changed: set[str]) -> bool:
    return focus in changed or any(c.startswith(focus + "/") for c in changed)


def _named(focus: str, message: str) -> bool:
    """The message names the file by its path or its file name (as a word of its own)."""
    name = focus.rsplit("/", 1)[-1]
    return focus in message or bool(re.search(rf"(?<![\w./-]){re.escape(name)}(?![\w-])", message))


def focus_of(focus_files: Sequence[str]) -> list[str]:
    """The focus files the bar asks about, each once, in the plan's order."""
    # The harness's own state (.slmcode/, e.g. an offloaded task text the task names) is never the worker's to edit.
    return [f for f in dict.fromkeys(map(_clean, focus_files)) if f and not f.startswith(HARNESS_STATE)]


def untouched_focus(focus_files: Sequence[str], files_changed: Sequence[str], final_message: str = "") -> list[str]:
    """The focus files not touched by `files_changed` and not named in `final_message`: what the bar would fail on.
    The worker's loop asks it too (nodes/focus.py), so a task is kept going on the same definition of done."""
    changed = {_clean(c) for c in files_changed}
    return [f for f in focus_of(focus_files) if not _touched(f, changed) and not _named(f, final_message)]


def check_completeness(
    focus_files: Sequence[str], files_changed: Sequence[str], final_message: str
) -> GateVerdict | None:
    """None when the task named no focus file."""
    focus = focus_of(focus_files)
    if not focus:
        return None
    untouched = untouched_focus(focus, files_changed)
    unexplained = untouched_focus(untouched, (), final_message)
    if unexplained:
        return GateVerdict(GATE, "FAILED", f"focus file(s) not touched and not explained: {', '.join(unexplained)}")
    if untouched:
        return GateVerdict(
            GATE,
            "PASSED",
            f"{len(focus) - len(untouched)}/{len(focus)} focus files touched; "
            f"the worker explained {', '.join(untouched)}",
        )
    return GateVerdict(GATE, "PASSED", f"all {len(focus)} focus file(s) touched")
